/// Everything one frame shows: the engine's phase and progress and every layer's state.
public struct Frame: Equatable, Hashable, Sendable {
    public var phase: TransitionPhase
    public var progress: Double
    /// The engine time (seconds) of the input that produced this frame.
    public var time: Double
    /// The pan's velocity in pt/s (zero when no pan is tracked).
    public var velocity: Point
    public var layers: [LayerState]
}
