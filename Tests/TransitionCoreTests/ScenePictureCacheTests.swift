import Testing

@testable import TransitionCore

/// The scene's cached pictures (`Scene.picture`, composed when the scene changes) and the still
/// views of a picture that does not change (worked out once) equal what composing anew gives,
/// over random scenes and operations.
@Suite("Scene picture cache") struct ScenePictureCacheTests {
    static let styles: [PresentationStyle] = [
        .fullScreen, .pageSheet, .formSheet, .currentContext, .overFullScreen, .overCurrentContext,
    ]
    static let orientations: [DeviceOrientation] = [.portrait, .landscapeLeft, .landscapeRight, .portraitUpsideDown]

    struct Random {
        var generator: SplitMix64
        mutating func below(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
        mutating func chance() -> Bool { below(2) == 0 }
        mutating func unit() -> Double { Double(below(1001)) / 1000 }
    }

    /// One random operation (refused ones change nothing and are skipped).
    static func step(_ scene: inout Scene, _ random: inout Random, next id: inout Int) {
        id += 1
        let controller = SceneController(
            id: "c\(id)", presentationStyle: styles[random.below(styles.count)],
            definesPresentationContext: random.chance())
        switch random.below(7) {
        case 0: _ = try? scene.present(.controller(controller), animated: random.chance())
        case 1: _ = try? scene.push(controller, animated: random.chance())
        case 2: _ = try? scene.pop(animated: random.chance())
        case 3: _ = try? scene.dismiss(animated: random.chance())
        case 4: _ = try? scene.deviceDidChange(to: orientations[random.below(orientations.count)])
        default: _ = scene.end(completed: random.chance())
        }
    }

    static func check(_ scene: Scene, _ random: inout Random) {
        let covered = Scene.coveredSide(
            scene.hierarchy, scene.pending, before: scene.visibleLayers, after: scene.pendingLayers)
        let composed = ScenePicture(before: scene.visibleLayers, after: scene.pendingLayers, covered: covered)
        #expect(scene.picture == composed)
        let controllers = scene.visibleLayers.map(\.controller)
        for _ in 0..<3 {
            let moving = random.chance() || controllers.isEmpty ? nil : controllers[random.below(controllers.count)]
            let progress = random.unit()
            let anew = ScenePicture.still(before: composed.before, after: composed.after, progress: progress)
                .filter { $0.role == .dimming || ($0.controller != moving && $0.group != moving) }
            #expect(scene.picture.stillLayers(moving: moving, progress: progress) == anew)
            let drawn = anew.filter { $0.role == .dimming || !(covered?.views.contains($0.controller) ?? false) }
            #expect(scene.picture.sceneLayers(moving: moving, progress: progress) == drawn)
        }
    }

    @Test(arguments: 0..<40) func cachedPicturesEqualComposingAnew(seed: Int) throws {
        var random = Random(generator: SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 1))
        let root =
            random.chance()
            ? SceneController(
                id: "root", kind: .navigation(stack: [SceneController(id: "first")]))
            : SceneController(id: "root")
        var scene = try Scene(device: random.chance() ? .phone : .tablet, root: root)
        var id = 0
        Self.check(scene, &random)
        for _ in 0..<40 {
            Self.step(&scene, &random, next: &id)
            Self.check(scene, &random)
        }
    }
}
