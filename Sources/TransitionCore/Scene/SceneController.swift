/// A view controller as the wire describes it: an id, a title, plain or a navigation controller
/// with a stack, and the presentation properties UIKit gives every `UIViewController`.
public struct SceneController: Equatable, Sendable {
    /// A plain controller, or a `UINavigationController` whose `stack` is bottom (root) to top.
    public enum Kind: Equatable, Sendable {
        case plain
        case navigation(stack: [SceneController])
    }

    /// Unique in the scene.
    public var id: String
    /// Shown in the navigation bar when the controller is on top of a navigation stack.
    public var title: String
    public var kind: Kind
    /// `modalPresentationStyle` (the wire's default `automatic`; this initialiser's `fullScreen`).
    public var presentationStyle: PresentationStyle
    /// `modalTransitionStyle` (or one of the seeds' animators); used reversed on dismissal.
    public var transitionStyle: TransitionKind
    public var definesPresentationContext: Bool
    public var providesPresentationContextTransitionStyle: Bool
    /// `isModalInPresentation` (iOS 13+): the sheet's swipe-down resists instead of dismissing
    /// (Scene+DismissGesture.swift).
    public var isModalInPresentation: Bool
    /// The named views in its content (`SceneView`), at most `SceneView.maximumPerController`.
    public var views: [SceneView]
    /// Its `sheetPresentationController`'s settings (iOS 15+ page and form sheets); nil: none set.
    public var sheet: SheetDetentConfiguration?
    /// `supportedInterfaceOrientations` as a mask (REFERENCE §4: portrait 2, upside down 4,
    /// landscape right 8, landscape left 16); nil = the device's default. Typed as
    /// `supportedMask` (SceneController+Orientation.swift).
    public var supportedOrientations: Int?
    public var shouldAutorotate: Bool
    /// `preferredInterfaceOrientationForPresentation` (an interface orientation, 1…4); nil = none.
    /// Typed as `preferredOrientation`.
    public var preferredOrientationForPresentation: Int?

    public init(
        id: String, title: String? = nil, kind: Kind = .plain,
        presentationStyle: PresentationStyle = .fullScreen, transitionStyle: TransitionKind = .coverVertical,
        definesPresentationContext: Bool = false, providesPresentationContextTransitionStyle: Bool = false,
        supportedOrientations: Int? = nil, shouldAutorotate: Bool = true,
        preferredOrientationForPresentation: Int? = nil, isModalInPresentation: Bool = false,
        views: [SceneView] = [], sheet: SheetDetentConfiguration? = nil
    ) {
        self.id = id
        self.title = title ?? id
        self.kind = kind
        self.presentationStyle = presentationStyle
        self.transitionStyle = transitionStyle
        self.definesPresentationContext = definesPresentationContext
        self.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
        self.supportedOrientations = supportedOrientations
        self.shouldAutorotate = shouldAutorotate
        self.preferredOrientationForPresentation = preferredOrientationForPresentation
        self.isModalInPresentation = isModalInPresentation
        self.views = views
        self.sheet = sheet
    }

    /// A navigation controller with `stack` (bottom to top). It defines a presentation context
    /// unless told otherwise, as `UINavigationController` does ("Some system-provided view
    /// controllers, such as UINavigationController, change the default value to true").
    public static func navigation(
        _ id: String, title: String? = nil, stack: [SceneController],
        presentationStyle: PresentationStyle = .fullScreen, transitionStyle: TransitionKind = .coverVertical,
        definesPresentationContext: Bool = true, providesPresentationContextTransitionStyle: Bool = false
    ) -> SceneController {
        SceneController(
            id: id, title: title, kind: .navigation(stack: stack), presentationStyle: presentationStyle,
            transitionStyle: transitionStyle, definesPresentationContext: definesPresentationContext,
            providesPresentationContextTransitionStyle: providesPresentationContextTransitionStyle)
    }

    public var isNavigation: Bool {
        if case .navigation = kind { return true }
        return false
    }

    /// The navigation stack, bottom to top; nil for a plain controller.
    public var stack: [SceneController]? {
        get {
            if case .navigation(let stack) = kind { return stack }
            return nil
        }
        set {
            if let newValue { kind = .navigation(stack: newValue) }
        }
    }

    /// This controller's id and every id below it (pre-order: the container before its stack).
    public var allIDs: [String] { [id] + (stack ?? []).flatMap(\.allIDs) }

    /// The controller with `id` in this subtree.
    func find(_ id: String) -> SceneController? {
        if self.id == id { return self }
        for child in stack ?? [] {
            if let found = child.find(id) { return found }
        }
        return nil
    }

    /// Checks this tree on its own: non-empty ids, unique, navigation stacks non-empty, no
    /// navigation controller inside a stack (UIKit: "Pushing a navigation controller is not supported").
    func validate() throws(SceneError) {
        var seen = Set<String>()
        for id in allIDs {
            guard !id.isEmpty else { throw .invalidScene("a controller id is empty") }
            guard seen.insert(id).inserted else { throw .invalidScene("the id \"\(id)\" is used twice") }
        }
        try validateOrientationsInTree()
        try validateStacks(nested: false)
    }

    private func validateStacks(nested: Bool) throws(SceneError) {
        guard let stack else { return }
        if nested {
            throw .invalidScene(
                "the navigation controller \"\(id)\" is inside a navigation stack (UIKit: pushing a navigation controller is not supported)"
            )
        }
        guard !stack.isEmpty else { throw .invalidScene("the navigation controller \"\(id)\" has an empty stack") }
        for child in stack { try child.validateStacks(nested: true) }
    }
}
