import TransitionCore

/// What one input did to a session: the engine's `Reaction` (a frame due, transition events)
/// plus what the scene adds — lifecycle callbacks, and whether `scene-state` changed.
struct SessionReaction: Equatable {
    var frame: Bool
    var events: [TransitionEvent] = []
    var lifecycle: [LifecycleRecord] = []
    var sceneChanged = false

    init(frame: Bool, events: [TransitionEvent] = [], sceneChanged: Bool = false) {
        self.frame = frame
        self.events = events
        self.sceneChanged = sceneChanged
    }

    init(_ reaction: Reaction) {
        self.init(frame: reaction.frame, events: reaction.events)
    }
}
