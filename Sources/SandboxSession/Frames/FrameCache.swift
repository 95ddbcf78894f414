import TransitionCore

/// The latest frame of each session an executor (one service thread's `SandboxServer`, or a
/// `VirtualSession`) sends, encoded when the first connection writes it and stamped `sent` with
/// that time: a state nobody writes (a slow reader skips it) is never encoded. A delta against
/// the frame before it is offered, but a full frame at least every `keyframeSeconds`
/// (docs/PROTOCOL.md, "Delta frames"; `FrameDeltaTests`). The hub is only read: its state
/// changes through its inputs alone. The executor drops a session's entry when the hub
/// unregisters it (`forget`; `FrameCacheTests.endedSessionForgotten`).
public struct FrameCache {
    /// One session's latest encoding, and when its last full-only frame was made. Two encodings
    /// take turns: the latest and the one before, whose storage holds the next state when
    /// nothing else holds it (a slow link's held frame, a message in flight); so a session
    /// streams frame after frame without an allocation (`FrameRecyclingTests`).
    private struct Entry {
        var encoded: FrameEncoding
        var lastKeyframe: Double
        var spare: FrameEncoding?
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

    /// The same, reading the session where the hub's dictionary holds it: a read through a
    /// dictionary's getter copies the session whole (its engine, a retain of all it holds), a
    /// callgrind profile found that copy on every frame. The hub is left as it was (only read).
    public mutating func frame(for connection: ConnectionID, in hub: inout SessionHub, now: Double) -> FrameEncoding? {
        guard let id = hub.session(of: connection) else { return nil }
        return hub.inPlace(id) { session in encoding(of: id, session.core, now: now) }
    }

    /// The session ended: its frame is dropped.
    public mutating func forget(_ session: String) { entries[session] = nil }

    /// Frames made in a new encoding object rather than in a spare one (the tests' count of
    /// what streaming allocates: `FrameRecyclingTests`).
    public private(set) var encodingsMade = 0

    private mutating func encoding(of id: String, _ core: borrowing SessionCore, now: Double) -> FrameEncoding {
        guard let index = entries.index(forKey: id) else {
            let encoding = FrameEncoding(
                core, now: now * 1000, id: ids.next(), after: nil, deltaAllowed: false, headroom: headroom)
            encodingsMade += 1
            entries[id] = Entry(encoded: encoding, lastKeyframe: now)
            return encoding
        }
        // The entry where the dictionary holds it: its getter would copy it (retaining both
        // encodings) on every frame.
        return Self.advance(
            &entries.values[index], to: core, now: now, ids: &ids, made: &encodingsMade, headroom: headroom)
    }

    /// The entry's encoding of `core`'s state: the latest if it is that state, else the next one,
    /// made in the spare encoding when the entry alone holds it.
    private static func advance(
        _ entry: inout Entry, to core: borrowing SessionCore, now: Double, ids: inout FrameIDs, made: inout Int,
        headroom: Int
    ) -> FrameEncoding {
        let previous = entry.encoded
        if previous.number == core.frameNumber { return previous }
        let deltaAllowed = now - entry.lastKeyframe < keyframeSeconds
        let encoding: FrameEncoding
        if entry.spare != nil, isKnownUniquelyReferenced(&entry.spare!) {
            encoding = entry.spare!
            encoding.hold(core, now: now * 1000, id: ids.next(), after: previous, deltaAllowed: deltaAllowed)
        } else {
            encoding = FrameEncoding(
                core, now: now * 1000, id: ids.next(), after: previous, deltaAllowed: deltaAllowed, headroom: headroom)
            made += 1
        }
        if encoding.baseID == nil { entry.lastKeyframe = now }
        entry.spare = previous
        entry.encoded = encoding
        return encoding
    }

    /// The longest a session streams deltas without a full frame (server time, s).
    static let keyframeSeconds = 2.0
}
