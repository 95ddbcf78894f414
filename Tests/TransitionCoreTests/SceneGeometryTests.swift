import Testing

@testable import TransitionCore

/// Every style's presenter handling and geometry, on a phone (390 × 844, safe area 47) and a
/// tablet (820 × 1180, safe area 24): iOS 13+ sheets.
@Suite("Scene geometry")
struct SceneGeometryTests {
    typealias F = SceneFixtures
    static let s = 358.0 / 390.0  // phone push-back scale: (390 − 2·16) / 390

    func presented(_ style: PresentationStyle, on device: SceneDevice) throws -> (Scene, SceneTransitionPlan) {
        var scene = try F.plainRoot(device)
        let plan = try scene.present(F.plain("B", style))
        _ = scene.end(completed: true)
        return (scene, plan)
    }

    @Test("full screen: the screen; the presenter's view is removed")
    func fullScreen() throws {
        for device in SceneDevice.allCases {
            let (scene, plan) = try presented(.fullScreen, on: device)
            #expect(plan.container == device.bounds && plan.removesPresenterView && plan.style == .fullScreen)
            #expect(
                scene.visibleLayers == [SceneLayer(controller: "B", role: .presented, frame: device.bounds, group: "B")]
            )
        }
    }

    @Test("over full screen: the screen; the presenter stays beneath, untouched")
    func overFullScreen() throws {
        for device in SceneDevice.allCases {
            let (scene, plan) = try presented(.overFullScreen, on: device)
            #expect(plan.container == device.bounds && !plan.removesPresenterView)
            #expect(
                scene.visibleLayers == [
                    SceneLayer(controller: "A", role: .root, frame: device.bounds, group: "A"),
                    SceneLayer(controller: "B", role: .presented, frame: device.bounds, group: "B"),
                ])
        }
    }

    @Test(
        "phone page and form sheets: a card 10 pt below the safe area; the presenter pushed back, rounded",
        arguments: [
            PresentationStyle.pageSheet, .formSheet,
        ])
    func phoneSheet(style: PresentationStyle) throws {
        let (scene, plan) = try presented(style, on: .phone)
        let card = Rect(x: 0, y: 57, width: 390, height: 787)
        #expect(plan.container == card && !plan.removesPresenterView)
        #expect(
            scene.visibleLayers == [
                SceneLayer(
                    controller: "A", role: .root, frame: Rect(x: 16, y: 47, width: 358, height: 844 * Self.s),
                    cornerRadius: 10, scale: Self.s, group: "A"),
                SceneLayer(controller: "B", role: .presented, frame: card, cornerRadius: 10, group: "B"),
            ])
        // 10 pt of the pushed-back presenter shows above the card.
        #expect(scene.visibleLayers[1].frame.minY - scene.visibleLayers[0].frame.minY == 10)
    }

    @Test("tablet page sheet: 704 pt wide, centred, over a dimmed presenter that is not scaled")
    func tabletPageSheet() throws {
        let (scene, plan) = try presented(.pageSheet, on: .tablet)
        let card = Rect(x: 58, y: 34, width: 704, height: 1112)
        #expect(plan.container == card)
        #expect(
            scene.visibleLayers == [
                SceneLayer(controller: "A", role: .root, frame: SceneDevice.tablet.bounds, group: "A"),
                SceneLayer(controller: "B", role: .dimming, frame: SceneDevice.tablet.bounds, opacity: 0.4, group: "B"),
                SceneLayer(controller: "B", role: .presented, frame: card, cornerRadius: 10, group: "B"),
            ])
    }

    @Test("tablet form sheet: 540 × 620 centred")
    func tabletFormSheet() throws {
        let (scene, plan) = try presented(.formSheet, on: .tablet)
        let card = Rect(x: 140, y: 280, width: 540, height: 620)
        #expect(plan.container == card)
        #expect(scene.visibleLayers.map(\.role) == [.root, .dimming, .presented])
        #expect(scene.visibleLayers[2].frame == card)
        #expect(scene.visibleControllers == ["A", "B"])
    }

    @Test("a sheet on a sheet: the lower card is pushed back too")
    func stackedSheets() throws {
        var scene = try F.plainRoot()
        try scene.present(F.plain("B", .pageSheet), animated: false)
        try scene.present(F.plain("C", .pageSheet), animated: false)
        let layers = scene.visibleLayers
        #expect(layers.map(\.controller) == ["A", "B", "C"])
        #expect(layers[1].frame == Rect(x: 16, y: 47, width: 358, height: 787 * Self.s))
        #expect(layers[1].scale == Self.s)
        #expect(layers[2].frame == Rect(x: 0, y: 57, width: 390, height: 787))
        #expect(scene.visibleControllers == ["A", "B", "C"])
    }

    @Test("a navigation controller: its visible child below the bar, the bar with the child's title")
    func navigationLayers() throws {
        for device in SceneDevice.allCases {
            let scene = try F.navigationRoot(device)
            let bar = 44 + device.safeAreaTop
            #expect(
                scene.visibleLayers == [
                    SceneLayer(
                        controller: "home", role: .child,
                        frame: Rect(x: 0, y: bar, width: device.size.width, height: device.size.height - bar),
                        group: "nav"),
                    SceneLayer(
                        controller: "nav", role: .navigationBar,
                        frame: Rect(x: 0, y: 0, width: device.size.width, height: bar), title: "Home", group: "nav"),
                ])
        }
    }

    @Test("a navigation controller in a phone card: a 44 pt bar at the card's top, pushed back with its group")
    func navigationInSheet() throws {
        var scene = try F.plainRoot()
        try scene.present(
            .navigation("sheetNav", stack: [F.plain("form")], presentationStyle: .pageSheet), animated: false)
        #expect(scene.frame(of: "form") == Rect(x: 0, y: 101, width: 390, height: 743))
        try scene.present(F.plain("more", .pageSheet), animated: false)
        let layers = scene.visibleLayers.filter { $0.group == "sheetNav" }
        #expect(layers.map(\.role) == [.child, .navigationBar])
        #expect(layers[1].frame == Rect(x: 16, y: 47, width: 358, height: 44 * Self.s))
        #expect(layers[0].frame.minY == 47 + 44 * Self.s)
    }

    @Test("the plan's configuration: kind, operation, duration, container and the pan of the system kinds")
    func configuration() throws {
        var scene = try F.navigationRoot(stack: ["home", "detail"])
        let pop = try scene.pop().configuration(from: TransitionConfiguration())
        #expect(pop.kind == .push && pop.operation == .dismiss && pop.duration == TransitionKind.push.defaultDuration)
        #expect(pop.container == Size(width: 390, height: 753))
        #expect(pop.pan.axis == .x && pop.pan.direction == .positive)
        #expect(throws: Never.self) { try pop.validate() }
        _ = scene.end(completed: false)
        let sheet = try scene.present(F.plain("S", .pageSheet)).configuration(from: TransitionConfiguration())
        #expect(sheet.kind == .coverVertical && sheet.pan.axis == .y && sheet.pan.direction == .negative)
        #expect(sheet.container == Size(width: 390, height: 787))
    }

    @Test("scene-state: tree, pairs with styles, stacks, top-most, appeared, in flight")
    func state() throws {
        var scene = try F.navigationRoot()
        try scene.present(
            .navigation("modalNav", stack: [F.plain("m1")], presentationStyle: .formSheet), from: "home",
            animated: false)
        try scene.push(F.plain("m2"))
        let state = scene.state
        #expect(state.device == .phone && state.root == .navigation("nav", stack: [F.plain("home")]))
        #expect(
            state.presentations == [
                .init(
                    presenter: "nav", presented: "modalNav", source: "home", style: .formSheet,
                    transition: .coverVertical)
            ])
        #expect(
            state.navigationStacks == [
                .init(navigation: "nav", stack: ["home"]), .init(navigation: "modalNav", stack: ["m1"]),
            ])
        #expect(state.topMost == "modalNav")
        #expect(state.appeared == ["nav", "home", "modalNav", "m1"])
        #expect(state.inFlight == .push)
        #expect(scene.pendingLayers?.last?.title == "M2")
    }
}
