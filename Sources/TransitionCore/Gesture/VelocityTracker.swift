/// Estimates a pointer's velocity from its recent samples.
///
/// UIKit does not document its estimator. We use the common one (Flutter's `VelocityTracker`
/// and Android's are alike): a least-squares line through the samples of the last 100 ms,
/// cut at the first gap longer than 40 ms — so a finger that stopped before lifting has
/// velocity 0, as on iOS. At most 20 samples are kept, in a fixed ring (no allocation per event).
public struct VelocityTracker: Equatable, Hashable, Sendable {
    public static let horizon = 0.100
    public static let maximumGap = 0.040
    public static let capacity = 20

    private struct Sample: Equatable, Hashable, Sendable {
        var time: Double
        var position: Point
    }

    private var samples: [Sample]
    private var next = 0
    private var count = 0

    public init() {
        samples = Array(repeating: Sample(time: 0, position: .zero), count: VelocityTracker.capacity)
    }

    public mutating func reset() {
        next = 0
        count = 0
    }

    public mutating func add(_ position: Point, at time: Double) {
        samples[next] = Sample(time: time, position: position)
        next = (next + 1) % VelocityTracker.capacity
        count = min(count + 1, VelocityTracker.capacity)
    }

    /// Velocity in points per second; zero with fewer than two usable samples.
    public var velocity: Point {
        guard count > 1 else { return .zero }
        let newest = samples[(next - 1 + VelocityTracker.capacity) % VelocityTracker.capacity]
        // Walk back from the newest sample while inside the horizon and without a long gap.
        var used = 1
        var previousTime = newest.time
        while used < count {
            let sample = samples[(next - 1 - used + 2 * VelocityTracker.capacity) % VelocityTracker.capacity]
            if newest.time - sample.time > VelocityTracker.horizon { break }
            if previousTime - sample.time > VelocityTracker.maximumGap { break }
            previousTime = sample.time
            used += 1
        }
        guard used > 1 else { return .zero }
        // Least-squares slope, with times taken relative to the newest sample for precision.
        var sumT = 0.0, sumX = 0.0, sumY = 0.0
        for i in 0..<used {
            let s = samples[(next - 1 - i + 2 * VelocityTracker.capacity) % VelocityTracker.capacity]
            sumT += s.time - newest.time
            sumX += s.position.x
            sumY += s.position.y
        }
        let n = Double(used)
        let meanT = sumT / n, meanX = sumX / n, meanY = sumY / n
        var stt = 0.0, stx = 0.0, sty = 0.0
        for i in 0..<used {
            let s = samples[(next - 1 - i + 2 * VelocityTracker.capacity) % VelocityTracker.capacity]
            let dt = s.time - newest.time - meanT
            stt += dt * dt
            stx += dt * (s.position.x - meanX)
            sty += dt * (s.position.y - meanY)
        }
        guard stt > 0 else { return .zero }
        return Point(x: stx / stt, y: sty / stt)
    }
}
