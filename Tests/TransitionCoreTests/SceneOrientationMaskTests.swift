import PropertyBased
import Testing

@testable import TransitionCore

/// The orientation types of REFERENCE §4: names, UIKit's numbers, the device → interface
/// mapping, the masks, the root transforms; and the mask algebra of a device turn, exhaustive
/// over every device orientation × controller mask and property-tested over app and window masks.
@Suite("Scene orientation masks")
struct SceneOrientationMaskTests {
    static let masks = (0..<16).map { OrientationMask(rawValue: $0 << 1) }  // every subset of the four bits

    @Test("device → interface: landscape left ↔ landscape right; face up/down and unknown never rotate")
    func mapping() {
        let expected: [DeviceOrientation: InterfaceOrientation?] = [
            .unknown: nil, .portrait: .portrait, .portraitUpsideDown: .portraitUpsideDown,
            .landscapeLeft: .landscapeRight, .landscapeRight: .landscapeLeft, .faceUp: nil, .faceDown: nil,
        ]
        for device in DeviceOrientation.allCases {
            #expect(device.interfaceOrientation == expected[device]!)
            #expect(DeviceOrientation(uikitValue: device.uikitValue) == device)
            #expect(DeviceOrientation(rawValue: device.rawValue) == device)
        }
        #expect(DeviceOrientation.allCases.map(\.uikitValue) == Array(0...6))
        for interface in InterfaceOrientation.allCases {
            #expect(interface.deviceOrientation.interfaceOrientation == interface)
            // UIInterfaceOrientation's value is the device orientation's it matches.
            #expect(interface.uikitValue == interface.deviceOrientation.uikitValue)
            #expect(InterfaceOrientation(uikitValue: interface.uikitValue) == interface)
        }
        #expect(
            InterfaceOrientation.landscapeLeft.uikitValue == 4 && InterfaceOrientation.landscapeRight.uikitValue == 3)
        #expect(InterfaceOrientation(uikitValue: 0) == nil && InterfaceOrientation(uikitValue: 5) == nil)
        #expect(DeviceOrientation(uikitValue: 7) == nil)
    }

    @Test("masks: 1 << orientation; the named masks; names both ways")
    func maskValues() {
        #expect(OrientationMask.portrait.rawValue == 2)
        #expect(OrientationMask.portraitUpsideDown.rawValue == 4)
        #expect(OrientationMask.landscapeRight.rawValue == 8)
        #expect(OrientationMask.landscapeLeft.rawValue == 16)
        #expect(OrientationMask.landscape.rawValue == 24)
        #expect(OrientationMask.all.rawValue == 30)
        #expect(OrientationMask.allButUpsideDown.rawValue == 26)
        for o in InterfaceOrientation.allCases { #expect(o.mask.rawValue == 1 << o.uikitValue) }
        #expect(OrientationMask.all.names == ["portrait", "portraitUpsideDown", "landscapeRight", "landscapeLeft"])
        #expect(OrientationMask(names: ["landscapeLeft", "portrait"]) == [.portrait, .landscapeLeft])
        #expect(OrientationMask(names: ["landscape"]) == .landscape)
        #expect(OrientationMask(names: ["allButUpsideDown"])?.rawValue == 26)
        #expect(OrientationMask(names: []) == OrientationMask())
        #expect(OrientationMask(names: ["sideways"]) == nil)
        for mask in Self.masks {
            #expect(mask.isValid)
            #expect(OrientationMask(names: mask.names) == mask)
            #expect(OrientationMask(mask.orientations) == mask)
            for o in InterfaceOrientation.allCases {
                #expect(mask.contains(o) == (mask.rawValue & (1 << o.uikitValue) != 0))
            }
        }
        #expect(!OrientationMask(rawValue: 1).isValid && !OrientationMask(rawValue: 32).isValid)
        #expect(
            OrientationMask.deviceDefault(.phone) == .allButUpsideDown && OrientationMask.deviceDefault(.tablet) == .all
        )
    }

    @Test("root transforms: the seed's [0, −1, 1, 0, 0, 0] for landscape left, its inverse for right, π upside down")
    func transforms() {
        #expect(InterfaceOrientation.portrait.rootTransform == .identity)
        #expect(InterfaceOrientation.landscapeLeft.rootTransform.components == [0, -1, 1, 0, 0, 0])
        #expect(InterfaceOrientation.landscapeRight.rootTransform.components == [0, 1, -1, 0, 0, 0])
        #expect(
            InterfaceOrientation.landscapeRight.rootTransform
                == InterfaceOrientation.landscapeLeft.rootTransform.inverted())
        #expect(InterfaceOrientation.portraitUpsideDown.rootTransform.components == [-1, 0, 0, -1, 0, 0])
        for o in InterfaceOrientation.allCases {
            let made = AffineTransform(rotationAngle: o.angle)
            for (x, y) in zip(made.components, o.rootTransform.components) { #expect(abs(x - y) < 1e-12) }
        }
        // Interface coordinates → the device's portrait screen: landscape left's top-left corner
        // is the device's bottom-left (the device turned clockwise, home button on the left).
        let screen = SceneDevice.phone.size
        let left = InterfaceOrientation.landscapeLeft.deviceTransform(screen: screen)
        #expect(left.apply(to: Point(x: 0, y: 0)) == Point(x: 0, y: 844))
        #expect(left.apply(to: Point(x: 844, y: 390)) == Point(x: 390, y: 0))
        let right = InterfaceOrientation.landscapeRight.deviceTransform(screen: screen)
        #expect(right.apply(to: Point(x: 0, y: 0)) == Point(x: 390, y: 0))
        let down = InterfaceOrientation.portraitUpsideDown.deviceTransform(screen: screen)
        #expect(down.apply(to: Point(x: 0, y: 0)) == Point(x: 390, y: 844))
        #expect(InterfaceOrientation.portrait.deviceTransform(screen: screen) == .identity)
    }

    @Test("rotation plans: quarter turns ±π/2 in 0.4 s, half turns +π in 0.8 s, exact ends")
    func turns() {
        #expect(RotationPlan.turn(from: .portrait, to: .landscapeLeft) == -Double.pi / 2)
        #expect(RotationPlan.turn(from: .portrait, to: .landscapeRight) == Double.pi / 2)
        #expect(RotationPlan.turn(from: .landscapeLeft, to: .landscapeRight) == Double.pi)
        #expect(RotationPlan.turn(from: .portraitUpsideDown, to: .landscapeLeft) == Double.pi / 2)
        for from in InterfaceOrientation.allCases {
            for to in InterfaceOrientation.allCases {
                let plan = RotationPlan(
                    from: from, to: to, boundsBefore: .zero, boundsAfter: .zero, quarterTurnDuration: 0.4,
                    animated: true)
                let quarters = abs(plan.turn) / (Double.pi / 2)
                #expect(quarters == (from == to ? 0 : from.isLandscape == to.isLandscape ? 2 : 1))
                #expect(abs(plan.duration - 0.4 * quarters) < 1e-12)
                #expect(plan.transform(at: 0) == from.rootTransform && plan.transform(at: 1) == to.rootTransform)
                let end = AffineTransform(rotationAngle: from.angle + plan.turn)
                for (x, y) in zip(end.components, to.rootTransform.components) { #expect(abs(x - y) < 1e-12) }
                #expect(plan.curve == .easeInEaseOut)
            }
        }
    }

    // MARK: - The mask algebra of a device turn

    /// A phone scene whose root supports `mask`, in `start` (reached by turning the device).
    static func scene(root mask: OrientationMask?, options: SceneOptions = SceneOptions()) throws(SceneError) -> Scene {
        try Scene(root: SceneController(id: "A", supportedOrientations: mask?.rawValue), options: options)
    }

    @Test("every device orientation × every root mask: rotate iff mapped and allowed; never a silent choice")
    func everyDeviceAndMask() throws {
        for mask in Self.masks {
            for device in DeviceOrientation.allCases {
                guard !mask.intersection(.allButUpsideDown).isEmpty else {
                    #expect(throws: SceneError.self) { try Self.scene(root: mask) }
                    continue
                }
                var scene = try Self.scene(root: mask)
                let start = scene.interfaceOrientation
                #expect(
                    start
                        == (mask.contains(.portrait)
                            ? .portrait : mask.intersection(.allButUpsideDown).orientations.first))
                let allowed = mask.intersection(.allButUpsideDown)
                #expect(scene.allowedOrientations == allowed)
                let plan = try scene.deviceDidChange(to: device)
                let expected = device.interfaceOrientation.flatMap { allowed.contains($0) ? $0 : nil } ?? start
                #expect(scene.interfaceOrientation == expected, "\(mask) \(device)")
                #expect(scene.deviceOrientation == device)
                #expect((plan == nil) == (expected == start))
                #expect(scene.windowBounds.size == SceneDevice.phone.size(in: expected))
            }
        }
    }

    static let maskGen = Gen.int(in: 0...15).map { OrientationMask(rawValue: $0 << 1) }
    static let deviceGen = Gen.int(in: 0...6).map { DeviceOrientation(uikitValue: $0)! }

    @Test("hardware ∩ window (replacing the app's) ∩ controller, property-tested over turns of the device")
    func intersectionProperty() async {
        await propertyCheck(
            count: 300, input: Self.maskGen, Self.maskGen, Self.maskGen, Gen.bool(), Self.deviceGen.array(of: 1...8)
        ) { app, window, controller, autorotates, turns in
            // iOS 15: shouldAutorotate is still consulted (SceneOrientationVersionTests).
            let options = SceneOptions(ios: .ios15, appOrientations: app, windowOrientations: window)
            let root = SceneController(
                id: "A", supportedOrientations: controller.rawValue, shouldAutorotate: autorotates)
            // A phone cannot show upside down; a given window mask replaces Info.plist's.
            let allowed = OrientationMask.allButUpsideDown.intersection(window).intersection(controller)
            guard var scene = try? Scene(root: root, options: options) else {
                #expect(allowed.isEmpty && autorotates)
                return
            }
            if allowed.isEmpty {  // UIKit asks only a root that autorotates: it launches in portrait
                #expect(!autorotates && scene.interfaceOrientation == .portrait)
                return
            }
            #expect(!allowed.isEmpty && scene.allowedOrientations == allowed)
            let resolution = scene.orientationResolution
            #expect(resolution.decider == "A" && resolution.app == app && resolution.window == window)
            for o in InterfaceOrientation.allCases {
                #expect(resolution.excluding(o).isEmpty == allowed.contains(o))
            }
            var model = allowed.contains(.portrait) ? InterfaceOrientation.portrait : allowed.orientations[0]
            #expect(scene.interfaceOrientation == model)
            for device in turns {
                let plan = try! scene.deviceDidChange(to: device)
                if autorotates, let upright = device.interfaceOrientation, allowed.contains(upright) {
                    #expect(plan == nil || plan?.from == model)
                    model = upright
                }
                #expect(scene.interfaceOrientation == model)
                #expect(plan?.to ?? model == model)
                #expect(allowed.contains(scene.interfaceOrientation))
            }
        }
    }
}
