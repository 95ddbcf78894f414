import SandboxSession

/// The protocol messages the tools send (docs/PROTOCOL.md), written by `JSONWriter`.
enum ClientMessages {
    static let play = message("play") { _ in }

    /// `{"type":"pointer","phase":…,"x":…,"y":…,"t":MS,"seq":N,"pointerId":ID?}`
    static func pointer(_ phase: String, x: Double, y: Double, t: Double, seq: Int, pointerId: Int? = nil) -> String {
        message("pointer", capacity: 128) { w in
            w.key("phase")
            w.string(phase)
            w.key("x")
            w.number(x)
            w.key("y")
            w.number(y)
            w.key("t")
            w.number(t)
            w.key("seq")
            w.integer(seq)
            if let pointerId {
                w.key("pointerId")
                w.integer(pointerId)
            }
        }
    }

    static func ping(seq: Int, t: Double) -> String {
        message("ping") { w in
            w.key("seq")
            w.integer(seq)
            w.key("t")
            w.number(t)
        }
    }

    static func configure(fps: Int, duration: Double) -> String {
        message("configure") { w in
            w.key("fps")
            w.integer(fps)
            w.key("duration")
            w.number(duration)
        }
    }

    /// `{"type":TYPE, …fields}`.
    /// A `configure` that changes only the connection's own simulated network.
    static func network(_ conditions: NetworkConditions) -> String {
        message("configure", capacity: 96) { w in
            w.key("network")
            conditions.write(to: &w)
        }
    }

    private static func message(_ type: String, capacity: Int = 64, _ fields: (inout JSONWriter) -> Void) -> String {
        JSONText.write(capacity: capacity) { w in
            w.beginObject()
            w.key("type")
            w.string(type)
            fields(&w)
            w.endObject()
        }
    }
}
