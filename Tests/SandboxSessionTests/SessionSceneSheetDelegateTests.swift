import Testing
import TransitionCore

@testable import SandboxSession

/// The sheet's `UIAdaptivePresentationControllerDelegate` calls in the lifecycle log: only for
/// the sheet's own swipe-down (iOS 13+), never for an app's `dismiss`.
///
/// Sources: Apple, `presentationControllerWillDismiss(_:)`: "This method is not called if the
/// presentation is dismissed programmatically"; `presentationControllerShouldDismiss(_:)`: "This
/// method isn't guaranteed to be followed by a call to presentationControllerWillDismiss(_:) or
/// presentationControllerDidDismiss(_:)"; `presentationControllerDidAttemptToDismiss(_:)`: the
/// refusal when `isModalInPresentation` is true or ShouldDismiss returns false; WWDC 2019
/// session 224. Inferred, and chosen: ShouldDismiss and WillDismiss come before the appearance
/// callbacks, DidDismiss after the end callbacks; a sheet modal in presentation is refused
/// without ShouldDismiss being asked.
@Suite("The sheet's delegate calls") struct SessionSceneSheetDelegateTests {
    typealias H = SessionSceneTests.Harness
    static let lifecycle = SessionSceneTests.lifecycle
    static let asked = ["sheet.presentationControllerShouldDismiss", "sheet.presentationControllerWillDismiss"]

    static func withSheet(modal: Bool = false) -> H {
        var h = H()
        h.send(#"{"type":"scene","root":{"id":"home"}}"#)
        let sheet = #"{"id":"sheet","presentationStyle":"pageSheet","isModalInPresentation":\#(modal)}"#
        h.send(#"{"type":"present","controller":\#(sheet),"animated":false}"#)
        return h
    }

    @Test func aSwipeThatFinishesIsAskedToldAndToldAgainAfterTheEndCallbacks() {
        var h = Self.withSheet()
        var actions = h.pan(from: (195, 300), by: (0, 500))
        actions += h.settle()
        #expect(
            Self.lifecycle(actions)
                == Self.asked + [
                    "sheet.viewWillDisappear(true)", "sheet.completeTransition(true)", "sheet.viewDidDisappear(true)",
                    "sheet.presentationControllerDidDismiss",
                ])
        #expect(h.scene?.scene.presentations.isEmpty == true)
    }

    @Test func aSwipeThatCancelsGetsNoDidDismiss() {
        var h = Self.withSheet()
        var actions = h.pan(from: (195, 300), by: (0, 40))
        actions += h.settle()
        let log = Self.lifecycle(actions)
        #expect(Array(log.prefix(2)) == Self.asked)
        #expect(log.last == "sheet.viewDidAppear(true)")
        #expect(!log.contains("sheet.presentationControllerDidDismiss"))
    }

    @Test func aSheetModalInPresentationOnlyHearsOfTheAttempt() {
        var h = Self.withSheet(modal: true)
        var actions = h.pan(from: (195, 300), by: (0, 500))
        actions += h.settle()
        #expect(Self.lifecycle(actions) == ["sheet.presentationControllerDidAttemptToDismiss"])
    }

    @Test(arguments: [
        #"{"type":"dismiss","animated":false}"#,
        #"{"type":"dismiss","animated":true,"interactive":true}"#,
    ])
    func anAppsDismissalLogsNoDelegateCall(_ dismiss: String) {
        var h = Self.withSheet()
        var actions = h.send(dismiss)
        actions += h.pan(from: (195, 300), by: (0, 500))
        actions += h.settle()
        let log = Self.lifecycle(actions)
        #expect(log.contains { $0.hasPrefix("sheet.viewDidDisappear") })
        #expect(!log.contains { $0.contains("presentationController") })
    }

    @Test func delegateLinesShowNoAnimatedArgument() {
        let line = LifecycleEvent.delegate("sheet", .presentationControllerDidAttemptToDismiss).description
        #expect(line == "sheet.presentationControllerDidAttemptToDismiss")
        // The four adaptive-presentation calls and the sheet's detent change.
        #expect(LifecycleCallback.allCases.filter(\.isDelegateCall).count == 5)
    }
}
