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

/// Equal when the scenes are: the box is storage, not identity (`errorsChangeNothing`).
extension SceneSessionBox: Equatable {
    static func == (lhs: SceneSessionBox, rhs: SceneSessionBox) -> Bool { lhs === rhs || lhs.session == rhs.session }
}
