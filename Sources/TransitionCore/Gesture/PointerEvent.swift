/// One pointer sample, as the page or a script sends it. Time is in seconds on the engine's
/// single time axis (the server maps a client's clock onto it; scripts use virtual time).
public struct PointerEvent: Equatable, Hashable, Sendable {
    public enum Phase: String, Equatable, Hashable, Sendable, CaseIterable {
        case down, move, up, cancel
    }

    public var phase: Phase
    public var position: Point
    public var time: Double
    public var pointerID: Int

    public init(_ phase: Phase, x: Double, y: Double, time: Double, pointerID: Int = 0) {
        self.phase = phase
        self.position = Point(x: x, y: y)
        self.time = time
        self.pointerID = pointerID
    }
}
