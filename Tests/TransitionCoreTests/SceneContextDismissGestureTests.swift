import Testing

@testable import TransitionCore

/// Only iOS 13+ sheets have a system dismissal gesture; `isModalInPresentation` makes it resist.
/// Sources: Apple, `isModalInPresentation` ("UIKit … prevents the interactive dismissal of the
/// view controller while it is onscreen") and `presentationControllerDidAttemptToDismiss(_:)`
/// ("called … when the user attempts to dismiss the presented view controller … when
/// isModalInPresentation is true"); WWDC 2019 session 224, "Modernizing Your UI for iOS 13" (the
/// card is swiped down to dismiss; full-screen presentations are not).
@Suite("Scene dismiss gesture")
struct SceneDismissGestureTests {
    typealias F = SceneFixtures

    @Test("a sheet on iOS 13+ dismisses; full screen, over full screen and context styles have none")
    func onlySheets() throws {
        for style in PresentationStyle.allCases where style != .automatic {
            var scene = try Scene(root: .navigation("nav", stack: [F.plain("home")]))
            try scene.present(F.plain("B", style), from: "home", animated: false)
            #expect(scene.dismissGesture == (style.isSheet ? .dismisses("B") : .none), "\(style)")
        }
        #expect(try Scene(root: F.plain("A")).dismissGesture == .none)
    }

    @Test("before iOS 13 there is no sheet gesture (phone sheets are full screen; tablet sheets had none)")
    func beforeThirteen() throws {
        for device in [SceneDevice.phone, .tablet] {
            var scene = try Scene(device: device, root: F.plain("A"), options: SceneOptions(ios: .ios12))
            try scene.present(F.plain("B", .formSheet), animated: false)
            #expect(scene.dismissGesture == .none)
        }
    }

    @Test("modal in presentation resists: the sheet, or a navigation sheet's visible child")
    func resists() throws {
        var modal = F.plain("B", .pageSheet)
        modal.isModalInPresentation = true
        var scene = try Scene(root: F.plain("A"))
        try scene.present(modal, animated: false)
        #expect(scene.dismissGesture == .resists("B"))
        var child = F.plain("form")
        child.isModalInPresentation = true
        var other = try Scene(root: F.plain("A"))
        try other.present(.navigation("nav", stack: [child], presentationStyle: .pageSheet), animated: false)
        #expect(other.dismissGesture == .resists("nav"))
    }

    @Test("a resisting plan's engine always cancels: clamped just past 0, rubber-banded, threshold release")
    func resistingConfiguration() throws {
        var base = TransitionConfiguration(kind: .coverVertical)
        base.flingVelocity = 300
        base.releaseRule = .projection
        base.clampLower = 0.01
        var scene = try Scene(root: F.plain("A"))
        try scene.present(F.plain("B", .pageSheet), animated: false)
        var copy = scene
        var plan = try copy.dismiss()
        plan.resists = true
        let configuration = plan.configuration(from: base)
        #expect(configuration.clampUpper == 0.001 && configuration.rubberBand == 0.55)
        #expect(configuration.flingVelocity == nil && configuration.releaseRule == .threshold)
        // The whole card's travel stretches to under the threshold.
        let limit = RubberBand(constant: 0.55).limit(1, lower: 0, upper: 0.001, dimension: 1)
        #expect(limit < configuration.threshold)
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
