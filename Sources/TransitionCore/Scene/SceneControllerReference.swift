/// What `present` and `push` take: a controller described in full (a new instance), or the id
/// of one the scene already knows (the same instance again, for example after its dismissal).
public enum SceneControllerReference: Equatable, Sendable {
    case controller(SceneController)
    case id(String)
}
