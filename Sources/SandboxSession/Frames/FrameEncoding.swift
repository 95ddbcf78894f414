/// A session's frame for one state, as every connection of it is sent it: in protocol 2 a delta
/// against the frame before (when there is one to apply it to) or the full frame
/// (docs/PROTOCOL.md, "Delta frames"); in protocol 1 the full frame with `t`. Each is encoded
/// once, when the first connection needs it, whatever the number of viewers; the connection picks
/// with `message(after:in:)` from its version and the id of the frame it was sent last.
///
/// Used on its session's service thread (the encodings are lazy); `copy()` makes one for
/// another thread. The executor's `FrameCache` reuses an encoding nothing else holds for a
/// later state of its session (`hold`): once warm, a frame allocates nothing.
public final class FrameEncoding: @unchecked Sendable {
    // Each object is used on one thread (a copy for another thread is another object), never in
    // overlapping accesses: no runtime exclusivity bookkeeping (callgrind counted it on every
    // frame; see FrameSnapshot).

    /// Unique in the process: a connection remembers the id of the last frame it was sent. Made
    /// by the executor's `FrameCache` (`FrameIDs`): its thread in the high bits, its own count
    /// below, so ids of two threads never collide (`frameIDsCarryTheirThread`).
    @exclusivity(unchecked) public private(set) var id: UInt64
    /// The frame the delta applies to (nil: this state is sent whole to everyone).
    @exclusivity(unchecked) public private(set) var baseID: UInt64?
    /// The frame number (`n`).
    @exclusivity(unchecked) public private(set) var number: Int
    /// Its parts (nil in a copy for another thread, whose encodings are made already).
    @exclusivity(unchecked) private(set) var snapshot: FrameSnapshot?
    /// The base's parts, until the delta is encoded.
    @exclusivity(unchecked) private var base: FrameSnapshot?
    private let headroom: Int
    @exclusivity(unchecked) private var encodedFull: EncodedMessage?
    @exclusivity(unchecked) private var encodedDelta: EncodedMessage?
    @exclusivity(unchecked) private var encodedTimed: EncodedMessage?
    /// The buffers the encodings are written into, kept for the next state this object holds
    /// (`hold`) when no message made from them is held elsewhere.
    @exclusivity(unchecked) private var fullBuffer: ByteBuffer?, deltaBuffer: ByteBuffer?, timedBuffer: ByteBuffer?
    /// `sent`'s value in the full frame's payload (protocol 1 copies it as `t`).
    @exclusivity(unchecked) private var sentInFull: Range<Int>

    /// The session's current state, stamped `now` (server ms): see `hold`.
    init(
        _ session: borrowing SessionCore, now: Double, id: UInt64, after previous: FrameEncoding?,
        deltaAllowed: Bool, headroom: Int
    ) {
        self.id = id
        number = 0
        self.headroom = headroom
        sentInFull = 0..<0
        hold(session, now: now, id: id, after: previous, deltaAllowed: deltaAllowed)
    }

    /// Holds the session's current state, stamped `now` (server ms), in this object's storage:
    /// the parts, then the messages as connections ask for them, are written over the state it
    /// held, into the same buffers. Only for an encoding nothing else holds (the cache checks
    /// `isKnownUniquelyReferenced`), so no reader sees it change; a buffer or snapshot still
    /// held elsewhere (a message in flight, the next state's delta base) is left to its holder
    /// and a new one made (`FrameRecyclingTests`).
    ///
    /// `previous`: the session's frame before this one; a delta against it is offered when
    /// `deltaAllowed` and it is this state's predecessor (`n` − 1).
    func hold(
        _ session: borrowing SessionCore, now: Double, id: UInt64, after previous: FrameEncoding?, deltaAllowed: Bool
    ) {
        // The messages first: each holds its buffer.
        encodedFull = nil
        encodedDelta = nil
        encodedTimed = nil
        base = nil
        Self.keepIfUnique(&fullBuffer)
        Self.keepIfUnique(&deltaBuffer)
        Self.keepIfUnique(&timedBuffer)
        if snapshot == nil || !isKnownUniquelyReferenced(&snapshot!) {
            snapshot = FrameSnapshot(layers: previous?.snapshot?.layers.count ?? 4)
        }
        let snapshot = snapshot!
        snapshot.encode(session, now: now)
        self.id = id
        number = snapshot.number
        let header = FrameWriter.headerOffset(number: snapshot.number) - snapshot.header.lowerBound
        sentInFull = (snapshot.sent.lowerBound + header)..<(snapshot.sent.upperBound + header)
        if deltaAllowed, let previous, previous !== self, let base = previous.snapshot,
            base.number + 1 == snapshot.number, base.hasUniqueIDs, snapshot.hasUniqueIDs
        {
            baseID = previous.id
            self.base = base
        } else {
            baseID = nil
        }
    }

    /// A frame buffer's first capacity: the parts and a little (a buffer that proves too small
    /// grows once and keeps its size). Twice the parts, with a full buffer made with every
    /// encoding, allocated nothing after a session's first frames but made the byte budget's
    /// never-readers case fail (`test_hostile_bounds.py`; docs/PERFORMANCE.md "Allocations").
    private static func capacity(for snapshot: FrameSnapshot, headroom: Int) -> Int {
        headroom + snapshot.byteCount + 64
    }

    /// Keeps `buffer` for the next state only if nothing else holds it (a message made from it).
    private static func keepIfUnique(_ buffer: inout ByteBuffer?) {
        if buffer != nil, !isKnownUniquelyReferenced(&buffer!) { buffer = nil }
    }

    /// `buffer`, or a new one of `capacity` bytes kept there.
    private static func reuse(_ buffer: inout ByteBuffer?, capacity: Int) -> ByteBuffer {
        if let buffer { return buffer }
        let made = ByteBuffer(capacity: capacity)
        buffer = made
        return made
    }

    private init(copying other: FrameEncoding) {
        id = other.id
        baseID = other.baseID
        number = other.number
        snapshot = nil
        headroom = other.headroom
        sentInFull = other.sentInFull
        let full = other.full.copy()
        encodedFull = full
        encodedDelta = other.delta?.copy()
        // One buffer stays one (`PaddingFrameTests.oneBufferChargedOnceAndCopiedOnce`).
        encodedTimed = other.encodedTimed.map { $0.sharesBuffer(with: other.full) ? full : $0.copy() }
    }

    /// A frame only ever sent whole (the tests' stand-in of a given size); `everyProtocol`: the
    /// same bytes in protocol 1 too (`padding(bytes:headroom:)`, which has no `n` to time).
    init(whole message: EncodedMessage, id: UInt64 = 0, everyProtocol: Bool = false) {
        self.id = id
        baseID = nil
        number = 0
        snapshot = nil
        headroom = message.headroom
        encodedFull = message
        encodedTimed = everyProtocol ? message : nil
        sentInFull = 0..<0
    }

    /// The full frame.
    public var full: EncodedMessage {
        if let encodedFull { return encodedFull }
        let snapshot = snapshot!
        let buffer = Self.reuse(&fullBuffer, capacity: Self.capacity(for: snapshot, headroom: headroom))
        let message = FrameWriter.full(snapshot, into: buffer, headroom: headroom)
        encodedFull = message
        return message
    }

    /// The delta against `baseID`'s frame, if one is offered.
    public var delta: EncodedMessage? {
        if let encodedDelta { return encodedDelta }
        guard let base, let snapshot else { return nil }
        let buffer = Self.reuse(&deltaBuffer, capacity: Self.capacity(for: snapshot, headroom: headroom))
        let message = FrameWriter.delta(snapshot, base: base, into: buffer, headroom: headroom)
        encodedDelta = message
        self.base = nil
        return message
    }

    /// Protocol 1's frame: the full frame with `t` after `n` (made from `full`, so a copy for
    /// another thread makes it too, at most once per thread).
    public var timed: EncodedMessage {
        if let encodedTimed { return encodedTimed }
        let full = self.full
        let buffer = Self.reuse(&timedBuffer, capacity: full.headroom + full.payloadCount + sentInFull.count + 8)
        let message = FrameWriter.timed(full, number: number, sent: sentInFull, into: buffer)
        encodedTimed = message
        return message
    }

    /// What a connection of `version` that was last sent frame `lastID` is sent now: in
    /// protocol 2 the delta when it holds this frame's base, else the full frame; in protocol 1
    /// always the whole frame with `t` (`ProtocolVersionTests`).
    public func message(after lastID: UInt64?, in version: ProtocolVersion = .v2) -> EncodedMessage {
        switch version {
        case .v1:
            return timed
        case .v2:
            if let baseID, lastID == baseID, let delta { return delta }
            return full
        }
    }

    /// Bytes this state may keep alive while a simulated link holds it (what the link charges):
    /// its parts and the base's until the delta is made, and the delta and full frame that
    /// the first connection to need them makes — counted up front, as they may come later
    /// (charging the payload alone let held frames use 2.2× their charge). Two encodings a
    /// holder: a protocol 2 one needs the delta and the full frame, a protocol 1 one the full
    /// frame and the timed copy; a third is made only for a second holder, which pays for it.
    /// Each counted at the message's expected size, not at the capacity of a buffer kept from an
    /// earlier state (which can be up to twice that after growing): the byte budget's scenarios
    /// (`test_hostile_bounds.py`) are calibrated to this charge.
    public var bytes: Int {
        guard let snapshot else {
            // A timed message that is the full one's buffer (a padding frame) is counted once
            // (`PaddingFrameTests.oneBufferChargedOnceAndCopiedOnce`).
            let full = self.full
            let timed = encodedTimed.map { $0.sharesBuffer(with: full) ? 0 : $0.retainedBytes } ?? 0
            return full.retainedBytes + (delta?.retainedBytes ?? 0) + timed + 128
        }
        let parts = snapshot.retainedBytes + (base?.retainedBytes ?? 0)
        return parts + 2 * (snapshot.byteCount + headroom + 64) + 256
    }

    /// A copy with its own buffers, both encodings made, for another thread (it writes its own
    /// WebSocket header into the headroom).
    public func copy() -> FrameEncoding { FrameEncoding(copying: self) }
}

/// The same frame when the ids are (an id names one state of one session: `FrameIDs`), so a
/// hub's state compares its cached encodings without comparing bytes (`errorsChangeNothing`).
extension FrameEncoding: Equatable {
    public static func == (lhs: FrameEncoding, rhs: FrameEncoding) -> Bool { lhs.id == rhs.id }
}
