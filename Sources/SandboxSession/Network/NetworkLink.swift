/// A connection's simulated network (`NetworkConditions`), between its socket and the session:
/// what the client sends is held before the session sees it, what the server sends is held
/// before it reaches the socket. Pure: its one user, a connection's `Outbox` (driven live by
/// `Connection`, virtually by `VirtualSession`), holds items as they come, asks for `nextDue`,
/// and takes what is due on its one shared clock — never a timer per message.
///
/// Bounded: held input is the outbox's to pause (`heldInboundBytes`, like its reply queue);
/// held output may use at most the room the outbox gives it (its reply queue's byte bound less
/// what is queued there). Frames are states and the latest wins, as with a sender that cannot
/// send every frame: what is already on the path arrives at its due time, and frames faster than
/// the room can hold through the delay are thinned evenly as they leave — past half the room, one
/// kept per the delay over the frames the room holds (or, if longer, the time until the oldest
/// held frame is due over the frames the room still takes), and the frame after the last one kept
/// stays only until a newer frame takes its place (a message after it keeps it), so the newest
/// state always arrives
/// (`NetworkLinkTests.framesFasterThanTheRoomArriveThinnedEvenly`). Past the room all the same
/// (the room shrinks as the reply queue grows), the newest held frame gives way. Only when
/// messages alone overflow is the link over its bound (`Admission.overflow`).
public struct NetworkLink {
    public enum Outbound {
        case message(EncodedMessage)
        /// A message after which the client holds no frame (`welcome`, `joined`): the frame
        /// after it is sent whole (`ServerMessage.startsFrames`).
        case framesStart(EncodedMessage)
        /// A frame as encoded when the session produced it (stamped `delivered` when it leaves;
        /// a delta or the full frame, chosen then: a held frame may be dropped on the way).
        case frame(FrameEncoding)

        var bytes: Int {
            switch self {
            case .message(let m), .framesStart(let m): return m.payloadCount
            case .frame(let f): return f.bytes
            }
        }

        public var isFrame: Bool { if case .frame = self { true } else { false } }
    }

    public struct Inbound {
        public let bytes: [UInt8]
        public let binary: Bool
        /// When it reached the socket (s), before its hold.
        public let arrived: Double
    }

    public enum Admission: Equatable {
        case held
        /// Held messages (not frames) alone exceed the room: the peer is not keeping up.
        case overflow
    }

    public var conditions: NetworkConditions
    private var inbound: DelayLine<Inbound>
    private var outbound: DelayLine<Outbound>
    /// When the last frame kept for good left the session (s).
    private var keptFrameSent = -Double.infinity
    /// The held frame after the last one kept, which the next frame replaces (its position).
    private var provisionalFrame: Int?

    public init(_ conditions: NetworkConditions) {
        self.conditions = conditions
        // Two streams from one seed, so inbound draws do not shift outbound ones.
        let seed = UInt64(truncatingIfNeeded: conditions.seed)
        inbound = DelayLine(seed: seed)
        outbound = DelayLine(seed: seed ^ 0x6F75_7462_6F75_6E64)  // "outbound"
    }

    /// Nothing held and nothing to hold: the executor may drop the link.
    public var isIdle: Bool { !conditions.isActive && inbound.isEmpty && outbound.isEmpty }

    public var heldInboundBytes: Int { inbound.heldBytes }
    public var heldOutboundBytes: Int { outbound.heldBytes }
    /// Held output that cannot give way (messages, not frames).
    public var heldOutboundMessageBytes: Int { outbound.heldBytes - outbound.droppableBytes }
    public var heldCount: Int { inbound.count + outbound.count }
    /// Slots the held output takes, dropped ones included (what its memory grows with).
    var heldOutboundSlots: Int { outbound.slots }
    /// The earliest due time of held output alone.
    public var nextOutboundDue: Double? { outbound.nextDue }
    public var nextInboundDue: Double? { inbound.nextDue }

    /// The earliest time something is due (s), if anything is held.
    public var nextDue: Double? {
        switch (inbound.nextDue, outbound.nextDue) {
        case let (i?, o?): return min(i, o)
        case let (i, o): return i ?? o
        }
    }

    /// A whole client message reached the socket at `now` (s).
    @discardableResult
    public mutating func holdInbound(_ bytes: [UInt8], binary: Bool, at now: Double) -> Double {
        inbound.hold(
            Inbound(bytes: bytes, binary: binary, arrived: now), bytes: bytes.count, at: now, under: conditions)
    }

    /// A server message or frame leaves the session at `now` (s). `room`: the bytes the link may
    /// hold in all.
    public mutating func holdOutbound(_ item: Outbound, at now: Double, room: Int) -> Admission {
        // A frame takes the provisional one's place; a message after it keeps it for good.
        if item.isFrame, let held = provisionalFrame, outbound.newestDroppable == held {
            _ = outbound.dropNewest(sparingNewest: false)
        }
        provisionalFrame = nil
        let provisional = item.isFrame && isThinnedOut(frameBytes: item.bytes, room: room, at: now)
        if item.isFrame, !provisional { keptFrameSent = now }
        while outbound.heldBytes + item.bytes + DelayLine<Outbound>.overheadBytes > room {
            // A newer frame replaces the newest held one; a message takes the place of the one
            // before it, never the newest. Older frames arrive as due: dropping those instead,
            // a drag faster than the room drains was never delivered
            // (`NetworkLinkTests.framesFasterThanTheRoomArriveThinnedEvenly`).
            if outbound.dropNewest(sparingNewest: !item.isFrame) { continue }
            // Only messages are left (and, for a message, the newest frame). A frame goes in
            // anyway: the room is exceeded by this one frame at most, and the next replaces it.
            // A message cannot: the peer is not keeping up.
            if item.isFrame { break }
            return .overflow
        }
        outbound.hold(item, bytes: item.bytes, at: now, under: conditions, droppable: item.isFrame)
        if provisional { provisionalFrame = outbound.newestPosition }
        return .held
    }

    /// Whether a frame leaving at `now` is thinned out (held only until the next frame takes its
    /// place). Past half the room, frames are kept one per `spacing`: the longer of the delay over
    /// the frames the room holds, and the time until the oldest held item is due over the frames
    /// the room still takes — so what the room holds lasts until it frees, and the newest need not
    /// give way meanwhile (`NetworkLinkTests.framesFasterThanTheRoomArriveThinnedEvenly`,
    /// `test_network.py`'s drag through 1.5 s). Below half the room every frame is kept.
    private func isThinnedOut(frameBytes: Int, room: Int, at now: Double) -> Bool {
        let perFrame = frameBytes + DelayLine<Outbound>.overheadBytes
        let slots = room / perFrame - 1
        guard outbound.heldBytes + perFrame > room / 2, slots > 0 else { return false }
        let free = (room - outbound.heldBytes) / perFrame - 1
        let untilFree = free > 0 ? ((outbound.nextDue ?? now) - now) / Double(free) : Double.infinity
        let spacing = max(outbound.delay(at: now, under: conditions) / Double(slots), untilFree)
        return now - keptFrameSent < spacing
    }

    /// Client messages due by `now`, in order.
    public mutating func takeInbound(dueBy now: Double) -> [Inbound] {
        inbound.take(dueBy: now).map(\.item)
    }

    /// Server messages and frames due by `now`, in order.
    public mutating func takeOutbound(dueBy now: Double) -> [Outbound] {
        outbound.take(dueBy: now).map(\.item)
    }

    /// The oldest server message or frame due by `now`, if any (the live connection takes one
    /// at a time, and stops while its reply queue is full).
    public mutating func takeFirstOutbound(dueBy now: Double) -> Outbound? {
        outbound.takeFirst(dueBy: now)?.item
    }
}
