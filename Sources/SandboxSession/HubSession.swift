import TransitionCore

/// One session: the engine and its state (`SessionCore`), who drives and who watches, and its
/// latest frame's encoding.
struct HubSession: Equatable {
    var core: SessionCore
    var driver: ConnectionID
    var viewers: [ConnectionID] = []
    /// The display-link rate this session is listed under in `SessionHub.animating`, if any.
    var ticking: Int?
    /// Its display links' phase (`SessionHub.tickPhases`).
    let phase: Int
    /// The latest frame's encodings (`FrameEncoding`), and when the last full-only one was made.
    private var encoded: FrameEncoding?
    private var lastKeyframe = -Double.infinity

    init(core: SessionCore, driver: ConnectionID, phase: Int) {
        self.core = core
        self.driver = driver
        self.phase = phase
    }

    /// The driver first, then the viewers in the order they joined.
    var connections: [ConnectionID] { [driver] + viewers }

    /// Every state whoever asks first, once; a delta against the frame before it is offered but
    /// at least every `keyframeSeconds` (docs/PROTOCOL.md, "Delta frames").
    /// `ids`: the hub's frame ids (`SessionHub.frameID`), advanced only when a frame is made.
    mutating func encodedFrame(now: Double, headroom: Int, ids: inout FrameIDs) -> FrameEncoding {
        if let encoded, encoded.number == core.frameNumber { return encoded }
        let snapshot = FrameSnapshot.encode(core, now: now * 1000)
        let encoding = FrameEncoding(
            snapshot, id: ids.next(), after: encoded, deltaAllowed: now - lastKeyframe < Self.keyframeSeconds,
            headroom: headroom)
        if encoding.baseID == nil { lastKeyframe = now }
        encoded = encoding
        return encoding
    }

    /// The longest a session streams deltas without a full frame (server time, s).
    static let keyframeSeconds = 2.0
}
