import TransitionCore

/// The latest frame of each session an executor (one service thread's `SandboxServer`, or a
/// `VirtualSession`) sends, encoded when the first connection writes it and stamped `sent` with
/// that time: a state nobody writes (a slow reader skips it) is never encoded. A delta against
/// the frame before it is offered, but a full frame at least every `keyframeSeconds`
/// (docs/PROTOCOL.md, "Delta frames"; `FrameDeltaTests`). The hub is only read: its state
/// changes through its inputs alone. The executor drops a session's entry when the hub
/// unregisters it (`forget`; `FrameCacheTests.endedSessionForgotten`).
public struct FrameCache {
    /// One session's latest encoding, and when its last full-only frame was made.
    private struct Entry {
        var encoded: FrameEncoding
        var lastKeyframe: Double
    }

    private var entries: [String: Entry] = [:]
    /// Ids of the frames this executor makes (`FrameIDs`), advanced only when a frame is made.
    private var ids: FrameIDs
    private let headroom: Int

    /// For the executor of `hub`: its thread's frame ids and its headroom (`SessionHub.headroom`).
    public init(for hub: SessionHub) {
        ids = FrameIDs(thread: hub.thread)
        headroom = hub.headroom
    }

    /// Sessions with a frame here.
    public var count: Int { entries.count }

    /// The latest frame of the connection's session in `hub`, stamped `now` (s) when first
    /// encoded; encoded once per frame whoever asks. Nil when the connection watches nothing
    /// in `hub` (a session watched on another thread is not there).
    public mutating func frame(for connection: ConnectionID, in hub: SessionHub, now: Double) -> FrameEncoding? {
        guard let id = hub.session(of: connection) else { return nil }
        return hub.withCore(of: id) { core in encoding(of: id, core, now: now) }
    }

    /// The session ended: its frame is dropped.
    public mutating func forget(_ session: String) { entries[session] = nil }

    private mutating func encoding(of id: String, _ core: borrowing SessionCore, now: Double) -> FrameEncoding {
        let index = entries.index(forKey: id)
        if let index, entries.values[index].encoded.number == core.frameNumber {
            return entries.values[index].encoded
        }
        let previous = index.map { entries.values[$0] }
        let lastKeyframe = previous?.lastKeyframe ?? -.infinity
        let encoding = FrameEncoding(
            FrameSnapshot.encode(core, now: now * 1000), id: ids.next(), after: previous?.encoded,
            deltaAllowed: now - lastKeyframe < Self.keyframeSeconds, headroom: headroom)
        let entry = Entry(encoded: encoding, lastKeyframe: encoding.baseID == nil ? now : lastKeyframe)
        if let index { entries.values[index] = entry } else { entries[id] = entry }
        return encoding
    }

    /// The longest a session streams deltas without a full frame (server time, s).
    static let keyframeSeconds = 2.0
}
