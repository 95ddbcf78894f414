/// A scene session behind a reference, so that `SessionCore` stays small when it is copied
/// (`SessionCore.sceneBox`). Copy on write: only `SessionCore.updateScene`
/// (SessionCore+Scene.swift) changes it, after copying the box unless the session value
/// holding it is the only one.
final class SceneSessionBox {
    var session: SceneSession

    init(_ session: SceneSession) {
        self.session = session
    }
}
