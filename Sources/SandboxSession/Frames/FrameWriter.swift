/// Copies full frames and deltas together from `FrameSnapshot` parts (docs/PROTOCOL.md,
/// "Delta frames"): no number is formatted here, only bytes compared and copied. Each writes
/// into a buffer it is given, from its start (its storage kept: `FrameRecyclingTests`); the
/// message returned shares it.
enum FrameWriter {
    static func full(_ frame: FrameSnapshot, into buffer: ByteBuffer, headroom: Int) -> EncodedMessage {
        let out = Output(into: buffer, headroom: headroom, capacity: frame.byteCount + 64)
        out.start(frame, base: nil)
        for index in frame.layers.indices {
            out.comma(index)
            out.wholeLayer(index, of: frame)
        }
        out.append("]")
        if let scene = frame.scene { out.wholeScene(scene, of: frame) }
        out.end(frame)
        return out.finish()
    }

    /// Where a full frame's header starts: after `{"type":"frame","n":N,`.
    /// Counted, not formatted: every frame computes it (`FrameEncoding.init`), so no `String`.
    static func headerOffset(number: Int) -> Int {
        var digits = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return #"{"type":"frame","n":"#.utf8.count + digits + 1
    }

    /// Protocol 1's frame, from the full frame: `t` (the bytes of `sent`'s value, `sent` in
    /// `full`'s payload) right after `n`, as protocol 1 wrote it; the rest as in `full`.
    static func timed(
        _ full: EncodedMessage, number: Int, sent: Range<Int>, into buffer: ByteBuffer
    ) -> EncodedMessage {
        let out = Output(into: buffer, headroom: full.headroom, capacity: full.payloadCount + sent.count + 8)
        out.append(#"{"type":"frame","n":"#)
        out.integer(number)
        out.append(#","t":"#)
        out.append(full.payload(sent))
        let afterNumber = headerOffset(number: number) - 1  // the comma after `n`'s value
        out.append(full.payload(afterNumber..<full.payloadCount))
        return out.finish()
    }

    static func delta(
        _ frame: FrameSnapshot, base: FrameSnapshot, into buffer: ByteBuffer, headroom: Int
    ) -> EncodedMessage {
        let out = Output(into: buffer, headroom: headroom, capacity: frame.byteCount / 2 + 128)
        out.start(frame, base: base.number)
        for index in frame.layers.indices {
            out.comma(index)
            if let match = base.layer(matching: index, of: frame) {
                out.changedLayer(index, of: frame, base: match, of: base)
            } else {
                out.wholeLayer(index, of: frame)  // new since the base
            }
        }
        out.append("]")
        switch (frame.scene, base.scene) {
        case (nil, nil):
            break
        case (nil, _?):
            out.append(#","scene":null"#)
        case (let scene?, nil):
            out.wholeScene(scene, of: frame)  // new since the base
        case let (scene?, baseScene?):
            out.sceneDelta(scene, of: frame, base: baseScene, of: base)
        }
        out.end(frame, base: base)
        return out.finish()
    }

    private struct Output {
        private let bytes: ByteBuffer
        private let headroom: Int

        /// Starts `buffer` over: what it held is dropped, its storage kept.
        init(into buffer: ByteBuffer, headroom: Int, capacity: Int) {
            self.headroom = headroom
            bytes = buffer
            bytes.count = 0
            bytes.reserve(headroom + capacity)
            bytes.reserveHeadroom(headroom)
        }

        func finish() -> EncodedMessage { EncodedMessage(bytes: bytes, headroom: headroom) }

        @inline(__always)
        func append(_ literal: StaticString) { bytes.append(literal) }
        @inline(__always)
        func append(_ part: UnsafeRawBufferPointer) { bytes.append(contentsOf: part) }
        @inline(__always)
        func integer(_ value: Int) { bytes.appendInteger(Int64(value)) }
        @inline(__always)
        func comma(_ index: Int) { if index > 0 { bytes.append(UInt8(ascii: ",")) } }

        /// `{"type":"frame","n":N[,"base":B],<header>,"layers":[`
        func start(_ frame: FrameSnapshot, base: Int?) {
            append(#"{"type":"frame","n":"#)
            integer(frame.number)
            if let base {
                append(#","base":"#)
                integer(base)
            }
            append(",")
            append(frame.part(frame.header))
            append(#","layers":["#)
        }

        /// `[,"animator":{…}]}`; in a delta (`base`) only what changed of the animator.
        func end(_ frame: FrameSnapshot, base: FrameSnapshot? = nil) {
            switch (frame.animator, base?.animator) {
            case let (animator?, baseAnimator?) where base != nil:
                let opened = changes(animator, of: frame, from: baseAnimator, of: base!, opening: .animator)
                if opened { append("}") }
            case (let animator?, _):
                append(#","animator":"#)
                wholeSceneLayer(animator, of: frame)
            case (nil, _?) where base != nil:
                append(#","animator":null"#)
            case (nil, _):
                break
            }
            append("}")
        }

        @inline(__always)
        func wholeLayer(_ index: Int, of frame: FrameSnapshot) {
            let layer = frame.layers[index]
            append(#"{"id":"#)
            append(frame.part(layer.id))
            for property in frame.properties[layer.properties] { self.property(property, of: frame) }
            append("}")
        }

        @inline(__always)
        private func property(_ property: FrameSnapshot.Property, of frame: FrameSnapshot) {
            append(",")
            bare(property, of: frame)
        }

        /// `"key":value`
        @inline(__always)
        private func bare(_ property: FrameSnapshot.Property, of frame: FrameSnapshot) {
            append(property.key.prefix)
            append(frame.part(property.value))
        }

        /// The layer's id alone when nothing changed, else `{"id":…` and what differs from the
        /// base's layer of that id.
        @inline(__always)
        func changedLayer(_ index: Int, of frame: FrameSnapshot, base baseIndex: Int, of base: FrameSnapshot) {
            let layer = frame.layers[index]
            let opened = changes(layer, of: frame, from: base.layers[baseIndex], of: base, opening: .layer(layer.id))
            if opened { append("}") } else { append(frame.part(layer.id)) }
        }

        /// What a changed object starts with, before its first change: a value, not a closure
        /// (a closure's captures were retained and released on each call, three a frame).
        private enum Opening {
            /// `,"animator":{`, no comma before the first change.
            case animator
            /// `{"id":"from"` (the id's bytes in the frame).
            case layer(Range<Int>)
            /// `{"base":i`
            case sceneLayer(Int)
        }

        /// Writes `,"key":value` for each property of `layer` that differs from `baseLayer`'s
        /// (`null` for what it no longer has), writing `opening` before the first; true if any.
        /// Both property lists are in `Key` order, so one walk merges them, through pointers
        /// (`PartList`).
        private func changes(
            _ layer: FrameSnapshot.Layer, of frame: FrameSnapshot, from baseLayer: FrameSnapshot.Layer,
            of base: FrameSnapshot, opening: Opening
        ) -> Bool {
            changes(
                frame.properties[layer.properties], of: frame, from: base.properties[baseLayer.properties], of: base,
                opening: opening)
        }

        private func changes(
            _ mine: UnsafeBufferPointer<FrameSnapshot.Property>, of frame: FrameSnapshot,
            from theirs: UnsafeBufferPointer<FrameSnapshot.Property>, of base: FrameSnapshot, opening start: Opening
        ) -> Bool {
            var i = 0, j = 0
            var opened = false
            var first: Bool
            if case .animator = start { first = true } else { first = false }
            func opening() {
                if !opened {
                    switch start {
                    case .animator: append(#","animator":{"#)
                    case .layer(let id): append(#"{"id":"#); append(frame.part(id))
                    case .sceneLayer(let index): append(#"{"base":"#); integer(index)
                    }
                    opened = true
                }
                if first { first = false } else { append(",") }
            }
            while i < mine.count || j < theirs.count {
                if i < mine.count, j < theirs.count, mine[i].key == theirs[j].key {
                    if !frame.same(mine[i].value, as: theirs[j].value, of: base) { opening(); bare(mine[i], of: frame) }
                    i += 1
                    j += 1
                } else if i < mine.count, j == theirs.count || mine[i].key.rawValue < theirs[j].key.rawValue {
                    opening(); bare(mine[i], of: frame)  // new
                    i += 1
                } else {
                    opening()  // gone
                    append(theirs[j].key.prefix)
                    append("null")
                    j += 1
                }
            }
            return opened
        }

        /// `,"scene":{"layers":[…],"root":…,"transition":…}`
        func wholeScene(_ scene: FrameSnapshot.Scene, of frame: FrameSnapshot) {
            append(#","scene":{"layers":["#)
            for (index, layer) in scene.layers.enumerated() {
                comma(index)
                wholeSceneLayer(layer, of: frame)
            }
            append("],")
            append(frame.part(scene.root))
            append(",")
            append(frame.part(scene.transition))
            append("}")
        }

        /// `{"controller":…,"role":…,…}` (and an animator's fields)
        func wholeSceneLayer(_ layer: FrameSnapshot.Layer, of frame: FrameSnapshot) {
            append("{")
            for (index, property) in frame.properties[layer.properties].enumerated() {
                comma(index)
                append(property.key.prefix)
                append(frame.part(property.value))
            }
            append("}")
        }

        /// Nothing when the scene is the base's; else what changed: `layers` (each the base's
        /// index when unchanged, `{"base":i,…}` with what changed of the same view, or whole),
        /// `root`, `transition`.
        func sceneDelta(
            _ scene: FrameSnapshot.Scene, of frame: FrameSnapshot, base baseScene: FrameSnapshot.Scene,
            of base: FrameSnapshot
        ) {
            let layersSame =
                scene.layers.count == baseScene.layers.count
                && zip(scene.layers, baseScene.layers).allSatisfy { frame.sameProperties($0, as: $1, of: base) }
            let rootSame = frame.same(scene.root, as: baseScene.root, of: base)
            let transitionSame = frame.same(scene.transition, as: baseScene.transition, of: base)
            guard !(layersSame && rootSame && transitionSame) else { return }
            append(#","scene":{"#)
            var fields = 0
            if !layersSame {
                append(#""layers":["#)
                for (index, layer) in scene.layers.enumerated() {
                    comma(index)
                    if let match = frame.sceneLayer(index, in: base) {
                        let opened = changes(
                            layer, of: frame, from: baseScene.layers[match], of: base, opening: .sceneLayer(match))
                        if opened { append("}") } else { integer(match) }
                    } else {
                        wholeSceneLayer(layer, of: frame)
                    }
                }
                append("]")
                fields += 1
            }
            if !rootSame {
                comma(fields)
                append(frame.part(scene.root))
                fields += 1
            }
            if !transitionSame {
                comma(fields)
                append(frame.part(scene.transition))
            }
            append("}")
        }
    }
}
