/// The bounds one connection lives within (docs/SECURITY.md lists each with its reason).
public struct ConnectionLimits: Sendable, Equatable {
    /// Largest client message; larger closes with 1009.
    public var messageBytes = 64 * 1024
    /// Replies waiting for a peer that does not read, by count and by bytes; past either the
    /// connection is dropped (1008).
    public var queuedReplies = 256
    public var queuedBytes = 256 * 1024
    /// Past these, the connection's input is paused until half of its replies are read: a
    /// client that sends faster than it reads is slowed down, not dropped. Only what it did not
    /// ask for (a viewer's broadcasts) can then reach the bounds above.
    public var pauseReplies = 32
    public var pauseBytes = 64 * 1024
    /// The largest single message the server will hand libwebsockets (its `tx_packet_size`).
    public var sendBytes = 256 * 1024
    /// A connection whose writes have waited this long for room is cut (a peer that stopped reading).
    public var writeStallSeconds = 30.0
    /// Input rate, per connection: sustained messages and bytes per second, with a burst of
    /// `burstSeconds` worth of each. Past it: a `rate-limited` error, then a 1008 close.
    public var messagesPerSecond = 2_000
    public var bytesPerSecond = 4 * 1024 * 1024
    public var burstSeconds = 2.0
    /// Open WebSocket connections, across every service thread; past it the upgrade is refused
    /// with 503. Nil: sized to the descriptor limit (`defaultMaxConnections`).
    public var maxConnections: Int?

    public init() {}
}
