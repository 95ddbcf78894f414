/// The four operations on a scene. Raw values are the wire's message types.
public enum SceneAction: String, Equatable, Hashable, Sendable, CaseIterable {
    case present
    case dismiss
    case push
    case pop

    /// The animators' direction: push is a present-like operation, pop a dismiss.
    public var operation: TransitionOperation {
        switch self {
        case .present, .push: return .present
        case .dismiss, .pop: return .dismiss
        }
    }
}
