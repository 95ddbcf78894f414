import TransitionCore

/// A server → client message other than a frame (frames are encoded from the session when a
/// connection can write: `ServerMessages.frame`). What the session state machine asks to send;
/// Equatable, so its tests compare action lists.
public enum ServerMessage: Equatable, Sendable {
    case welcome(session: String, settings: SessionSettings)
    /// `joined` answers a viewer's `join`; `configured` goes to every connection of a session.
    case configured(session: String, settings: SessionSettings, joined: Bool)
    case pong(seq: Int, t: Double, serverTime: Double)
    case error(WireError)
    case sessionEnded(String)
    case transition(TransitionEvent)

    /// True for the messages after which a viewer watches nothing: its session ended, or the
    /// session it asked to join does not exist (`SessionHub.remoteWatchEnded`).
    public var endsWatch: Bool {
        switch self {
        case .sessionEnded: return true
        case .error(let error): return error.code == WireError.Code.unknownSession.rawValue
        default: return false
        }
    }
}

/// Encodes every server → client message (docs/PROTOCOL.md).
public enum ServerMessages {
    public static func encode(_ message: ServerMessage, headroom: Int) -> EncodedMessage {
        switch message {
        case let .welcome(session, settings): return welcome(session, settings, headroom: headroom)
        case let .configured(session, settings, joined): return configured(session, settings, joined: joined, headroom: headroom)
        case let .pong(seq, t, serverTime): return pong(seq: seq, time: t, serverTime: serverTime, headroom: headroom)
        case .error(let error): return self.error(error, headroom: headroom)
        case .sessionEnded(let id): return sessionEnded(id, headroom: headroom)
        case .transition(let event): return transition(event, headroom: headroom)
        }
    }

    static func welcome(_ id: String, _ settings: SessionSettings, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 2048)
        w.beginObject()
        w.key("type"); w.string("welcome")
        w.key("session"); w.string(id)
        w.key("protocol"); w.integer(1)
        w.key("config"); settings.write(to: &w)
        let container = settings.configuration.container
        w.key("container"); w.pair(container.width, container.height)
        w.key("shapes")
        w.beginObject()
        w.key("logo"); writeLogo(&w)
        w.endObject()
        w.endObject()
        return w.finish()
    }

    static func configured(_ id: String, _ settings: SessionSettings, joined: Bool, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom)
        w.beginObject()
        w.key("type"); w.string(joined ? "joined" : "configured")
        w.key("session"); w.string(id)
        w.key("config"); settings.write(to: &w)
        w.endObject()
        return w.finish()
    }

    static func pong(seq: Int, time: Double, serverTime: Double, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 96)
        w.beginObject()
        w.key("type"); w.string("pong")
        w.key("seq"); w.integer(seq)
        w.key("t"); w.number(time)
        w.key("serverTime"); w.number(serverTime)
        w.endObject()
        return w.finish()
    }

    static func error(_ error: WireError, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 256)
        w.beginObject()
        w.key("type"); w.string("error")
        w.key("code"); w.string(error.code)
        w.key("message"); w.string(error.message)
        if let field = error.field { w.key("field"); w.string(field) }
        if let seq = error.seq { w.key("seq"); w.integer(seq) }
        w.endObject()
        return w.finish()
    }

    static func sessionEnded(_ id: String, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 96)
        w.beginObject()
        w.key("type"); w.string("session-ended")
        w.key("session"); w.string(id)
        w.endObject()
        return w.finish()
    }

    static func transition(_ event: TransitionEvent, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 192)
        w.beginObject()
        w.key("type"); w.string("transition")
        switch event {
        case let .began(progress, grabbed):
            w.key("event"); w.string("began")
            w.key("progress"); w.number(progress)
            w.key("grabbed"); w.bool(grabbed)
        case .played:
            w.key("event"); w.string("played")
            w.key("progress"); w.number(0)
        case let .released(decision):
            w.key("event"); w.string("released")
            w.key("progress"); w.number(decision.progress)
            w.key("decision"); w.string(decision.outcome.rawValue)
            w.key("reason"); w.string(decision.reason.rawValue)
            w.key("velocity"); w.number(decision.velocity)
        case .finished:
            w.key("event"); w.string("finished")
            w.key("progress"); w.number(1)
        case .cancelled:
            w.key("event"); w.string("cancelled")
            w.key("progress"); w.number(0)
        }
        w.endObject()
        return w.finish()
    }

    /// The session's current frame, stamped `now` (server ms).
    static func frame(_ session: SessionCore, now: Double, headroom: Int) -> EncodedMessage {
        let frame = session.engine.frame()
        var w = JSONWriter(headroom: headroom, capacity: 360 * frame.layers.count + 200)
        w.beginObject()
        w.key("type"); w.string("frame")
        w.key("n"); w.integer(session.frameNumber)
        w.key("t"); w.number(now)
        w.key("phase"); w.string(frame.phase.rawValue)
        w.key("progress"); w.number(frame.progress)
        w.key("ack")
        if let ack = session.ack { w.integer(ack) } else { w.null() }
        w.key("received")
        if let received = session.ackReceived { w.number(received) } else { w.null() }
        w.key("sent"); w.number(now)
        w.key("velocity"); w.pair(frame.velocity.x, frame.velocity.y)
        w.key("layers")
        w.beginArray()
        for layer in frame.layers { write(layer, to: &w) }
        w.endArray()
        w.endObject()
        return w.finish()
    }

    private static func write(_ layer: LayerState, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(layer.id.rawValue)
        w.key("content"); w.string(layer.content.rawValue)
        w.key("shape"); w.string(layer.shape.rawValue)
        w.key("center"); w.pair(layer.center.x, layer.center.y)
        w.key("bounds"); w.pair(layer.bounds.width, layer.bounds.height)
        let t = layer.transform
        w.key("transform")
        w.beginArray()
        w.number(t.a); w.number(t.b); w.number(t.c); w.number(t.d); w.number(t.tx); w.number(t.ty)
        w.endArray()
        w.key("cornerRadius"); w.number(layer.cornerRadius)
        w.key("opacity"); w.number(layer.opacity)
        w.key("z"); w.integer(layer.z)
        if let mask = layer.mask { w.key("mask"); w.string(mask.rawValue) }
        if let transform3D = layer.transform3D {
            w.key("transform3d"); w.numbers(transform3D.components)
            if let corners = layer.projectedCorners() {
                w.key("corners")
                w.beginArray()
                for corner in corners { w.pair(corner.x, corner.y) }
                w.endArray()
            }
        }
        w.endObject()
    }

    /// The logo path as `[["M",x,y],["C",x1,y1,x2,y2,x,y],["L",x,y],["Z"]]` in its box.
    private static func writeLogo(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("size"); w.pair(LogoPath.size.width, LogoPath.size.height)
        w.key("path")
        w.beginArray()
        for command in LogoPath.commands {
            w.beginArray()
            switch command {
            case .move(let p): w.string("M"); w.number(p.x); w.number(p.y)
            case .line(let p): w.string("L"); w.number(p.x); w.number(p.y)
            case let .curve(to, c1, c2):
                w.string("C")
                for value in [c1.x, c1.y, c2.x, c2.y, to.x, to.y] { w.number(value) }
            case .close: w.string("Z")
            }
            w.endArray()
        }
        w.endArray()
        w.endObject()
    }
}
