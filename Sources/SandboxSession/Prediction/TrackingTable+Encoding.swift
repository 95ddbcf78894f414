import TransitionCore

/// The `prediction` message's `table` (docs/PROTOCOL.md "`prediction`"): the samples in order,
/// each `{"fraction", "progress", "layers"}`; the first sample's layers whole, as a full frame
/// writes them, every later sample's as a delta frame's against the sample before it (a string
/// id: unchanged; an object: the id and what changed, `null` removing a property; a layer the
/// previous sample lacked: whole), at the frames' precision (`FramePrecision`), without a 3-D
/// layer's `corners` (projected from its `transform3d`). So a client reads it with the frame
/// assembler it already has. Encoded once, when the table is built (`body`): a message that
/// carries the table copies those bytes.
extension TrackingTable {
    func write(to w: inout JSONWriter) {
        body.withUnsafeBytes { w.appendRaw($0) }
    }

    static func encodedBody(_ samples: [Sample], _ configuration: TransitionConfiguration) -> [UInt8] {
        var w = JSONWriter(headroom: 0, capacity: 16 * 1024)
        let start = w.beginPart()
        w.beginObject()
        w.key("tolerance"); w.number(Self.tolerance)
        w.key("pan"); writePan(configuration, to: &w)
        w.key("samples")
        w.beginArray()
        var previous: [String: [(String, [UInt8])]] = [:]
        for sample in samples {
            w.beginObject()
            w.key("fraction"); w.fixed(sample.fraction, FramePrecision.progress)
            w.key("progress"); w.fixed(sample.progress, FramePrecision.progress)
            w.key("layers")
            w.beginArray()
            var current: [String: [(String, [UInt8])]] = [:]
            for layer in sample.layers {
                let id = layer.id.rawValue
                let properties = Self.encodedProperties(layer)
                current[id] = properties
                guard let before = previous[id] else {
                    Self.writeLayer(id, properties, to: &w)
                    continue
                }
                let changed = properties.filter { property in
                    !before.contains { $0.0 == property.0 && $0.1 == property.1 }
                }
                let removed = before.filter { old in !properties.contains { $0.0 == old.0 } }
                if changed.isEmpty && removed.isEmpty {
                    w.string(id)
                    continue
                }
                w.beginObject()
                w.key("id"); w.string(id)
                for (name, value) in changed { w.dynamicKey(name); value.withUnsafeBytes { w.appendRaw($0) } }
                for (name, _) in removed { w.dynamicKey(name); w.null() }
                w.endObject()
            }
            w.endArray()
            w.endObject()
            previous = current
        }
        w.endArray()
        w.endObject()
        return Array(w.written(start..<w.position))
    }

    /// What maps the pointer to the tracked fraction (docs/ENGINE.md "Decisions where the
    /// reference is silent", the progress rule): the pan's axis, direction and slop, the
    /// distance, the clamp, the rubber band and its container, and whether the `no-abs` pitfall
    /// measures along the positive axis.
    private static func writePan(_ c: TransitionConfiguration, to w: inout JSONWriter) {
        w.beginObject()
        w.key("axis"); w.string(c.pan.axis.rawValue)
        w.key("direction"); w.string(c.pan.direction.rawValue)
        w.key("slop"); w.number(c.pan.slop)
        w.key("distance"); w.number(c.distance)
        w.key("clamp"); w.pair(c.clampLower, c.clampUpper)
        w.key("rubberBand")
        if let constant = c.rubberBand { w.number(constant) } else { w.null() }
        w.key("container"); w.pair(c.container.width, c.container.height)
        w.key("noAbs"); w.bool(c.pitfalls.contains(.noAbs))
        w.endObject()
    }

    private static func writeLayer(_ id: String, _ properties: [(String, [UInt8])], to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        for (name, value) in properties { w.dynamicKey(name); value.withUnsafeBytes { w.appendRaw($0) } }
        w.endObject()
    }

    /// A layer's properties as a frame writes them, in a frame's order
    /// (`FrameSnapshot.Builder.layer`), each value's bytes on its own.
    static func encodedProperties(_ layer: LayerState) -> [(String, [UInt8])] {
        var w = JSONWriter(headroom: 0, capacity: 512)
        var out: [(String, [UInt8])] = []
        out.reserveCapacity(11)
        part("content", &out, &w) { $0.string(layer.content.rawValue) }
        part("shape", &out, &w) { $0.string(layer.shape.rawValue) }
        part("center", &out, &w) { $0.fixedPair(layer.center.x, layer.center.y, FramePrecision.points) }
        part("bounds", &out, &w) { $0.fixedPair(layer.bounds.width, layer.bounds.height, FramePrecision.points) }
        part("transform", &out, &w) {
            let t = layer.transform
            $0.beginArray()
            for m in [t.a, t.b, t.c, t.d] { $0.fixed(m, FramePrecision.multiplier) }
            $0.fixed(t.tx, FramePrecision.points); $0.fixed(t.ty, FramePrecision.points)
            $0.endArray()
        }
        part("cornerRadius", &out, &w) { $0.fixed(layer.cornerRadius, FramePrecision.points) }
        part("opacity", &out, &w) { $0.fixed(layer.opacity, FramePrecision.opacity) }
        part("z", &out, &w) { $0.integer(layer.z) }
        if let mask = layer.mask { part("mask", &out, &w) { $0.string(mask.rawValue) } }
        if let transform3D = layer.transform3D {
            part("transform3d", &out, &w) {
                $0.beginArray()
                for (index, m) in transform3D.components.enumerated() {
                    $0.fixed(m, index % 4 == 3 ? FramePrecision.perspective : FramePrecision.multiplier)
                }
                $0.endArray()
            }
            // No `corners`: a client projects them from the interpolated transform3d
            // (what the renderer draws through): 8 numbers fewer per 3-D layer and sample.
        }
        return out
    }

    private static func part(
        _ name: String, _ out: inout [(String, [UInt8])], _ w: inout JSONWriter, _ body: (inout JSONWriter) -> Void
    ) {
        let start = w.beginPart()
        body(&w)
        out.append((name, Array(w.written(start..<w.position))))
    }
}
