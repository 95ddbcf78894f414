import TransitionCore

/// A server → client message other than a frame (frames are encoded from the session when a
/// connection can write: `FrameEncoding`). What the session state machine asks to send;
/// Equatable, so its tests compare action lists.
public enum ServerMessage: Equatable, Sendable {
    /// `protocol`: the version the connection negotiated, which `welcome` tells it.
    case welcome(session: String, settings: SessionSettings, protocol: ProtocolVersion = .v2)
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
    /// The tracking table of the session a connection drives, for a connection that asked for
    /// prediction (`SessionHub.sendPrediction`); nil: none.
    case prediction(TrackingTable?, id: RequestID? = nil)

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
    /// session it asked to join does not exist or has no room (`SessionHub.remoteWatchEnded`).
    public var endsWatch: Bool {
        switch self {
        case .sessionEnded: return true
        case .error(let error):
            return error.code == WireError.Code.unknownSession.rawValue
                || error.code == WireError.Code.tooManyViewers.rawValue
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
        case .prediction(let table, _): return .prediction(table, id: id)
        case .error(var error):
            error.requestID = id
            return .error(error)
        case .welcome, .sessionEnded, .transition, .lifecycle: return nil
        }
    }
}
