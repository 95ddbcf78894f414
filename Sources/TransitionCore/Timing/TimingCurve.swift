/// A unit timing curve: maps a time fraction in 0…1 to a progress fraction, 0 → 0 and 1 → 1.
public enum TimingCurve: Equatable, Hashable, Sendable {
    case linear
    case cubicBezier(CubicBezier)

    public static let easeIn = TimingCurve.cubicBezier(.easeIn)
    public static let easeOut = TimingCurve.cubicBezier(.easeOut)
    public static let easeInEaseOut = TimingCurve.cubicBezier(.easeInEaseOut)
    public static let `default` = TimingCurve.cubicBezier(.default)

    /// The names used on the wire, in the order the docs list them.
    public static let named: [(name: String, curve: TimingCurve)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut),
        ("easeInEaseOut", .easeInEaseOut), ("default", .default),
    ]

    public init?(name: String) {
        guard let match = TimingCurve.named.first(where: { $0.name == name }) else { return nil }
        self = match.curve
    }

    /// The wire name of a named curve; nil for a custom Bézier.
    public var name: String? {
        TimingCurve.named.first(where: { $0.curve == self })?.name
    }

    public func value(at x: Double) -> Double {
        switch self {
        case .linear: return min(max(x, 0), 1)
        case .cubicBezier(let bezier): return bezier.value(at: x)
        }
    }
}
