/// A connection, as the session state machine knows it: which service thread serves it (so a
/// session on one thread can address a viewer on another) and its number there.
public struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    public let thread: Int
    public let number: Int

    public init(thread: Int = 0, number: Int) {
        self.thread = thread
        self.number = number
    }

    public var description: String { "\(thread).\(number)" }
}

/// What `SessionHub` asks its executor (the live server, or `VirtualSession`) to do. The hub
/// decides; the executor only carries out, in order.
public enum SessionAction: Equatable, Sendable {
    /// Queue a message for a connection (possibly served by another thread).
    case send(ConnectionID, ServerMessage)
    /// The connection's session has a new frame: send it the latest one when it can write
    /// (frames are not queued; the newest wins).
    case frameDue(ConnectionID)
    /// A session started animating at this frame rate in a phase where none was (with one
    /// phase: at a rate where none was): start the display link, or let a running one plan its
    /// next tick again.
    case startTicking(fps: Int)
    /// No session animates at this frame rate any more: stop its display link.
    case stopTicking(fps: Int)
    /// A session was created here / ended: publish it to the other threads (`join`).
    case register(session: String)
    case unregister(session: String)
    /// The connection asked to join a session this hub does not have: the executor looks it up
    /// (a multi-threaded server in its group's directory) and answers `SessionHub.watchElsewhere`
    /// when another thread hosts it, `SessionHub.lookUpFailed` otherwise (a single thread and
    /// the replay always). `id`: the join's request id, for the error. Nothing changed yet.
    case lookUp(ConnectionID, session: String, id: RequestID?)
    /// The connection joined a session another thread hosts: ask that thread to attach it
    /// (`SessionHub.attachViewer`) / to detach it (`SessionHub.detachViewer`).
    case watchElsewhere(ConnectionID, session: String)
    case stopWatchingElsewhere(ConnectionID, session: String)
    /// The connection's simulated network changed (`NetworkLink`): what it sends and is sent
    /// from now on is held under these conditions. Always for a connection of this thread.
    case setLink(ConnectionID, NetworkConditions)
    /// The connection's message reached other connections (its viewers): take `bytes` more
    /// from its input budget (`Outbox.chargeFanOut`), past which it is refused and closed like a
    /// flood (`SessionHub.chargeFanOut`). Always for a connection of this thread.
    case charge(ConnectionID, bytes: Int)
}
