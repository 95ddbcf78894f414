import Testing

@testable import TransitionCore

/// Where iOS 26's content swipe may begin (`Scene.contentPopStart`). Sources: Apple,
/// [`interactiveContentPopGestureRecognizer`](https://developer.apple.com/documentation/uikit/uinavigationcontroller/interactivecontentpopgesturerecognizer)
/// (iOS 26.0+, "the entire content area of the navigation controller"); the decompile of iOS
/// 26.1's UIKitCore (github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore):
/// `_UINavigationInteractiveTransitionBase` makes it only when content back swipes are enabled;
/// `_UIParallaxTransitionPanGestureRecognizer _needsDynamicDependentRequirementForGestureRecognizer:`
/// makes a scroll view's pan wait for it when the scroll view cannot scroll sideways or sits at
/// its leading minimum, and sets no requirement otherwise (the scroll view scrolls: inferred);
/// an app's own pan begins before the swipe's 30 pt and takes the touch (inferred).
@Suite("Where the content swipe may begin")
struct SceneContentPopTests {
    typealias F = SceneFixtures

    /// nav [list, detail] on a phone: detail's content is (0, 91, 390, 753) on screen.
    static func scene(ios: IOSVersion = .ios26, contentPop: Bool = true) throws -> Scene {
        let detail = SceneController(
            id: "detail",
            views: [
                SceneView(
                    id: "strip", kind: .horizontalScroll, frame: Rect(x: 0, y: 100, width: 390, height: 200),
                    atLeadingEdge: false),
                SceneView(id: "carousel", kind: .horizontalScroll, frame: Rect(x: 0, y: 320, width: 390, height: 100)),
                SceneView(id: "slider", kind: .pan, frame: Rect(x: 20, y: 440, width: 350, height: 40)),
                SceneView(id: "table", kind: .verticalScroll, frame: Rect(x: 0, y: 500, width: 390, height: 200)),
                SceneView(id: "thumb", kind: .view, frame: Rect(x: 300, y: 120, width: 60, height: 60)),
                // Listed last, so on top of the strip where they overlap.
                SceneView(id: "knob", kind: .pan, frame: Rect(x: 100, y: 250, width: 40, height: 40)),
            ])
        return try Scene(
            root: .navigation("nav", stack: [F.plain("list"), detail]),
            options: SceneOptions(ios: ios, contentPop: contentPop))
    }

    static func popPlan(_ scene: Scene) throws -> SceneTransitionPlan {
        var copy = scene
        return try copy.pop()
    }

    /// `y` in detail's own coordinates (its content starts 91 pt down).
    static func start(_ scene: Scene, x: Double, y: Double) throws -> ContentPopStart {
        scene.contentPopStart(popping: try popPlan(scene), at: Point(x: x, y: 91 + y))
    }

    @Test("iOS 26: plain content, a vertical scroll view and a plain view decide by the movement")
    func decides() throws {
        let scene = try Self.scene()
        for (x, y) in [(200.0, 20.0), (195, 600), (330, 150), (389, 752), (25, 20)] {
            #expect(try Self.start(scene, x: x, y: y) == .decides, "(\(x), \(y))")
        }
    }

    @Test("a horizontal scroll view away from its leading edge scrolls; at it, the swipe decides")
    func horizontalScroll() throws {
        let scene = try Self.scene()
        #expect(try Self.start(scene, x: 200, y: 150) == .scrolls("strip"))
        #expect(try Self.start(scene, x: 200, y: 350) == .decides)
    }

    @Test("the app's own pan takes the touch; the view listed last is on top")
    func appPan() throws {
        let scene = try Self.scene()
        #expect(try Self.start(scene, x: 200, y: 460) == .appPan("slider"))
        #expect(try Self.start(scene, x: 120, y: 270) == .appPan("knob"))
    }

    @Test("before iOS 26, or turned off, there is no content swipe")
    func versionAndSwitch() throws {
        for ios in IOSVersion.allCases where ios != .ios26 {
            #expect(try Self.start(try Self.scene(ios: ios), x: 200, y: 20) == .unavailable, "\(ios)")
        }
        #expect(try Self.start(try Self.scene(contentPop: false), x: 200, y: 20) == .unavailable)
    }

    @Test("outside the content (the bar, off screen, not finite) or not a pop: unavailable")
    func elsewhere() throws {
        let scene = try Self.scene()
        let plan = try Self.popPlan(scene)
        for point in [Point(x: 200, y: 60), Point(x: 200, y: 900), Point(x: -5, y: 300), Point(x: .nan, y: 300)] {
            #expect(scene.contentPopStart(popping: plan, at: point) == .unavailable, "\(point)")
        }
        var presenting = scene
        let present = try presenting.present(F.plain("modal"), animated: true)
        #expect(scene.contentPopStart(popping: present, at: Point(x: 200, y: 300)) == .unavailable)
    }
}
