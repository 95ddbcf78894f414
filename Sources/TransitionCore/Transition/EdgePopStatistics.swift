/// The running statistics UIKit's edge-swipe pop keeps of its pan: the average velocity and
/// acceleration over the last three samples, which `EdgePopRelease` projects at the release.
///
/// Source: the decompile of iOS 26.1's UIKitCore (github.com/EthanArbuckle/
/// iPhone18-3_26.1_23B85_Restore), `_UINavigationInteractiveTransitionBase
/// _updateStatistics:firstSample:finalSample:`, called by `handleNavigationTransition:` on the
/// recognizer's began (the first sample), each changed, and ended (the final sample). A sample
/// is read in progress units: the translation and `velocityInView` over the gesture view's
/// width (progress, progress per second). A sample under 10 ms after the previous update is
/// skipped, unless over 1 ms and the displacement moved. The acceleration is the change in
/// velocity over the time since the last kept sample, its change from the previous acceleration
/// limited to ±5 (progress/s²) per sample. The first sample's acceleration is 0 and counts in
/// the average. In the sandbox a sample is one of the engine's pan updates (began, each pointer
/// move that changes it, the release), with the pointer events' times. Tested in
/// `EdgePopReleaseTests`.
public struct EdgePopStatistics: Equatable, Hashable, Sendable {
    /// The most the acceleration may change from one sample to the next (progress/s²).
    public static let accelerationStep = 5.0
    /// Updates closer than this (s) to the previous one are skipped …
    public static let minimumInterval = 0.01
    /// … unless further apart than this and the displacement moved.
    public static let movedInterval = 0.001

    /// Samples kept, the first included.
    public private(set) var sampleCount = 1
    /// The average velocity of the last three samples (progress/s).
    public private(set) var averageVelocity: Double
    /// The average acceleration of the last three samples (progress/s²).
    public private(set) var averageAcceleration = 0.0
    /// The latest kept sample's velocity (progress/s).
    public private(set) var lastVelocity: Double
    /// Whether the recognizer reported a change after it began (UIKit's interaction state 2).
    public private(set) var changed = false

    private var velocities: [Double]
    private var accelerations = [0.0, 0.0, 0.0]
    private var previousTime: Double
    private var skipTime: Double
    private var previousDisplacement: Double
    private var previousAcceleration = 0.0

    /// The first sample, when the pan begins.
    public init(time: Double, displacement: Double, velocity: Double) {
        averageVelocity = velocity
        lastVelocity = velocity
        velocities = [velocity, 0, 0]
        previousTime = time
        skipTime = time
        previousDisplacement = displacement
    }

    /// A later sample: a change (`final` false) or the release (`final` true).
    public mutating func add(time: Double, displacement: Double, velocity: Double, final: Bool) {
        if !final { changed = true }
        let sinceLast = time - skipTime
        skipTime = time
        guard
            sinceLast >= Self.minimumInterval
                || (sinceLast > Self.movedInterval && previousDisplacement != displacement)
        else { return }
        let interval = time - previousTime
        let slot = sampleCount % 3
        let n = Double(sampleCount)
        if sampleCount > 2 {
            averageVelocity = (velocity + averageVelocity * 3 - velocities[slot]) / 3
        } else {
            averageVelocity = (velocity + averageVelocity * n) / (n + 1)
        }
        velocities[slot] = velocity
        var acceleration = (velocity - lastVelocity) / interval
        let change = acceleration - previousAcceleration
        if abs(change) > Self.accelerationStep {
            acceleration = previousAcceleration + (change > 0 ? Self.accelerationStep : -Self.accelerationStep)
        }
        if sampleCount > 2 {
            averageAcceleration = (acceleration + averageAcceleration * 3 - accelerations[slot]) / 3
        } else {
            averageAcceleration = (acceleration + averageAcceleration * n) / (n + 1)
        }
        accelerations[slot] = acceleration
        previousAcceleration = acceleration
        lastVelocity = velocity
        previousDisplacement = displacement
        previousTime = time
        sampleCount += 1
    }
}
