import Testing

@testable import TransitionCore

/// UIKit's texts per case and release. Sources: the modern warnings with "(from …)" as logged by
/// iOS 13+ (adaptyteam/AdaptySDK-iOS PR 116, 2025: "Attempt to present <…> on <…> (from <…>)
/// which is already presenting"); the NSInvalidArgumentException reasons listed in
/// wikimedia/wikipedia-ios, Wikipedia/Code/ArticleTableOfContentsDisplayController.swift
/// ("… that is already being presented by %@", "… on itself", "… that has a parent view
/// controller %@", "… (from %@) whose view is not in the window hierarchy"); the older
/// "Warning: … whose view is not in the window hierarchy!" (iOS 7–12 logs quoted in
/// pinterest/ios-pdk PR 86, AzureAD PR 242). The release that added "(from …)" is not known:
/// 13 is chosen.
@Suite("Scene error texts")
struct SceneErrorTextTests {
    typealias F = SceneFixtures

    @Test("already presenting and not in the window: iOS 13+ names the source; before, the Warning: form")
    func warnings() throws {
        for ios in [IOSVersion.ios12, .ios13] {
            var scene = try Scene(
                root: .navigation("nav", stack: [F.plain("home"), F.plain("detail")]), options: SceneOptions(ios: ios))
            let hidden = SceneError.notInWindow(attempted: "B", on: "nav", source: "home", ios: ios)
            expectRefusal(scene, hidden) { scene throws(SceneError) in try scene.present(F.plain("B"), from: "home") }
            try scene.present(F.plain("B"), from: "detail", animated: false)
            let busy = SceneError.alreadyPresenting(
                attempted: "C", on: "nav", source: "detail", presented: "B", ios: ios)
            expectRefusal(scene, busy) { scene throws(SceneError) in try scene.present(F.plain("C"), from: "detail") }
            if ios == .ios13 {
                #expect(
                    hidden.description
                        == "Attempt to present B on nav (from home) whose view is not in the window hierarchy.")
                #expect(busy.description == "Attempt to present C on nav (from detail) which is already presenting B.")
            } else {
                #expect(
                    hidden.description
                        == "Warning: Attempt to present B on nav whose view is not in the window hierarchy!")
                #expect(busy.description == "Warning: Attempt to present C on nav which is already presenting B")
            }
        }
    }

    @Test("each controller already in the hierarchy gets its own NSInvalidArgumentException text")
    func exceptions() throws {
        var scene = try Scene(root: .navigation("nav", stack: [F.plain("home")]))
        try scene.present(F.plain("B"), from: "home", animated: false)
        let cases: [(SceneError, String)] = [
            (
                .alreadyPresented("B", .itself, ios: .newest),
                "Application tried to present modal view controller on itself. Presenting controller is B."
            ),
            (
                .alreadyPresented("home", .parent("nav"), ios: .newest),
                "Application tried to present modally a view controller home that has a parent view controller nav."
            ),
            (
                .alreadyPresented("B", .presentedBy("nav"), ios: .newest),
                "Application tried to present modally a view controller B that is already being presented by nav."
            ),
            (
                .alreadyPresented("B", .presentedBy("nav"), ios: .ios8),
                "Application tried to present modally an active controller B."
            ),
            (
                .alreadyPresented("home", .pushed, ios: .newest),
                "Pushing the same view controller instance more than once is not supported (home)"
            ),
        ]
        for (error, text) in cases { #expect(error.description == "NSInvalidArgumentException: " + text) }
        expectRefusal(scene, cases[0].0) { scene throws(SceneError) in try scene.present(.id("B"), from: "B") }
        expectRefusal(scene, cases[1].0) { scene throws(SceneError) in try scene.present(.id("home"), from: "B") }
        try scene.present(F.plain("C"), from: "B", animated: false)
        expectRefusal(scene, cases[2].0) { scene throws(SceneError) in try scene.present(.id("B"), from: "C") }
    }

    /// A present while a present or dismiss runs: UIKit's warning, "Attempt to present X on Y
    /// (from Z) while a presentation is in progress." (iOS 13+, as logged by apps since 2019) and
    /// "Warning: Attempt to present X on Y while a presentation is in progress!" (iOS 7–12 logs);
    /// the sandbox's explanation follows. A push in flight keeps the sandbox's own text.
    @Test("busy present: UIKit's 'while a presentation is in progress' warning per release")
    func presentWhileAPresentationRuns() throws {
        for ios in [IOSVersion.ios12, .ios13] {
            var scene = try Scene(root: .navigation("nav", stack: [F.plain("home")]), options: SceneOptions(ios: ios))
            try scene.present(F.plain("B", .fullScreen), from: "home")
            let busy = SceneError.presentingWhileBusy(
                attempted: "C", on: "nav", source: "home", inFlight: .present, ios: ios)
            expectRefusal(scene, busy) { scene throws(SceneError) in try scene.present(F.plain("C"), from: "home") }
            #expect(busy.code == "busy")
            #expect(
                busy.description
                    == (ios == .ios13
                        ? "Attempt to present C on nav (from home) while a presentation is in progress."
                        : "Warning: Attempt to present C on nav while a presentation is in progress!")
                    + " (a present transition is in flight)")
        }
        var pushing = try Scene(root: .navigation("nav", stack: [F.plain("home")]))
        try pushing.push(F.plain("detail"))
        expectRefusal(pushing, .busy(.push)) { scene throws(SceneError) in try scene.present(F.plain("C")) }
    }

    /// UIKit's exception name is `UIApplicationInvalidInterfaceOrientation` (no "Exception"
    /// suffix: the decompile of iOS 26.1's UIKitCore,
    /// github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore), in the console's form for an
    /// uncaught exception; the sandbox's account of the masks stays outside UIKit's quoted reason.
    @Test("orientation exceptions: UIKit's name and console form, the sandbox's masks after it")
    func orientationExceptionTexts() {
        let none = SceneError.noCommonOrientation(
            controller: "A", supported: .landscape, app: .portrait, window: .portrait)
        #expect(
            none.description
                == "Terminating app due to uncaught exception 'UIApplicationInvalidInterfaceOrientation', "
                + "reason: 'Supported orientations has no common orientation with the application, "
                + "and [A shouldAutorotate] is returning YES' "
                + "(app portrait, window portrait, A landscape)")
        let wide = SceneError.noCommonOrientation(
            controller: "A", supported: [], app: .allButUpsideDown, window: [.portrait, .portraitUpsideDown])
        #expect(wide.description.hasSuffix("(app allButUpsideDown, window portrait+portraitUpsideDown, A none)"))
        let preferred = SceneError.unsupportedPreferredOrientation(
            controller: "B", preferred: .landscapeLeft, allowed: .portrait)
        #expect(
            preferred.description
                == "Terminating app due to uncaught exception 'UIApplicationInvalidInterfaceOrientation', "
                + "reason: 'preferredInterfaceOrientationForPresentation 'landscapeLeft' must match a supported "
                + #"interface orientation: ["portrait"]' (B)"#)
    }
}
