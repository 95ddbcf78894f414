/// The transitions the sandbox hosts: the seed article's three animators, the default
/// navigation push and UIKit's four modal transition styles. Raw values are the wire names.
public enum TransitionKind: String, Equatable, Hashable, Sendable, CaseIterable {
    case fade
    case pop
    case reveal
    case push
    case coverVertical = "cover-vertical"
    case flipHorizontal = "flip-horizontal"
    case crossDissolve = "cross-dissolve"
    case partialCurl = "partial-curl"
    /// iOS 18's `preferredTransition = .zoom(sourceViewProvider:)` (ZoomAnimator).
    case zoom

    /// The duration each kind uses unless configured: the seed's 2.0 s for reveal, 1.0 s for
    /// the pop (the tutorial's value), and about UIKit's own for the system styles.
    public var defaultDuration: Double {
        switch self {
        case .reveal: return 2.0
        case .pop: return 1.0
        case .zoom: return ZoomAnimator.defaultDuration
        case .flipHorizontal, .partialCurl: return 0.75
        case .fade, .push, .coverVertical, .crossDissolve: return 0.5
        }
    }

    /// How far the kind's animation is at timeline fraction `progress` (0…1): the curve its
    /// animator applies (Animators/). Views a scene moves alongside the animation (a presenter
    /// pushed back under a sheet) follow it, so they keep pace with the animated view. The pop's
    /// spring (and the zoom's) is not a curve of the fraction; it is taken as linear.
    public func animated(_ progress: Double) -> Double {
        switch self {
        case .pop, .zoom: return progress
        case .reveal: return TimingCurve.easeIn.value(at: progress)
        case .fade, .push, .coverVertical, .crossDissolve, .flipHorizontal, .partialCurl:
            return TimingCurve.easeInEaseOut.value(at: progress)
        }
    }
}

/// Which way the transition runs. For the navigation-style kinds (reveal, push) `present` is a
/// push and `dismiss` a pop.
public enum TransitionOperation: String, Equatable, Hashable, Sendable, CaseIterable {
    case present
    case dismiss
}
