/// The live display link's pacing with phases (docs/ENGINE.md "Display-link phases"): targets
/// at start + k/(fps·phases), target k in phase k mod phases, planned only for phases that have
/// sessions. A target is handled once: it ticks if handled less than a period late, and is
/// dropped otherwise — then the same phase's next target is due, and it ticks instead — so a
/// phase never ticks twice for one period, and a late tick fires late rather than being dropped
/// (as a late `CADisplayLink` drops a frame only past a whole vsync). With one phase this is
/// the display link's pacing before phases, but for a tick less than a period late, which now
/// fires rather than being skipped when the next one has not passed yet. Pure, so the rules
/// are tested without a clock (`PhasedTickScheduleTests`).
public struct PhasedTickSchedule: Equatable, Sendable {
    public let fps: Int
    public let phases: Int
    /// Its index: the last target handled (or the start).
    private var handled: TickSchedule
    /// The target to handle next, once planned.
    private var pending: TickSchedule?
    public private(set) var due: Double?

    public init(fps: Int, phases: Int, start: Double) {
        precondition(fps >= 1 && phases >= 1)
        self.fps = fps
        self.phases = phases
        handled = TickSchedule(fps: fps * phases, start: start)
    }

    private var period: Double { 1 / Double(fps) }

    /// Plans the first target after the last one handled whose phase has sessions (`occupied`),
    /// keeping targets up to just under a period old (they are due at once). Plan again when a
    /// phase gains sessions.
    public mutating func plan(now: Double, occupied: (Int) -> Bool) {
        var next = handled
        let notBefore = now - period * (1 - 1e-9)
        var target = next.next(notBefore: notBefore)
        var tried = 1
        while tried < phases, !occupied(next.index % phases) {
            target = next.next(notBefore: notBefore)
            tried += 1
        }
        pending = next
        due = target
    }

    /// Handles the planned target at `now`: its phase if it ticks, nil if it is dropped (a whole
    /// period late) or none was planned. Plan again afterwards.
    public mutating func handle(at now: Double) -> Int? {
        guard let pending, let due else { return nil }
        handled = pending
        self.pending = nil
        self.due = nil
        return now - due < period ? pending.index % phases : nil
    }
}
