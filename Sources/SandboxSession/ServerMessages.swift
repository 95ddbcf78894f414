import TransitionCore

/// A server → client message other than a frame (frames are encoded from the session when a
/// connection can write: `FrameEncoding`). What the session state machine asks to send;
/// Equatable, so its tests compare action lists.
public enum ServerMessage: Equatable, Sendable {
    case welcome(session: String, settings: SessionSettings)
    /// `joined` answers a viewer's `join`; `configured` goes to every connection of a session.
    /// `id`, here and below: the request id of the message this answers, echoed (`RequestID`).
    case configured(session: String, settings: SessionSettings, joined: Bool, id: RequestID? = nil)
    case pong(seq: Int, t: Double, serverTime: Double, id: RequestID? = nil)
    case error(WireError)
    case sessionEnded(String)
    case transition(TransitionEvent)
    case lifecycle(LifecycleRecord)
    /// nil: the session left scene mode.
    case sceneState(SceneReport?, id: RequestID? = nil)
    /// The connection's own simulated network, after `welcome` (when one is set) and whenever
    /// the connection changes it.
    case link(NetworkConditions, id: RequestID? = nil)

    /// True for `welcome` and `joined`: the client holds no frame after them (its assembler
    /// starts over), so the next frame the connection is sent must be whole.
    public var startsFrames: Bool {
        switch self {
        case .welcome: return true
        case .configured(_, _, let joined, _): return joined
        default: return false
        }
    }

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

extension ServerMessage {
    /// This message as the answer to a request with `id`: `configured`/`joined`, `pong`,
    /// `scene-state`, `link` and `error` carry it; nil for the others (events and broadcasts
    /// are no one's reply). `RequestIDTests` holds which do.
    func replying(to id: RequestID) -> ServerMessage? {
        switch self {
        case let .configured(session, settings, joined, _):
            return .configured(session: session, settings: settings, joined: joined, id: id)
        case let .pong(seq, t, serverTime, _): return .pong(seq: seq, t: t, serverTime: serverTime, id: id)
        case .sceneState(let report, _): return .sceneState(report, id: id)
        case .link(let conditions, _): return .link(conditions, id: id)
        case .error(var error):
            error.requestID = id
            return .error(error)
        case .welcome, .sessionEnded, .transition, .lifecycle: return nil
        }
    }
}

/// Encodes every server → client message (docs/PROTOCOL.md).
public enum ServerMessages {
    public static func encode(_ message: ServerMessage, headroom: Int) -> EncodedMessage {
        switch message {
        case let .welcome(session, settings): return welcome(session, settings, headroom: headroom)
        case let .configured(session, settings, joined, id):
            return configured(session, settings, joined: joined, id: id, headroom: headroom)
        case let .pong(seq, t, serverTime, id): return pong(seq: seq, time: t, serverTime: serverTime, id: id, headroom: headroom)
        case .error(let error): return self.error(error, headroom: headroom)
        case .sessionEnded(let id): return sessionEnded(id, headroom: headroom)
        case .transition(let event): return transition(event, headroom: headroom)
        case .lifecycle(let record): return lifecycle(record, headroom: headroom)
        case let .sceneState(report, id): return sceneState(report, id: id, headroom: headroom)
        case let .link(conditions, id): return link(conditions, id: id, headroom: headroom)
        }
    }

    static func welcome(_ id: String, _ settings: SessionSettings, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 2048)
        w.beginObject()
        w.key("type"); w.string("welcome")
        w.key("session"); w.string(id)
        // 2: delta frames, fixed-precision numbers, no `t` in frames (issue 15).
        w.key("protocol"); w.integer(2)
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

    static func pong(seq: Int, time: Double, serverTime: Double, id: RequestID? = nil, headroom: Int) -> EncodedMessage {
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
            if let projected = decision.projected { w.key("projected"); w.number(projected) }  // issue 14
        case .finished:
            w.key("event"); w.string("finished")
            w.key("progress"); w.number(1)
        case .cancelled:
            w.key("event"); w.string("cancelled")
            w.key("progress"); w.number(0)
        case .pausedOnCompletion(let progress):  // issue 14: a property animator's pausesOnCompletion
            w.key("event"); w.string("paused")
            w.key("progress"); w.number(progress)
        }
        w.endObject()
        return w.finish()
    }

    /// `"id"` right after `type` when the message answers one that had an id; nothing otherwise,
    /// so a reply to a message without one is byte for byte what it was (`RequestIDTests`).
    private static func writeID(_ id: RequestID?, to w: inout JSONWriter) {
        if let id { w.key("id"); w.string(id.text) }
    }

    private static func writeRect(_ rect: Rect, to w: inout JSONWriter) {
        w.numbers([rect.minX, rect.minY, rect.width, rect.height])
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

    static func sceneState(_ report: SceneReport?, id: RequestID? = nil, headroom: Int) -> EncodedMessage {
        var w = JSONWriter(headroom: headroom, capacity: 2048)
        w.beginObject()
        w.key("type"); w.string("scene-state")
        writeID(id, to: &w)
        guard let report else {
            w.key("root"); w.null()
            w.endObject()
            return w.finish()
        }
        let state = report.state
        w.key("device"); w.string(state.device.rawValue)
        w.key("size"); w.pair(state.device.size.width, state.device.size.height)
        w.key("interruptible"); w.bool(report.interruptible)
        w.key("root"); write(state.root, to: &w)
        w.key("presentations")
        w.beginArray()
        for presentation in state.presentations {
            w.beginObject()
            w.key("presenter"); w.string(presentation.presenter)
            w.key("presented"); w.string(presentation.presented)
            w.key("source"); w.string(presentation.source)
            w.key("style"); w.string(presentation.style.rawValue)
            w.key("transition"); w.string(presentation.transition.rawValue)
            w.endObject()
        }
        w.endArray()
        w.key("navigationStacks")
        w.beginArray()
        for stack in state.navigationStacks {
            w.beginObject()
            w.key("navigation"); w.string(stack.navigation)
            w.key("stack")
            w.beginArray()
            for id in stack.stack { w.string(id) }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("topMost"); w.string(state.topMost)
        w.key("appeared")
        w.beginArray()
        for id in state.appeared { w.string(id) }
        w.endArray()
        w.key("inFlight")
        if let action = state.inFlight { w.string(action.rawValue) } else { w.null() }
        w.key("orientation"); writeOrientation(state.orientation, to: &w)
        w.key("armed")
        if let armed = report.armed {
            w.beginObject()
            w.key("action"); w.string(armed.action.rawValue)
            w.key("from"); w.string(armed.from)
            w.key("to"); w.string(armed.to)
            w.key("kind"); w.string(armed.kind.rawValue)
            w.key("edgeSwipe"); w.bool(armed.edgeSwipe)
            w.key("default"); w.bool(armed.isDefault)
            w.endObject()
        } else {
            w.null()
        }
        w.endObject()
        return w.finish()
    }

    /// Device versus interface, the window's bounds, and what is allowed with where each
    /// restriction comes from (the app, the window, the deciding controller).
    private static func writeOrientation(_ state: SceneOrientationState, to w: inout JSONWriter) {
        w.beginObject()
        w.key("device"); w.string(state.deviceOrientation.rawValue)
        w.key("interface"); w.string(state.interfaceOrientation.rawValue)
        w.key("bounds"); writeRect(state.windowBounds, to: &w)
        w.key("allowed"); writeMask(state.allowed, to: &w)
        w.key("decider"); w.string(state.resolution.decider)
        w.key("shouldAutorotate"); w.bool(state.resolution.shouldAutorotate)
        w.key("sources")
        w.beginArray()
        for (source, mask) in state.resolution.sources {
            w.beginObject()
            switch source {
            case .hardware: w.key("source"); w.string("hardware")
            case .app: w.key("source"); w.string("app")
            case .window: w.key("source"); w.string("window")
            case .controller(let id): w.key("source"); w.string("controller"); w.key("controller"); w.string(id)
            }
            w.key("mask"); w.integer(mask.rawValue)
            w.key("names"); w.strings(mask.names)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    private static func writeMask(_ mask: OrientationMask, to w: inout JSONWriter) {
        w.beginObject()
        w.key("mask"); w.integer(mask.rawValue)
        w.key("names"); w.strings(mask.names)
        w.endObject()
    }

    /// A controller tree as the wire describes it (what `scene` takes).
    private static func write(_ controller: SceneController, to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(controller.id)
        w.key("title"); w.string(controller.title)
        w.key("kind"); w.string(controller.isNavigation ? "navigation" : "plain")
        if let stack = controller.stack {
            w.key("stack")
            w.beginArray()
            for child in stack { write(child, to: &w) }
            w.endArray()
        }
        w.key("presentationStyle"); w.string(controller.presentationStyle.rawValue)
        w.key("transitionStyle"); w.string(controller.transitionStyle.rawValue)
        w.key("definesPresentationContext"); w.bool(controller.definesPresentationContext)
        w.key("providesPresentationContextTransitionStyle"); w.bool(controller.providesPresentationContextTransitionStyle)
        if let mask = controller.supportedMask { w.key("supportedOrientations"); w.strings(mask.names) }
        w.key("shouldAutorotate"); w.bool(controller.shouldAutorotate)
        if let preferred = controller.preferredOrientation { w.key("preferredOrientation"); w.string(preferred.rawValue) }
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
