/// Estimates a pointer's velocity from its recent samples.
///
/// UIKit does not document its estimator. We use the common one (Flutter's `VelocityTracker`
/// and Android's are alike): a least-squares line through the samples of the last 100 ms,
/// cut at the first gap longer than 40 ms — so a finger that stopped before lifting has
/// velocity 0, as on iOS. At most 20 samples are kept, in a fixed ring (no allocation per event).
///
/// The estimate is capped at `maximumSpeed` per component: samples a picosecond apart (or, on
/// a time axis near 0, subnormally close) would otherwise give any speed up to ~1e168 pt/s,
/// which no finger makes and which only risks overflow in what is computed from it.
public struct VelocityTracker: Equatable, Hashable, Sendable {
    public static let horizon = 0.100
    public static let maximumGap = 0.040
    public static let capacity = 20
    /// The largest |vx| and |vy| reported, in pt/s: ten times the largest `flingVelocity`
    /// (100,000 pt/s), so every fling setting can still be reached, and some fifty times the
    /// fastest real flick (about 20,000 pt/s).
    public static let maximumSpeed = 1_000_000.0

    private struct Sample: Equatable, Hashable, Sendable {
        var time: Double
        var position: Point
    }

    private var samples: [Sample]
    private var next = 0
    private var count = 0
    /// Velocity in points per second; zero with fewer than two usable samples (or all at one
    /// instant); each component within ±`maximumSpeed`. Estimated once per sample, when it is
    /// added: a pointer event and its frame read it several times (`VelocityTrackerTests`).
    public private(set) var velocity = Point.zero

    public init() {
        samples = Array(repeating: Sample(time: 0, position: .zero), count: VelocityTracker.capacity)
    }

    public mutating func reset() {
        next = 0
        count = 0
        velocity = .zero
    }

    public mutating func add(_ position: Point, at time: Double) {
        samples[next] = Sample(time: time, position: position)
        next = (next + 1) % VelocityTracker.capacity
        count = min(count + 1, VelocityTracker.capacity)
        velocity = estimate()
    }

    /// The least-squares estimate over the samples kept now.
    private func estimate() -> Point {
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
        // Compare before dividing: stt may be so small that stx / stt overflows.
        let larger = max(abs(stx), abs(sty))
        if larger > VelocityTracker.maximumSpeed * stt {
            // Too fast: scale so the larger component is exactly the cap, keeping the direction.
            return Point(
                x: VelocityTracker.maximumSpeed * (stx / larger), y: VelocityTracker.maximumSpeed * (sty / larger))
        }
        return Point(x: stx / stt, y: sty / stt)
    }
}
