/// What stands still while a transition plays: the scene's views other than the one the
/// animator moves, between the picture before and the picture a finish rests on.
extension Scene {
    /// `picture.stillLayers(moving:progress:)`.
    public func stillLayers(moving: String?, progress: Double) -> [SceneLayer] {
        picture.stillLayers(moving: moving, progress: progress)
    }
}

/// The views on screen before a transition and after its finish (the same when nothing is in
/// flight), and what a frame draws from them.
public struct ScenePicture: Equatable, Sendable {
    public let before: [SceneLayer]
    public let after: [SceneLayer]
    /// The covered side of the transition in flight when its view leaves or arrives (drawn by
    /// its own animation, not still: `CoveredSide`); nil otherwise.
    public let covered: CoveredSide?
    /// The still views of a picture that does not change (nothing in flight, or a transition
    /// whose finish rests on the same views), with nothing moving: the same at every progress,
    /// so worked out once, not per frame (`ScenePictureCacheTests`). Nil when the pictures differ,
    /// or when two views share an identity (then a blend is not the identity).
    private let resting: [SceneLayer]?

    init(before: [SceneLayer], after: [SceneLayer]?, covered: CoveredSide? = nil) {
        self.before = before
        self.after = after ?? before
        self.covered = covered
        let unique = Set(before.map(ViewKey.init)).count == before.count
        resting = unique && self.after == before ? Self.still(before: before, after: before, progress: 0) : nil
    }

    /// The views that do not move during the transition, bottom to top, at `progress` (0 = the
    /// picture before, 1 = the picture a finish commits), without `moving`'s views (a
    /// controller's own views and those of its group: a presented navigation controller moves
    /// with its bar and child; a sheet's dimming view stays, fading).
    ///
    /// Views in both pictures are interpolated (a presenter pushed back under a phone sheet
    /// comes forward as the sheet is dragged away); views only before stay until the commit,
    /// views only after are there from the start, beneath — except dimming, which fades.
    /// The animator draws `moving` itself (docs/PROTOCOL.md, frames of a scene session).
    /// Linear in the number of views.
    public func stillLayers(moving: String?, progress: Double) -> [SceneLayer] {
        let layers = resting ?? Self.still(before: before, after: after, progress: progress)
        guard let moving else { return layers }
        return layers.filter { $0.role == .dimming || ($0.controller != moving && $0.group != moving) }
    }

    /// What a scene frame draws as still at `progress`: `stillLayers(moving:progress:)` without
    /// the covered side's views while they animate (`covered`: the frame draws them as the
    /// animator's covered layer, `CoveredSide.layer(_:)`). A dimming view stays.
    /// One pass over the views, as `stillLayers`.
    public func sceneLayers(moving: String?, progress: Double) -> [SceneLayer] {
        guard let covered else { return stillLayers(moving: moving, progress: progress) }
        let layers = resting ?? Self.still(before: before, after: after, progress: progress)
        return layers.filter {
            $0.role == .dimming
                || ($0.controller != moving && $0.group != moving && !covered.views.contains($0.controller))
        }
    }

    /// Every still view at `progress`, the moving one included (`stillLayers` leaves it out).
    static func still(before: [SceneLayer], after: [SceneLayer], progress: Double) -> [SceneLayer] {
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        let afterByView = Dictionary(after.map { (ViewKey($0), $0) }, uniquingKeysWith: { first, _ in first })
        let beforeViews = Set(before.map(ViewKey.init))
        var layers: [SceneLayer] = []
        layers.reserveCapacity(before.count + after.count)
        for layer in before {
            if let next = afterByView[ViewKey(layer)] {
                layers.append(layer.blended(with: next, progress: p))
            } else {
                var leaving = layer
                if layer.role == .dimming { leaving.opacity *= 1 - p }
                layers.append(leaving)
            }
        }
        // Revealed from beneath, at the bottom of its own group (a child a pop uncovers, under
        // its navigation bar), or of everything (a full-screen presenter coming back).
        var revealed: [String: [SceneLayer]] = [:]
        var revealedOrder: [String] = []
        for layer in after where !beforeViews.contains(ViewKey(layer)) {
            if layer.role == .dimming {
                var arriving = layer
                arriving.opacity *= p
                layers.append(arriving)
            } else {
                if revealed[layer.group] == nil { revealedOrder.append(layer.group) }
                revealed[layer.group, default: []].append(layer)
            }
        }
        for group in revealedOrder.reversed() {
            let index = layers.firstIndex { $0.group == group } ?? 0
            layers.insert(contentsOf: revealed[group]!, at: index)
        }
        return layers
    }

    /// The corner radius of `controller`'s view at rest, in the picture after or else before
    /// (a sheet's card: 10): the animators know only their own radius.
    public func cornerRadius(of controller: String) -> Double {
        let layer =
            after.first { $0.controller == controller && $0.role != .dimming }
            ?? before.first { $0.controller == controller && $0.role != .dimming }
        return layer?.cornerRadius ?? 0
    }
}

/// A view's identity across two pictures: the same controller in the same role (and, for a
/// named view, the same view).
private struct ViewKey: Hashable {
    let controller: String
    let role: SceneLayer.Role
    let view: String?

    init(_ layer: SceneLayer) {
        controller = layer.controller
        role = layer.role
        view = layer.view
    }
}

extension SceneLayer {
    func blended(with next: SceneLayer, progress p: Double) -> SceneLayer {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * p }
        var layer = p >= 1 ? next : self
        layer.frame = Rect(
            x: mix(frame.minX, next.frame.minX), y: mix(frame.minY, next.frame.minY),
            width: mix(frame.width, next.frame.width), height: mix(frame.height, next.frame.height))
        layer.cornerRadius = mix(cornerRadius, next.cornerRadius)
        layer.scale = mix(scale, next.scale)
        layer.opacity = mix(opacity, next.opacity)
        return layer
    }
}
