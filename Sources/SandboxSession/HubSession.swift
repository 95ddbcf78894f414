import TransitionCore

/// One session: the engine and its state (`SessionCore`), and who drives and who watches (its
/// frames are encoded by the executor's `FrameCache`).
struct HubSession: Equatable {
    var core: SessionCore
    var driver: ConnectionID
    var viewers: [ConnectionID] = []
    /// The display-link rate this session is listed under in `SessionHub.animating`, if any.
    var ticking: Int?
    /// Its display links' phase (`SessionHub.tickPhases`).
    let phase: Int

    init(core: SessionCore, driver: ConnectionID, phase: Int) {
        self.core = core
        self.driver = driver
        self.phase = phase
    }

    /// The driver first, then the viewers in the order they joined.
    var connections: [ConnectionID] { [driver] + viewers }
}
