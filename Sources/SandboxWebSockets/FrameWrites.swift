/// When a frame that a display link's tick made due is written (`serve --frame-writes`).
/// Measured against each other on the quiet machine (docs/PERFORMANCE.md, "Frame cost").
public enum FrameWrites: String, CaseIterable, Sendable {
    /// The connection asks lws for WRITEABLE and writes after the next poll over every
    /// descriptor: two polls a tick phase (the one that wakes for the tick, the one that finds
    /// the sockets writable).
    case poll
    /// Written as soon as the tick's actions are carried out, each through a WRITEABLE callback
    /// lws makes without a poll (`WebSocketHandle.serviceWritable`): one poll a tick phase, and
    /// each session encoded and written right after the tick that advanced it. A frame that
    /// cannot go then (no room, lws busy with the socket) falls back to the poll.
    case tick
}
