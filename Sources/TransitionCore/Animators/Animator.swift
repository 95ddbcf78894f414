/// One of the animators, chosen by `TransitionKind`: an enum rather than an existential so the
/// engine stays a plain `Equatable` value and dispatch costs a switch.
public enum Animator: TransitionAnimator {
    case fade(FadeAnimator)
    case pop(PopAnimator)
    case reveal(RevealAnimator)
    case push(PushAnimator)
    case coverVertical(CoverVerticalAnimator)
    case flipHorizontal(FlipHorizontalAnimator)
    case crossDissolve(CrossDissolveAnimator)
    case partialCurl(PartialCurlAnimator)
    case zoom(ZoomAnimator)

    public init(configuration c: TransitionConfiguration) {
        switch c.kind {
        case .fade: self = .fade(FadeAnimator(configuration: c))
        case .pop: self = .pop(PopAnimator(configuration: c))
        case .reveal: self = .reveal(RevealAnimator(configuration: c))
        case .push: self = .push(PushAnimator(configuration: c))
        case .coverVertical: self = .coverVertical(CoverVerticalAnimator(configuration: c))
        case .flipHorizontal: self = .flipHorizontal(FlipHorizontalAnimator(configuration: c))
        case .crossDissolve: self = .crossDissolve(CrossDissolveAnimator(configuration: c))
        case .partialCurl: self = .partialCurl(PartialCurlAnimator(configuration: c))
        case .zoom: self = .zoom(ZoomAnimator(configuration: c))
        }
    }

    public var duration: Double {
        switch self {
        case .fade(let a): return a.duration
        case .pop(let a): return a.duration
        case .reveal(let a): return a.duration
        case .push(let a): return a.duration
        case .coverVertical(let a): return a.duration
        case .flipHorizontal(let a): return a.duration
        case .crossDissolve(let a): return a.duration
        case .partialCurl(let a): return a.duration
        case .zoom(let a): return a.duration
        }
    }

    public func layers(at time: Double, into layers: inout [LayerState]) {
        switch self {
        case .fade(let a): a.layers(at: time, into: &layers)
        case .pop(let a): a.layers(at: time, into: &layers)
        case .reveal(let a): a.layers(at: time, into: &layers)
        case .push(let a): a.layers(at: time, into: &layers)
        case .coverVertical(let a): a.layers(at: time, into: &layers)
        case .flipHorizontal(let a): a.layers(at: time, into: &layers)
        case .crossDissolve(let a): a.layers(at: time, into: &layers)
        case .partialCurl(let a): a.layers(at: time, into: &layers)
        case .zoom(let a): a.layers(at: time, into: &layers)
        }
    }
}
