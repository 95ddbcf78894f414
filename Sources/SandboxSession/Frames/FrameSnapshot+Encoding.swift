import TransitionCore

/// Encoding a session's state into its parts.
extension FrameSnapshot {
    /// Encodes the session's current state, stamped `now` (server ms), over what this held:
    /// the buffer and part lists keep their storage (`FrameRecyclingTests`).
    /// Borrowed: passed by value, the session was copied whole for every frame (a profile).
    func encode(_ session: borrowing SessionCore, now: Double) {
        // The kept list, swapped out and consumed (a copy would be a second reference, and the
        // engine would empty it into new storage): uniquely held, it keeps its storage. Back below.
        var kept: [LayerState] = []
        swap(&kept, &engineLayers)
        var frame = session.engine.frame(reusing: consume kept)
        var builder = Builder(reusing: self)
        (header, sent) = builder.header(session, frame, now: now)
        var scene: Scene?
        if let box = session.sceneBox {
            // A scene's pictures are composed once per frame.
            let sceneSession = box.session
            let picture = sceneSession.scene.picture
            builder.sceneAnimatorLayers(frame, sceneSession, picture)
            scene = builder.scene(sceneSession, picture, progress: frame.progress, animator: frame.layers)
        } else {
            for layer in frame.layers { builder.layer(layer) }
        }
        animator = session.engine.animatorState.map { builder.animator($0) }
        hasUniqueIDs = builder.uniqueIDs
        self.scene = scene
        number = session.frameNumber
        start = UnsafeRawPointer(buffer.base)
        swap(&engineLayers, &frame.layers)
    }

    /// Writes each part on its own (no commas between parts) and records where it lies, into
    /// a snapshot's storage.
    private struct Builder: ~Copyable {
        var w: JSONWriter
        let layers: PartList<Layer>
        let properties: PartList<Property>
        private(set) var uniqueIDs = true

        /// Starts the snapshot's buffer and lists over (their storage kept).
        init(reusing snapshot: FrameSnapshot) {
            w = JSONWriter(reusing: snapshot.buffer, headroom: 0)
            layers = snapshot.layers
            properties = snapshot.properties
            layers.removeAll()
            properties.removeAll()
        }

        /// The header's range, and that of `sent`'s value within it (protocol 1 repeats it as `t`).
        mutating func header(
            _ session: borrowing SessionCore, _ frame: Frame, now: Double
        ) -> (header: Range<Int>, sent: Range<Int>) {
            let start = w.beginPart()
            w.key("phase"); w.name(session.framePhase, in: QuotedNames.phases)
            w.key("progress"); w.fixed(session.frameProgress, FramePrecision.progress)
            w.key("ack")
            if let ack = session.ack { w.integer(ack) } else { w.null() }
            w.key("received")
            if let received = session.ackReceived { w.fixed(received, FramePrecision.milliseconds) } else { w.null() }
            // Only when the driver's simulated link held the acknowledged input.
            if let arrived = session.ackArrived { w.key("arrived"); w.fixed(arrived, FramePrecision.milliseconds) }
            w.key("sent")
            let sent = w.position
            w.fixed(now, FramePrecision.milliseconds)
            let sentEnd = w.position
            w.key("velocity"); w.fixedPair(frame.velocity.x, frame.velocity.y, FramePrecision.points)
            return (start..<w.position, sent..<sentEnd)
        }

        /// The animator's layers in a scene: the moving side (`to` presenting, `from`
        /// dismissing) as its controller, and the layers that belong to the effect (masks,
        /// logo, thumbnail, curl); the covered side as its controller while its view leaves or
        /// arrives (`ScenePicture.covered`, with the push's shade), else in `scene.layers`.
        mutating func sceneAnimatorLayers(_ frame: Frame, _ scene: SceneSession, _ picture: ScenePicture) {
            // A sheet between its detents is drawn whole by its drag (SceneSession.stillLayers).
            guard let plan = scene.plan, scene.sheetDrag == nil else { return }
            let still: LayerID = plan.operation == .present ? .from : .to
            let moving = plan.operation == .present ? plan.to : plan.from
            let radius = picture.cornerRadius(of: moving)
            for layer in frame.layers {
                if layer.id == still {
                    // The covered view leaving or arriving: its own animation, in the scene's frame.
                    guard let covered = picture.covered else { continue }
                    let drawn = covered.layer(layer)
                    self.layer(drawn, controller: covered.controller)
                    if let shade = covered.shade(over: drawn, progress: frame.progress) { self.layer(shade) }
                    continue
                }
                let controller = layer.id == .from ? plan.from : layer.id == .to ? plan.to : nil
                var layer = layer
                // A sheet keeps its card's rounded corners while it moves (the animators' own are 0).
                if controller == moving { layer.cornerRadius = max(layer.cornerRadius, radius) }
                self.layer(layer, controller: controller)
            }
        }

        private mutating func begin() -> Int { w.beginPart() }

        private mutating func end(_ key: Key, from start: Int) {
            properties.append(Property(key: key, value: start..<w.position))
        }

        mutating func layer(_ layer: LayerState, controller: String? = nil) {
            var start = begin()
            w.name(layer.id, in: QuotedNames.layerIDs)
            let id = start..<w.position
            // Compared as written (a handful of layers; no array of ids made per frame).
            let written = w.written(id)
            if layers.all.contains(where: { w.written($0.id).elementsEqual(written) }) { uniqueIDs = false }
            let first = properties.count
            if let controller { start = begin(); w.string(controller); end(.controller, from: start) }
            start = begin(); w.name(layer.content, in: QuotedNames.contents); end(.content, from: start)
            start = begin(); w.name(layer.shape, in: QuotedNames.shapes); end(.shape, from: start)
            start = begin(); w.fixedPair(layer.center.x, layer.center.y, FramePrecision.points);
            end(.center, from: start)
            start = begin(); w.fixedPair(layer.bounds.width, layer.bounds.height, FramePrecision.points);
            end(.bounds, from: start)
            start = begin(); transform(layer.transform); end(.transform, from: start)
            start = begin(); w.fixed(layer.cornerRadius, FramePrecision.points); end(.cornerRadius, from: start)
            start = begin(); w.fixed(layer.opacity, FramePrecision.opacity); end(.opacity, from: start)
            start = begin(); w.integer(layer.z); end(.z, from: start)
            if let mask = layer.mask {
                start = begin(); w.name(mask, in: QuotedNames.layerIDs); end(.mask, from: start)
            }
            if let transform3D = layer.transform3D {
                start = begin()
                w.beginArray()
                for (index, component) in transform3D.components.enumerated() {
                    // m14, m24, m34 (the perspective column) need more places than the rest.
                    w.fixed(component, index % 4 == 3 ? FramePrecision.perspective : FramePrecision.multiplier)
                }
                w.endArray()
                end(.transform3d, from: start)
                if let corners = layer.projectedCorners() {
                    start = begin()
                    w.beginArray()
                    for corner in corners { w.fixedPair(corner.x, corner.y, FramePrecision.points) }
                    w.endArray()
                    end(.corners, from: start)
                }
            }
            layers.append(Layer(id: id, properties: first..<properties.count))
        }

        private mutating func transform(_ t: TransitionCore.AffineTransform) {
            // Most layers most frames: the identity, as its numbers format (`-0` as `0` too).
            if t.a == 1, t.b == 0, t.c == 0, t.d == 1, t.tx == 0, t.ty == 0 {
                w.appendRaw("[1,0,0,1,0,0]")
                return
            }
            w.beginArray()
            w.fixed(t.a, FramePrecision.multiplier); w.fixed(t.b, FramePrecision.multiplier)
            w.fixed(t.c, FramePrecision.multiplier); w.fixed(t.d, FramePrecision.multiplier)
            w.fixed(t.tx, FramePrecision.points); w.fixed(t.ty, FramePrecision.points)
            w.endArray()
        }

        mutating func scene(
            _ scene: SceneSession, _ picture: ScenePicture, progress: Double, animator: [LayerState]
        ) -> Scene {
            // While a transition runs, the still views move at the animation's pace (its curve).
            let eased = scene.flight.map { $0.plan.kind.animated(progress) } ?? 0
            var layers: [Layer] = []
            for layer in scene.drawnLayers(picture, progress: eased, animator: animator) {
                layers.append(sceneLayer(layer))
            }
            var start = begin()
            // The window's root view relative to the device (a quarter turn in landscape), and
            // its bounds: the page draws `layers` and the animator's layers inside it.
            let turning = scene.turning(progress: progress)
            let t = turning.map { $0.plan.transform(at: $0.fraction) } ?? scene.scene.interfaceOrientation.rootTransform
            w.key("root")
            w.beginObject()
            w.key("transform"); transform(t)
            let bounds = scene.scene.windowBounds
            w.key("bounds"); w.fixedPair(bounds.width, bounds.height, FramePrecision.points)
            w.key("interface"); w.string(scene.scene.interfaceOrientation.rawValue)
            w.key("rotating")
            if let turning {
                w.beginObject()
                w.key("from"); w.string(turning.plan.from.rawValue)
                w.key("to"); w.string(turning.plan.to.rawValue)
                w.key("fraction"); w.fixed(turning.fraction, FramePrecision.progress)
                w.endObject()
            } else {
                w.null()
            }
            w.endObject()
            let root = start..<w.position
            start = begin()
            w.key("transition")
            if let plan = scene.plan {
                w.beginObject()
                w.key("action"); w.string(plan.action.rawValue)
                w.key("from"); w.string(plan.from)
                w.key("to"); w.string(plan.to)
                w.key("container"); rect(plan.container)
                w.endObject()
            } else {
                w.null()
            }
            return Scene(layers: layers, root: root, transition: start..<w.position)
        }

        private mutating func sceneLayer(_ layer: SceneLayer) -> Layer {
            let first = properties.count
            var start = begin(); w.string(layer.controller); end(.controller, from: start)
            let id = start..<w.position
            start = begin(); w.string(layer.role.rawValue); end(.role, from: start)
            start = begin(); rect(layer.frame); end(.frame, from: start)
            start = begin(); w.fixed(layer.cornerRadius, FramePrecision.points); end(.cornerRadius, from: start)
            start = begin(); w.fixed(layer.scale, FramePrecision.multiplier); end(.scale, from: start)
            start = begin(); w.fixed(layer.opacity, FramePrecision.opacity); end(.opacity, from: start)
            if let title = layer.title { start = begin(); w.string(title); end(.title, from: start) }
            start = begin(); w.string(layer.group); end(.group, from: start)
            if let view = layer.view { start = begin(); w.string(view); end(.view, from: start) }
            return Layer(id: id, properties: first..<properties.count)
        }

        private mutating func rect(_ rect: Rect) {
            w.beginArray()
            w.fixed(rect.minX, FramePrecision.points); w.fixed(rect.minY, FramePrecision.points)
            w.fixed(rect.width, FramePrecision.points); w.fixed(rect.height, FramePrecision.points)
            w.endArray()
        }

        mutating func animator(_ animator: PropertyAnimatorState) -> Layer {
            let first = properties.count
            var start = begin(); w.string(animator.state.rawValue); end(.state, from: start)
            start = begin(); w.bool(animator.isRunning); end(.running, from: start)
            start = begin(); w.bool(animator.isReversed); end(.reversed, from: start)
            // iOS 11+ semantics: 1 − the forward time while reversed.
            start = begin(); w.fixed(animator.reportedFractionComplete, FramePrecision.progress);
            end(.fractionComplete, from: start)
            return Layer(id: 0..<0, properties: first..<properties.count)
        }
    }
}
