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

    /// The largest |x| and |y| the engine accepts, in points (`InputError.coordinateOutOfRange`
    /// beyond it). 250 times the largest container (4,000 pt), so a pointer dragged far off the
    /// screen still counts; and small enough that every translation (≤ 2e6), square (≤ 8e12) and
    /// product the engine forms stays finite, which arbitrary finite doubles would not (1e308 −
    /// (−1e308) is infinite).
    public static let coordinateLimit = 1_000_000.0

    /// Both coordinates within ±`coordinateLimit` (false for NaN).
    public var isWithinCoordinateLimit: Bool {
        abs(position.x) <= Self.coordinateLimit && abs(position.y) <= Self.coordinateLimit
    }

    public init(_ phase: Phase, x: Double, y: Double, time: Double, pointerID: Int = 0) {
        self.phase = phase
        self.position = Point(x: x, y: y)
        self.time = time
        self.pointerID = pointerID
    }
}
