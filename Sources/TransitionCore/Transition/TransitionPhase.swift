/// The phases of one percent-driven interactive transition. Raw values are the wire names.
///
///     idle ──pan began──▶ tracking ──release──▶ finishing ──▶ finished
///                           ▲   │                    │
///                           │   └──release──▶ cancelling ──▶ cancelled
///                           └─── pointer down (grab) ┘
///
/// finished and cancelled are rest phases like idle: the next pan starts the transition again
/// from its start state.
///
/// `paused` is where a property animator with `pausesOnCompletion` stops at the end of
/// its run: at rest, but the transition has not completed (no completion handler ran); the next
/// pan takes the same animator over from there.
public enum TransitionPhase: String, Equatable, Hashable, Sendable, CaseIterable {
    case idle, tracking, finishing, cancelling, finished, cancelled, paused

    /// True for the phases that wait for a new pan.
    public var isAtRest: Bool { self == .idle || self == .finished || self == .cancelled || self == .paused }
    /// True while the completion plays on its own.
    public var isAnimating: Bool { self == .finishing || self == .cancelling }
}
