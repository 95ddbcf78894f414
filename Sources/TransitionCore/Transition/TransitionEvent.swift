/// Something that happened to the transition (not to a frame): what a delegate would be told.
public enum TransitionEvent: Equatable, Hashable, Sendable {
    /// Tracking started: a pan began, or a pointer grabbed a running completion.
    case began(progress: Double, grabbed: Bool)
    /// A non-interactive run started (a tap's `present(animated: true)`): 0 → 1 on the
    /// animators' own clock, no pan involved.
    case played
    /// The pan ended or was cancelled and the engine chose how to complete.
    case released(ReleaseDecision)
    /// `completeTransition(true)`: the end state is reached.
    case finished
    /// `completeTransition(false)`: back at the exact start state.
    case cancelled
    /// A property animator with `pausesOnCompletion` reached the end of its run (`progress` 1,
    /// or 0 reversed) and paused there: no completion handler, so no `completeTransition`.
    case pausedOnCompletion(progress: Double)
}

/// What the caller should do after an input: whether a frame is due and what happened.
public struct Reaction: Equatable, Hashable, Sendable {
    /// A new frame should be sent (every applied pointer event, every tick while animating).
    public var frame: Bool
    public var events: [TransitionEvent]

    public init(frame: Bool, events: [TransitionEvent] = []) {
        self.frame = frame
        self.events = events
    }

    public static let none = Reaction(frame: false)
}
