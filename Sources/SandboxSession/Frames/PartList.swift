/// A snapshot's list of parts (its layers, their properties) in storage the list owns and keeps
/// from frame to frame: `FrameSnapshot` rewrites its lists every frame and `FrameWriter` reads
/// two snapshots' lists a frame. As `Array`s, each read through the snapshot retained and
/// released the array's buffer and each append checked its uniqueness (callgrind counted about
/// 20 retain/release pairs a frame); here a read is a load, an append a store.
///
/// Used on one service thread, by its snapshot only (`FrameRecyclingTests`); every index is
/// checked against `count` (`PartListTests`).
final class PartList<Element: BitwiseCopyable> {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var indices: Range<Int> { 0..<count }

    /// Empties the list, keeping its storage.
    func removeAll() { count = 0 }

    @inline(__always)
    func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    private func grow() {
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
