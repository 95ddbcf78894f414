/// How the zoom's interactive dismissal ends when the finger lifts: by where the release
/// projects to, so a flick down dismisses from a short drag and a slow, short drag springs back.
/// UIKit's zoom is built on the same fluid interactions as the sheet (WWDC 2024 session 10145
/// "Enhance your UI animations and transitions"); Apple publishes no numbers for it.
/// Inferred and chosen: the projection of the sheet's hyper interactor (deceleration rate 0.99,
/// `SheetSwipeRelease`), dismissing when the rest point lies at or past a fifth of the pan's
/// extent (`threshold` 0.2: 169 pt down a 844 pt phone); the card carries on at the release's
/// speed (`SheetSwipeRelease.completionSpeed`) on a critically damped spring. Tested in
/// ZoomDismissReleaseTests.
public enum ZoomDismissRelease {
    /// Projected progress at or past this dismisses.
    public static let threshold = 0.2
    public static let decelerationRate = SheetSwipeRelease.decelerationRate

    /// Where a release at `progress` moving at `velocity` (progress/s, positive toward
    /// dismissing) comes to rest.
    public static func projected(progress: Double, velocity: Double) -> Double {
        progress + ReleaseRule.projectedDistance(velocity: velocity, decelerationRate: decelerationRate)
    }

    public static func outcome(progress: Double, velocity: Double) -> ReleaseDecision.Outcome {
        projected(progress: progress, velocity: velocity) < threshold ? .cancel : .finish
    }
}
