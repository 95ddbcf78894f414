/// A scene session behind a reference, so that `SessionCore` stays small when it is copied
/// (`SessionCore.sceneBox`). Copy on write: `SessionCore.updateScene` copies the box before
/// changing it unless the session value holding it is the only one.
final class SceneSessionBox {
    var session: SceneSession

    init(_ session: SceneSession) {
        self.session = session
    }
}
