import Testing

@testable import TransitionCore

/// The zoom transition's geometry (ZoomAnimator, ZoomAnimator+Drag). Sources: Apple, "Enhancing
/// your app with fluid transitions" (developer.apple.com/documentation/uikit/
/// enhancing-your-app-with-fluid-transitions) — the destination grows out of the source view and
/// can be grabbed and dragged at any time; WWDC 2024 session 10145 "Enhance your UI animations
/// and transitions". The spring (critically damped, 0.5 s), the minimum scale (0.4) and the
/// dimming (black, 0.2) are not published: inferred, chosen.
@Suite("The zoom transition's geometry")
struct ZoomAnimatorTests {
    static let source = Rect(x: 16, y: 120, width: 120, height: 90)
    static let container = Size(width: 390, height: 844)

    static func animator(_ operation: TransitionOperation) -> ZoomAnimator {
        var c = TransitionConfiguration(kind: .zoom)
        c.operation = operation
        c.container = container
        c.originFrame = source
        return ZoomAnimator(configuration: c)
    }

    static func card(_ layers: [LayerState], _ id: LayerID) throws -> Rect {
        let card = try #require(layers.first { $0.id == id })
        return Rect(
            x: card.center.x - card.bounds.width / 2, y: card.center.y - card.bounds.height / 2,
            width: card.bounds.width, height: card.bounds.height)
    }

    static func close(_ a: Rect, _ b: Rect, within tolerance: Double = 1e-6) -> Bool {
        abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
            && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
    }

    @Test func presentStartsAtTheSourceAndEndsFullScreen() throws {
        let zoom = Self.animator(.present)
        #expect(Self.close(try Self.card(zoom.layers(at: 0), .to), Self.source))
        let end = try Self.card(zoom.layers(at: zoom.duration), .to)
        #expect(Self.close(end, Rect(origin: .zero, size: Self.container)))
        // Growing all the way: every step is at least as large as the one before.
        var width = 0.0
        for step in 0...20 {
            let w = try Self.card(zoom.layers(at: zoom.duration * Double(step) / 20), .to).width
            #expect(w >= width - 1e-9)
            width = w
        }
        // The covered side stays beneath until the end.
        #expect(zoom.layers(at: zoom.duration / 2).contains { $0.id == .from && $0.z < 1 })
        #expect(!zoom.layers(at: zoom.duration).contains { $0.id == .from })
    }

    @Test func dismissShrinksBackIntoTheSource() throws {
        let zoom = Self.animator(.dismiss)
        #expect(Self.close(try Self.card(zoom.layers(at: 0), .from), Rect(origin: .zero, size: Self.container)))
        let late = try Self.card(zoom.layers(at: zoom.duration.nextDown), .from)
        #expect(Self.close(late, Self.source, within: 1))  // the spring has all but settled
        #expect(zoom.layers(at: zoom.duration).map(\.id) == [.to])
    }

    @Test func cornersRoundTowardTheSource() throws {
        let zoom = Self.animator(.present)
        let start = try #require(zoom.layers(at: 0).first { $0.id == .to })
        let end = try #require(zoom.layers(at: zoom.duration).first { $0.id == .to })
        #expect(start.cornerRadius == ZoomAnimator.sourceCornerRadius)
        #expect(end.cornerRadius == 0)
    }

    /// The drag: the card's centre moves with the finger in x and y; its scale falls with the
    /// pan's progress, linearly to 0.4 at 1.
    @Test func trackingFollowsTheFingerAndShrinks() {
        let zoom = Self.animator(.dismiss)
        let home = zoom.home
        let card = zoom.tracking(
            anchor: home, anchorProgress: 0, progress: 0.25, translation: Point(x: 80, y: 211))
        #expect(abs(card.center.x - (home.center.x + 80)) < 1e-9)
        #expect(abs(card.center.y - (home.center.y + 211)) < 1e-9)
        #expect(abs(card.width - home.width * 0.85) < 1e-9)
        #expect(abs(card.height - home.height * 0.85) < 1e-9)
        #expect(ZoomAnimator.trackingScale(1) == ZoomAnimator.minimumScale)
        #expect(ZoomAnimator.trackingScale(-3) == 1)
        #expect(ZoomAnimator.trackingScale(.nan) == 1)
        // A grab: where the pan begins the card is where it was caught.
        let caught = Rect(x: 50, y: 300, width: 200, height: 300)
        let held = zoom.tracking(anchor: caught, anchorProgress: 0.4, progress: 0.4, translation: .zero)
        #expect(Self.close(held, caught))
    }

    /// The settle runs from where the card was let go to the source (finish) or home (cancel),
    /// by the share of the completion run.
    @Test func settlingRunsFromTheReleaseToItsTarget() {
        let zoom = Self.animator(.dismiss)
        let released = Rect(x: 80, y: 200, width: 300, height: 600)
        func settle(_ release: Double, _ progress: Double, _ toSource: Bool) -> Rect {
            zoom.settling(from: released, releaseProgress: release, progress: progress, toSource: toSource)
        }
        #expect(Self.close(settle(0.3, 0.3, true), released))
        #expect(Self.close(settle(0.3, 1, true), Self.source))
        #expect(Self.close(settle(0.3, 0, false), zoom.home))
        let half = zoom.settling(from: released, releaseProgress: 0.4, progress: 0.2, toSource: false)
        #expect(Self.close(half, released.interpolated(to: zoom.home, fraction: 0.5)))
        // A release at the very end or start: no division by zero.
        #expect(Self.close(zoom.settling(from: released, releaseProgress: 1, progress: 1, toSource: true), Self.source))
        #expect(Self.close(zoom.settling(from: released, releaseProgress: 0, progress: 0, toSource: false), zoom.home))
    }

    /// Outside a scene the zoom grows out of the demo's default thumbnail.
    @Test func defaultSourceIsTheDemoThumbnail() {
        var c = TransitionConfiguration(kind: .zoom)
        c.container = Self.container
        #expect(ZoomAnimator(configuration: c).source == TransitionConfiguration.defaultOriginFrame(in: Self.container))
    }
}
