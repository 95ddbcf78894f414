import Foundation
import Testing

@testable import TransitionCore

/// Each kind's covered view at mid-progress, against its source (`CoveredSide.effect(of:)`).
@Suite("Covered side by kind") struct CoveredSideKindTests {
    typealias T = CoveredSideTests

    /// The covered view's horizontal shift from its frame at rest (scene coordinates).
    static func shift(_ drawn: T.Drawn, from frame: Rect) throws -> Double {
        let corners = try #require(drawn.corners)
        return corners[0].x - frame.minX
    }

    /// The navigation push: the covered view moves left by the width less UIKit's
    /// `parallaxOffset` (round(0.7 × the container's width): `_UINavigationParallaxTransition`,
    /// the decompile of iOS 26.1's UIKitCore — 30 % of 390 pt is 117 pt, measured there) on the
    /// push's curve, under black at 0.1 × the push's fraction (`_UIParallaxDimmingView`'s
    /// default colour, measured; that it follows the push's curve is inferred). The pop and the
    /// edge-swipe pop (the same plan) run it backwards. iOS 26's fluid transitions (rounded
    /// cards with a shadow, `_UIParallaxTransitionCardView`) are not modelled.
    @Test func thePushMovesTheCoveredChildAThirdLeftUnderATenthBlack() throws {
        let push = try T.pushing(.push)
        let child = try #require(push.picture.covered).frame
        #expect(round(0.7 * child.width) == child.width - 117)
        let f = TransitionKind.push.animated(0.5)
        #expect(abs(f - 0.5) < 1e-9)  // the ease in ease out's middle
        let middle = try T.drawn(push, at: 0.5)
        #expect(abs(try Self.shift(middle, from: child) + 117 * f) < 1e-6)
        #expect(abs(middle.shadeOpacity - 0.1 * f) < 1e-9)
        #expect(middle.shade?.center == middle.covered?.center && middle.shade?.z == middle.covered?.z)
        #expect(abs(try Self.shift(T.drawn(push, at: 1 - 1e-9), from: child) + 117) < 1e-4)

        let pop = try T.popping(.push)
        let back = try T.drawn(pop, at: 0.25)
        let g = TransitionKind.push.animated(0.25)
        #expect(abs(try Self.shift(back, from: child) + 117 * (1 - g)) < 1e-6)
        #expect(abs(back.shadeOpacity - 0.1 * (1 - g)) < 1e-9)
    }

    /// `UIModalTransitionStyle.flipHorizontal` (Apple): "the current view initiates a horizontal
    /// 3D flip from right-to-left, resulting in the revealing of the new view as if it were on
    /// the back of the previous view". The presenter is the front: it turns away in the first
    /// half (narrower, still facing) and is hidden in the second; on dismissal the reverse.
    @Test func theFlipsFrontTurnsAwayInTheFirstHalf() throws {
        let present = try T.presenting(.flipHorizontal)
        let early = try T.drawn(present, at: 0.25)
        let corners = try #require(early.corners)
        #expect(early.covered?.opacity == 1 && early.covered?.transform3D != nil)
        #expect(corners[1].x - corners[0].x < T.bounds.width * 0.95)
        #expect(try T.drawn(present, at: 0.75).covered?.opacity == 0)

        let dismiss = try T.dismissing(.flipHorizontal)
        #expect(try T.drawn(dismiss, at: 0.25).covered?.opacity == 0)
        let late = try T.drawn(dismiss, at: 0.75)
        let back = try #require(late.corners)
        #expect(late.covered?.opacity == 1 && back[1].x - back[0].x < T.bounds.width * 0.95)
    }

    /// `UIModalTransitionStyle.crossDissolve` (Apple): "the current view fades out while the new
    /// view fades in at the same time. On dismissal, a similar type of cross-fade is used". The
    /// page composites the layers, so the old view's share of the picture is its opacity times
    /// what the new one above it lets through: (1 − f)·old + f·new, a cross-fade without a dip.
    @Test func aCrossDissolveIsAnExactCrossFade() throws {
        for progress in [0.25, 0.5, 0.75] {
            let f = TransitionKind.crossDissolve.animated(progress)
            let present = try T.drawn(T.presenting(.crossDissolve), at: progress)
            let old = try #require(present.covered), new = try #require(present.layer(.to))
            #expect(new.z > old.z && abs(new.opacity - f) < 1e-12)
            #expect(abs(old.opacity * (1 - new.opacity) - (1 - f)) < 1e-12)
            let dismiss = try T.drawn(T.dismissing(.crossDissolve), at: progress)
            let revealed = try #require(dismiss.covered), leaving = try #require(dismiss.layer(.from))
            #expect(leaving.z > revealed.z && abs(leaving.opacity - (1 - f)) < 1e-12)
            #expect(abs(revealed.opacity * (1 - leaving.opacity) - f) < 1e-12)
            #expect(revealed.transform == .identity && dismiss.shade == nil)
        }
    }

    /// `UIModalTransitionStyle.partialCurl` (Apple): "one corner of the current view curls up to
    /// reveal the presented view underneath". The covered view is the page: cut along the fold
    /// (`fold`), above the presented view, its back drawn as `curl`; it does not move.
    @Test func theCurlsPageIsThePresentersView() throws {
        for scene in [try T.presenting(.partialCurl), try T.dismissing(.partialCurl)] {
            let middle = try T.drawn(scene, at: 0.5)
            let page = try #require(middle.covered)
            let under = try #require(middle.animator.first { $0.content == .presented })
            #expect(page.mask == .fold && page.z > under.z && page.content == .presenter)
            #expect(T.close(middle.corners, T.corners(T.bounds)))
            #expect(middle.layer(.curl) != nil && middle.layer(.fold) != nil)
        }
    }

    /// Seed 000's custom animators animate both views in their own container: the fade adds
    /// `toView` at alpha 0 and animates it to 1 (seed line 498), so dismissing, the presenter
    /// fades in over the presented view; presenting, the presenter stays. The pop (line 518) and
    /// the reveal (its pop, line 623: `insertSubview(toView, belowSubview: fromView)`) move only
    /// the herb or the shrinking view: the covered view stays at rest, opaque. Cover vertical
    /// (Apple: the presented "view slides up from the bottom of the screen") moves only the
    /// presented view.
    @Test(arguments: [TransitionKind.fade, .pop, .reveal, .coverVertical])
    func theSeedsAnimatorsAndCoverVerticalKeepOrFadeTheCoveredView(kind: TransitionKind) throws {
        let present = try T.drawn(T.presenting(kind), at: 0.5)
        #expect(T.close(present.corners, T.corners(T.bounds)) && present.covered?.opacity == 1)
        let dismiss = try T.drawn(T.dismissing(kind), at: 0.5)
        #expect(T.close(dismiss.corners, T.corners(T.bounds)))
        let covered = try #require(dismiss.covered)
        let moving = try #require(dismiss.layer(.from))
        if kind == .fade {
            #expect(abs(covered.opacity - TransitionKind.fade.animated(0.5)) < 1e-12 && covered.z > moving.z)
        } else {
            #expect(covered.opacity == 1 && covered.z < moving.z)
        }
    }

    /// A covered view smaller than the container: a sheet's card under a full-screen present is
    /// drawn in the card's rect (the animator's is the window's), and moves in proportion to it.
    @Test func aCoveredCardIsDrawnInItsOwnFrame() throws {
        var scene = try Scene(root: SceneController(id: "home"))
        try scene.present(.controller(SceneController(id: "card", presentationStyle: .pageSheet)), animated: false)
        let card = try #require(scene.frame(of: "card"))
        #expect(card == Rect(x: 0, y: 57, width: 390, height: 787))
        try scene.present(.controller(SceneController(id: "cover", transitionStyle: .flipHorizontal)))
        let side = try #require(scene.picture.covered)
        #expect(side.controller == "card" && side.frame == card && side.container == T.bounds)
        #expect(side.cornerRadius == SceneDevice.sheetCornerRadius)
        let start = try T.drawn(scene, at: 0)
        #expect(T.close(start.corners, T.corners(card)) && start.covered?.cornerRadius == 10)
        // The pushed-back root under the card is no part of the covered side: it stays still.
        let still = scene.picture.sceneLayers(moving: "cover", progress: 0.5)
        #expect(still.map(\.controller) == ["home"])

        _ = scene.end(completed: true)
        try scene.dismiss()
        let end = try T.drawn(scene, at: 1)
        #expect(T.close(end.corners, T.corners(card)))
    }
}
