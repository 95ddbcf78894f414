/// A snapshot's list of parts (its layers, their properties) in storage kept from frame to frame:
/// `FrameSnapshot` rewrites its lists every frame and `FrameWriter` reads two snapshots' lists a
/// frame. As `Array`s or objects, each read through the snapshot retained and released the
/// storage (callgrind counted about 20 retain/release pairs a frame, on objects cold at 1,000
/// sessions); this is a pointer and two counts stored in the snapshot, so a read is a load and
/// an append a store, and a frame touches no object but the snapshot for its parts.
///
/// A view, not an owner: the snapshot that stores it allocates it and frees it (`deallocate`,
/// from its `deinit`), and the buffers it lends are valid until the list is next written. Used on
/// one service thread (`FrameRecyclingTests`); every index is checked against `count`
/// (`PartListTests`).
struct PartList<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; only its owner, once.
    func deallocate() { base.deallocate() }

    var indices: Range<Int> { 0..<count }

    /// Empties the list, keeping its storage.
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "part index out of range")
        return base[index]
    }

    /// The elements in `range`, valid until the list is next written.
    @inline(__always)
    subscript(range: Range<Int>) -> UnsafeBufferPointer<Element> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "part range out of range")
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Every element, valid until the list is next written.
    @inline(__always)
    var all: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}
