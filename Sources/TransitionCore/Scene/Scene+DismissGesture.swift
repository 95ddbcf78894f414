/// What the system's own dismissal gesture does: only iOS 13+ sheets have one.
public enum DismissGesture: Equatable, Sendable {
    /// No gesture: nothing presented, or the top-most presentation is not a sheet (full
    /// screen, over full screen, a context style), or the release is before iOS 13.
    case none
    /// The sheet's swipe-down dismisses the controller.
    case dismisses(String)
    /// The sheet is modal in presentation: the swipe-down resists and finishes back, and its
    /// delegate gets `presentationControllerDidAttemptToDismiss`.
    case resists(String)
}

extension Scene {
    /// The system dismissal gesture of the top-most presentation (SceneDismissGestureTests).
    ///
    /// Apple, `isModalInPresentation`: "UIKit … prevents the interactive dismissal of the view
    /// controller while it is onscreen"; WWDC 2019 session 224 ("Modernizing Your UI for iOS
    /// 13"): the card-style sheet is dismissed by swiping down, and an app blocks it with
    /// `isModalInPresentation`, its delegate then told `presentationControllerDidAttemptToDismiss`.
    /// Full-screen and over-full-screen presentations and the context styles have no such gesture
    /// (an app's own interactive dismissal is an explicit, armed request). Modal in presentation
    /// is read from the sheet and, for a navigation controller, its visible child (a decision:
    /// the child's flag is the one apps set).
    public var dismissGesture: DismissGesture {
        guard options.ios.atLeast(13), let last = hierarchy.composition().zOrder.last else { return .none }
        let top = hierarchy.presentations[last]
        guard top.style.isSheet else { return .none }
        let sheet = top.presented
        let modal = sheet.isModalInPresentation || sheet.stack?.last?.isModalInPresentation == true
        return modal ? .resists(sheet.id) : .dismisses(sheet.id)
    }
}
