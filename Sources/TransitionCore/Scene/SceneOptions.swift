/// Behaviours that changed between iOS versions, chosen per scene.
public struct SceneOptions: Equatable, Hashable, Sendable {
    /// What presenting a controller that is already in the hierarchy does.
    public enum DoublePresentation: String, Equatable, Hashable, Sendable, CaseIterable {
        /// UIKit raises NSInvalidArgumentException ("Application tried to present modally an
        /// active controller"); the sandbox refuses with `already-presented`, quoting it, and
        /// changes nothing. The default.
        case refuse
        /// Seed 000's iOS 8 crash: `uncaught-exception` NSInvalidArgumentException (the scene is
        /// still unchanged; the session decides what a crash ends).
        case exception
    }

    public var doublePresentation: DoublePresentation = .refuse

    public init(doublePresentation: DoublePresentation = .refuse) {
        self.doublePresentation = doublePresentation
    }
}
