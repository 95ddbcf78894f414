/// What stands still while a transition plays: the scene's views other than the one the
/// animator moves, between the picture before and the picture a finish rests on.
extension Scene {
    /// The views that do not move during the transition in flight, bottom to top, at `progress`
    /// (0 = the picture before, 1 = the picture a finish commits), without `moving`'s views
    /// (a controller's own views and those of its group: a presented navigation controller
    /// moves with its bar and child; a sheet's dimming view stays, fading). With nothing in
    /// flight: `visibleLayers` without `moving`.
    ///
    /// Views in both pictures are interpolated (a presenter pushed back under a phone sheet
    /// comes forward as the sheet is dragged away); views only before stay until the commit,
    /// and views only after are there from the start, beneath — except dimming, which fades.
    /// The animator draws `moving` itself (docs/PROTOCOL.md, frames of a scene session).
    public func stillLayers(moving: String?, progress: Double) -> [SceneLayer] {
        let before = visibleLayers
        let after = pendingLayers ?? before
        let p = progress.isFinite ? min(max(progress, 0), 1) : 0
        var layers: [SceneLayer] = []
        for layer in after where !before.contains(where: { $0.sameView(as: layer) }) && layer.role != .dimming {
            layers.append(layer)  // revealed from beneath (a full-screen presenter coming back)
        }
        for layer in before {
            if let next = after.first(where: { $0.sameView(as: layer) }) {
                layers.append(layer.blended(with: next, progress: p))
            } else {
                var leaving = layer
                if layer.role == .dimming { leaving.opacity *= 1 - p }
                layers.append(leaving)
            }
        }
        for layer in after where layer.role == .dimming && !before.contains(where: { $0.sameView(as: layer) }) {
            var arriving = layer
            arriving.opacity *= p
            layers.append(arriving)
        }
        guard let moving else { return layers }
        // A sheet's dimming view names the sheet but stays put: it fades (above) instead.
        return layers.filter { $0.role == .dimming || ($0.controller != moving && $0.group != moving) }
    }
}

extension SceneLayer {
    /// The same view in two pictures: the same controller in the same role.
    func sameView(as other: SceneLayer) -> Bool { controller == other.controller && role == other.role }

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
