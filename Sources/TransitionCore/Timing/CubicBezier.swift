/// A unit cubic Bézier timing function, `CAMediaTimingFunction(controlPoints:)`: the curve runs
/// from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2); time is x, progress is y.
public struct CubicBezier: Equatable, Hashable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    // Polynomial coefficients of x(s) and y(s), s being the curve parameter (WebKit's UnitBezier).
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// The x values must lie in 0…1 (so x(s) is monotonic); y values may overshoot.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "Bézier x control points must be in 0…1")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    public static func == (lhs: CubicBezier, rhs: CubicBezier) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1); hasher.combine(y1); hasher.combine(x2); hasher.combine(y2)
    }

    /// Core Animation's named functions.
    public static let easeIn = CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInEaseOut = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    public static let `default` = CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    private func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// The parameter s with x(s) = x, to within 1e-12: Newton's method from s = x, falling back
    /// to bisection (always convergent, since x(s) is monotonic on 0…1) when Newton stalls.
    func solveParameter(forX x: Double) -> Double {
        let tolerance = 1e-12
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < tolerance { return s }
            let slope = sampleDerivativeX(s)
            if abs(slope) < 1e-7 { break }
            s -= error / slope
        }
        var low = 0.0
        var high = 1.0
        s = x
        for _ in 0..<64 {
            let value = sampleX(s)
            if abs(value - x) < tolerance { break }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    /// Progress at time fraction `x`; `x` outside 0…1 is clamped, as Core Animation does.
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return sampleY(solveParameter(forX: x))
    }
}
