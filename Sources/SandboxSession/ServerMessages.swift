import TransitionCore

/// Encodes every server → client message (docs/PROTOCOL.md).
public enum ServerMessages {
    public static func encode(_ message: ServerMessage, headroom: Int) -> EncodedMessage {
        switch message {
        case let .welcome(session, settings, version):
            return welcome(session, settings, version: version, headroom: headroom)
        case let .configured(session, settings, joined, id):
            return configured(session, settings, joined: joined, id: id, headroom: headroom)
        case let .pong(seq, t, serverTime, id):
            return pong(seq: seq, time: t, serverTime: serverTime, id: id, headroom: headroom)
        case .error(let error): return self.error(error, headroom: headroom)
        case .sessionEnded(let id): return sessionEnded(id, headroom: headroom)
        case .transition(let event): return transition(event, headroom: headroom)
        case .lifecycle(let record): return lifecycle(record, headroom: headroom)
        case let .sceneState(report, id): return sceneState(report, id: id, headroom: headroom)
        case let .link(conditions, id): return link(conditions, id: id, headroom: headroom)
        case let .prediction(table, id): return prediction(table, id: id, headroom: headroom)
        }
    }

    static func welcome(
        _ id: String, _ settings: SessionSettings, version: ProtocolVersion, headroom: Int
    ) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 2048)
        w.beginObject()
        w.key("type"); w.string("welcome")
        w.key("session"); w.string(id)
        // The negotiated version (docs/PROTOCOL.md, "Versions"): 1 whole frames with `t`, 2 deltas.
        w.key("protocol"); w.integer(version.rawValue)
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

    static func configured(
        _ id: String, _ settings: SessionSettings, joined: Bool, id requestID: RequestID? = nil, headroom: Int
    ) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom)
        w.beginObject()
        w.key("type"); w.string(joined ? "joined" : "configured")
        writeID(requestID, to: &w)
        w.key("session"); w.string(id)
        w.key("config"); settings.write(to: &w)
        w.endObject()
        return w.finish()
    }

    static func link(_ conditions: NetworkConditions, id: RequestID? = nil, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 96)
        w.beginObject()
        w.key("type"); w.string("link")
        writeID(id, to: &w)
        w.key("network"); conditions.write(to: &w)
        w.endObject()
        return w.finish()
    }

    static func pong(
        seq: Int, time: Double, serverTime: Double, id: RequestID? = nil, headroom: Int
    ) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 96)
        w.beginObject()
        w.key("type"); w.string("pong")
        writeID(id, to: &w)
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
        writeID(error.requestID, to: &w)
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
            if let projected = decision.projected { w.key("projected"); w.number(projected) }
        case .finished:
            w.key("event"); w.string("finished")
            w.key("progress"); w.number(1)
        case .cancelled:
            w.key("event"); w.string("cancelled")
            w.key("progress"); w.number(0)
        case .pausedOnCompletion(let progress):  // a property animator's pausesOnCompletion
            w.key("event"); w.string("paused")
            w.key("progress"); w.number(progress)
        }
        w.endObject()
        return w.finish()
    }

    /// `"id"` right after `type` when the message answers one that had an id; nothing otherwise,
    /// so a reply to a message without one is byte for byte what it was (`RequestIDTests`).
    static func writeID(_ id: RequestID?, to w: inout JSONWriter) {
        if let id { w.key("id"); w.string(id.text) }
    }

    static func lifecycle(_ record: LifecycleRecord, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 256)
        w.beginObject()
        w.key("type"); w.string("lifecycle")
        w.key("group"); w.integer(record.group)
        w.key("action"); w.string(record.action)
        w.key("controller"); w.string(record.event.controller)
        w.key("callback"); w.string(record.event.callback.rawValue)
        w.key("animated"); w.bool(record.event.animated)
        if let didComplete = record.event.didComplete { w.key("didComplete"); w.bool(didComplete) }
        if let size = record.event.size { w.key("size"); w.pair(size.width, size.height) }
        if let orientation = record.event.orientation { w.key("orientation"); w.string(orientation.rawValue) }
        w.endObject()
        return w.finish()
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
