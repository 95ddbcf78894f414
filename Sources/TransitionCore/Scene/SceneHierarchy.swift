/// The view-controller hierarchy at one instant: the root tree, the presentations in the order
/// they were made, and the kind each navigation child was pushed with. The queries UIKit's
/// rules need (parents, presentation layers, frames, the context walk) and, in
/// `SceneHierarchy+Composition.swift`, what is on screen. Internal: `Scene` owns one committed
/// hierarchy and, during a transition, the one it commits to.
struct SceneHierarchy: Equatable, Sendable {
    let device: SceneDevice
    var root: SceneController
    var presentations: [ScenePresentation] = []
    /// The animator a child was pushed with (pop replays it reversed); absent = `push`.
    var pushKinds: [String: TransitionKind] = [:]
    /// The view a controller presented or pushed with the zoom grew out of (Scene+Zoom.swift).
    var zoomSources: [String: ZoomSource] = [:]
    /// The interface orientation the geometry is laid out in (SceneHierarchy+Orientation.swift).
    var interfaceOrientation: InterfaceOrientation = .portrait

    /// The root, then every presented controller, each with its stack.
    var trees: [SceneController] { [root] + presentations.map(\.presented) }

    var allIDs: [String] { trees.flatMap(\.allIDs) }

    func contains(_ id: String) -> Bool { controller(id) != nil }

    func controller(_ id: String) -> SceneController? {
        for tree in trees {
            if let found = tree.find(id) { return found }
        }
        return nil
    }

    /// The navigation controller holding `id` in its stack.
    func parent(of id: String) -> String? {
        for tree in trees {
            if let parent = Self.parent(of: id, in: tree) { return parent }
        }
        return nil
    }

    private static func parent(of id: String, in tree: SceneController) -> String? {
        guard let stack = tree.stack else { return nil }
        if stack.contains(where: { $0.id == id }) { return tree.id }
        for child in stack {
            if let parent = parent(of: id, in: child) { return parent }
        }
        return nil
    }

    /// The root of the presentation layer holding `id`: the window's root or a presented controller.
    func layerRoot(of id: String) -> String {
        var current = id
        while let parent = parent(of: current) { current = parent }
        return current
    }

    /// `id` and its navigation container (the ancestors within its presentation layer).
    func ancestors(of id: String) -> [String] {
        var chain = [id]
        while let parent = parent(of: chain[chain.count - 1]) { chain.append(parent) }
        return chain
    }

    /// `presentedViewController`: the presentation made by `id` or one of its ancestors.
    func presentationIndex(presentedBy id: String) -> Int? {
        let chain = ancestors(of: id)
        return presentations.firstIndex { chain.contains($0.presenter) }
    }

    func presentationIndex(ofPresented id: String) -> Int? {
        presentations.firstIndex { $0.presented.id == id }
    }

    /// The controller's view frame at rest, in interface coordinates (before any push-back).
    func frame(of id: String) -> Rect {
        if let index = presentationIndex(ofPresented: id) { return presentations[index].frame }
        if let parent = parent(of: id) { return contentFrame(ofNavigation: parent) }
        return bounds
    }

    /// A navigation controller's bar: 44 pt, plus the status bar when it is at the screen's top.
    func barFrame(ofNavigation id: String) -> Rect {
        let frame = frame(of: id)
        let height = navigationBarHeight + (frame.minY == 0 ? safeAreaTop : 0)
        return Rect(x: frame.minX, y: frame.minY, width: frame.width, height: height)
    }

    /// Where a navigation controller's children live: below its bar (an opaque bar; see docs).
    func contentFrame(ofNavigation id: String) -> Rect {
        let frame = frame(of: id)
        let bar = barFrame(ofNavigation: id).height
        return Rect(x: frame.minX, y: frame.minY + bar, width: frame.width, height: frame.height - bar)
    }

    /// The walk of `currentContext`/`overCurrentContext`: from `id` up its parents (navigation
    /// containers) only, to the first that `definesPresentationContext`; with none, the top of
    /// that chain — the presented controller holding `id`, or the window's root — is the
    /// context. It never continues into a presenter (SceneContextWalkTests).
    func presentationContext(from id: String) -> String {
        ancestors(of: id).first { controller($0)?.definesPresentationContext == true } ?? layerRoot(of: id)
    }

    /// Applies `change` to the stack of the navigation controller `id`.
    mutating func updateStack(ofNavigation id: String, _ change: (inout [SceneController]) -> Void) {
        if Self.update(&root, id, change) { return }
        for index in presentations.indices where Self.update(&presentations[index].presented, id, change) {
            return
        }
    }

    private static func update(
        _ tree: inout SceneController, _ id: String, _ change: (inout [SceneController]) -> Void
    ) -> Bool {
        guard var stack = tree.stack else { return false }
        if tree.id == id {
            change(&stack)
            tree.stack = stack
            return true
        }
        for index in stack.indices where update(&stack[index], id, change) {
            tree.stack = stack
            return true
        }
        return false
    }
}
