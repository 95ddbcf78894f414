import Glibc  // memcmp
import TransitionCore

/// One state of a session, encoded once in parts: the frame's own fields, each layer's id and
/// each of its properties, each scene layer, as byte ranges of one buffer. Full frames and
/// deltas (`FrameEncoding`) are copied together from these parts, and a delta finds what
/// changed by comparing bytes — what the wire would show, at the precision it is sent
/// (`FramePrecision`) — never by comparing Doubles.
///
/// Reusable: `encode(_:now:)` writes a later state into the same buffer and part lists, which
/// keep their storage, so a session's frames allocate nothing once warm. Only its owner
/// (`FrameEncoding`, when nothing else holds this snapshot) re-encodes it
/// (`FrameRecyclingTests`).
final class FrameSnapshot {
    /// The properties of a layer (after its `id`) and of a scene layer, in the order full frames
    /// write them: one order for both kinds, so that a delta merges two property lists in one walk.
    enum Key: UInt8, CaseIterable {
        case controller, role, content, shape, frame, center, bounds, transform, cornerRadius, scale, opacity, title,
            group
        case z, mask, transform3d, corners
        /// An animator's (`animator`).
        case state, running, reversed, fractionComplete
        /// A scene layer's named view (role `view`).
        case view

        /// `"name":`, ready to copy.
        var prefix: StaticString {
            switch self {
            case .controller: #""controller":"#
            case .role: #""role":"#
            case .content: #""content":"#
            case .shape: #""shape":"#
            case .frame: #""frame":"#
            case .center: #""center":"#
            case .bounds: #""bounds":"#
            case .transform: #""transform":"#
            case .cornerRadius: #""cornerRadius":"#
            case .scale: #""scale":"#
            case .opacity: #""opacity":"#
            case .title: #""title":"#
            case .group: #""group":"#
            case .z: #""z":"#
            case .mask: #""mask":"#
            case .transform3d: #""transform3d":"#
            case .corners: #""corners":"#
            case .state: #""state":"#
            case .running: #""running":"#
            case .reversed: #""reversed":"#
            case .fractionComplete: #""fractionComplete":"#
            case .view: #""view":"#
            }
        }
    }

    /// Ranges are kept as 32-bit offsets: the part lists are written each frame and a delta
    /// reads the previous frame's, out of the caches at 1,000 sessions; at 12 bytes a property
    /// instead of 24 (and 16 a layer instead of 32) they take half the cache lines. A snapshot
    /// is far below 4 GiB (client messages are at most 64 KiB).
    struct Property {
        let key: Key
        private let start: UInt32, end: UInt32
        var value: Range<Int> { Int(start)..<Int(end) }

        init(key: Key, value: Range<Int>) {
            self.key = key
            start = UInt32(value.lowerBound)
            end = UInt32(value.upperBound)
        }
    }

    struct Layer {
        private let idStart: UInt32, idEnd: UInt32
        private let first: UInt32, last: UInt32
        /// The quoted id (`"from"`); a scene layer's, its controller (with its role, its identity).
        var id: Range<Int> { Int(idStart)..<Int(idEnd) }
        /// Its properties' indices in `properties`.
        var properties: Range<Int> { Int(first)..<Int(last) }

        init(id: Range<Int>, properties: Range<Int>) {
            idStart = UInt32(id.lowerBound)
            idEnd = UInt32(id.upperBound)
            first = UInt32(properties.lowerBound)
            last = UInt32(properties.upperBound)
        }
    }

    struct Scene {
        /// The still views, bottom to top.
        let layers: [Layer]
        /// `"root":{…}` and `"transition":…`.
        let root: Range<Int>
        let transition: Range<Int>
    }

    // Used on one service thread, never in overlapping accesses (encoded, then read): no
    // runtime exclusivity bookkeeping, which a callgrind profile counted at 27 checks a frame.
    @exclusivity(unchecked) var number = 0
    /// The parts' bytes (no headroom): one buffer, kept from state to state.
    let buffer: ByteBuffer
    /// `"phase":…` through `"velocity":[…]`: the frame's own fields after `n`.
    @exclusivity(unchecked) var header = 0..<0
    /// `sent`'s value, within `header`.
    @exclusivity(unchecked) var sent = 0..<0
    /// The layers, in the frame's order, and their properties (`PartList`: kept from state to state).
    @exclusivity(unchecked) var layers: PartList<Layer>
    @exclusivity(unchecked) var properties: PartList<Property>
    @exclusivity(unchecked) var scene: Scene?
    /// `animator`'s fields, with the property-animator driver.
    @exclusivity(unchecked) var animator: Layer?
    /// The engine's layers of the latest state: the next state's are written into this list's
    /// storage (`FrameRecyclingTests`), none is made per frame.
    @exclusivity(unchecked) var engineLayers: [LayerState] = []
    /// Whether every layer id occurs once (a delta names layers by id; checked while encoding,
    /// not assumed).
    @exclusivity(unchecked) var hasUniqueIDs = true

    /// An empty snapshot, its storage sized for `layers` layers; `encode(_:now:)` fills it.
    init(layers count: Int) {
        buffer = ByteBuffer(capacity: 300 * count + 200)
        layers = PartList(capacity: count)
        engineLayers.reserveCapacity(count)
        // At most 12 properties a layer, 4 the animator's.
        properties = PartList(capacity: 12 * count + 4)
        start = UnsafeRawPointer(buffer.base)
    }

    deinit {
        layers.deallocate()
        properties.deallocate()
    }

    /// The buffer's first byte, read again after each encoding (the buffer may have grown); the
    /// bytes do not change until the next one.
    @exclusivity(unchecked) var start: UnsafeRawPointer

    /// The encoded parts' length in bytes.
    var byteCount: Int { buffer.count }

    /// What this keeps alive: its buffer, its part lists, the objects (approximately).
    var retainedBytes: Int {
        buffer.capacity + 64 + properties.count * MemoryLayout<Property>.stride
            + (layers.count + (scene?.layers.count ?? 0)) * MemoryLayout<Layer>.stride + 256
    }

    @inline(__always)
    func part(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: start + range.lowerBound, count: range.count)
    }

    /// Whether two parts (of this snapshot and `other`) hold the same bytes.
    @inline(__always)
    func same(_ range: Range<Int>, as otherRange: Range<Int>, of other: FrameSnapshot) -> Bool {
        guard range.count == otherRange.count else { return false }
        let pa = start + range.lowerBound, pb = other.start + otherRange.lowerBound
        // Most parts are a few bytes: a loop beats a call into libc.
        if range.count <= 16 {
            for offset in 0..<range.count
            where pa.load(fromByteOffset: offset, as: UInt8.self) != pb.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            return true
        }
        return memcmp(pa, pb, range.count) == 0
    }

    /// The index of this snapshot's layer with the same id as `other`'s layer `index`.
    @inline(__always)
    func layer(matching index: Int, of other: FrameSnapshot) -> Int? {
        let id = other.layers[index].id
        // Most often at the same index: tried first.
        if index < layers.count, same(layers[index].id, as: id, of: other) { return index }
        return layers.all.firstIndex { same($0.id, as: id, of: other) }
    }

    /// The value of `key` among a layer's properties.
    func value(_ key: Key, of layer: Layer) -> Range<Int>? {
        properties[layer.properties].first { $0.key == key }?.value
    }

    /// The index of `other`'s scene layer that is the same view as this snapshot's scene layer
    /// `index` (same controller and role).
    func sceneLayer(_ index: Int, in other: FrameSnapshot) -> Int? {
        guard let mine = scene?.layers[index], let theirs = other.scene?.layers,
            let role = value(.role, of: mine)
        else { return nil }
        return theirs.firstIndex { layer in
            guard let otherRole = other.value(.role, of: layer) else { return false }
            return other.same(layer.id, as: mine.id, of: self) && other.same(otherRole, as: role, of: self)
        }
    }

    /// Whether every property of layer `index` equals that of `other`'s layer `otherIndex`.
    func sameProperties(_ layer: Layer, as otherLayer: Layer, of other: FrameSnapshot) -> Bool {
        let mine = properties[layer.properties], theirs = other.properties[otherLayer.properties]
        return mine.count == theirs.count
            && zip(mine, theirs).allSatisfy { $0.key == $1.key && same($0.value, as: $1.value, of: other) }
    }
}
