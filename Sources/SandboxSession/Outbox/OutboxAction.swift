/// What a connection's `Outbox` asks its executor to do, in order. The live executor is
/// `Connection` (libwebsockets); `VirtualSession` reads `write` as what reaches the client.
public enum OutboxAction: Equatable {
    /// Hand this message to the socket now: the room check said it fits whole. `frame`: a frame
    /// (for the counters), not a reply.
    case write(EncodedMessage, frame: Bool)
    /// Ask for a WRITEABLE callback.
    case requestWritable
    /// Stop reading the peer's input (TCP's flow control, by hand) / read it again.
    case pauseInput
    case resumeInput
    /// The connection is closed by the server with this code (1006: cut, no close frame): for
    /// the counters and the log line.
    case closing(code: Int)
    /// Send the close frame now and end the callback with -1 (once: a second -1 would cut the
    /// connection before the peer reads the close frame).
    case sendClose(code: Int, reason: String)
    /// Cut the connection if the close frame has not gone out within this many seconds.
    case kill(after: Int)
    /// Cut the connection now (no close frame).
    case killSoon
    /// When the connection closes, reset it (`SO_LINGER` 0): the kernel frees its send queue at
    /// once instead of sending it on (a connection cut over the process's byte budget).
    case resetOnClose
    /// A write found no room: the server's retry tick asks for WRITEABLE again.
    case blocked
    /// The input rate bound was exceeded: this error is queued before the close (log, metrics).
    case rateLimited(WireError)
    /// A whole client message for the session (`arrived`: when it reached the socket, if the
    /// simulated network held it until now).
    case deliverToSession([UInt8], binary: Bool, arrived: Double?)
    /// The simulated network holds something due at this time: the network scheduler fires by it.
    case networkDue(Double)
}
