/// A growable byte buffer without `Array`'s per-append uniqueness and bounds bookkeeping: the
/// frame encoder appends a few hundred times per frame, thousands of frames a second.
final class ByteBuffer {
    // Accessed only from the thread encoding the message, hundreds of times per frame: the
    // runtime's exclusivity bookkeeping would cost more than the appends themselves.
    @exclusivity(unchecked) private(set) var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        // Not zeroed (a memset of the whole capacity per frame): only bytes below `count` are
        // ever read, and each was written (`reserveHeadroom` zeroes the header region).
        // Byte alignment: a larger one goes through posix_memalign, slower than malloc (profile).
        base = .allocate(byteCount: self.capacity, alignment: 1)
    }

    /// Starts an empty buffer with `headroom` zero bytes, the WebSocket header's room.
    func reserveHeadroom(_ headroom: Int) {
        precondition(count == 0)
        reserve(headroom)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: headroom)
        count = headroom
    }

    deinit { base.deallocate() }

    /// Room for `extra` more bytes. Inlined: every append asks, and all but a handful a
    /// session's life find the room there (callgrind counted the call on each).
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    private func grow(_ extra: Int) {
        var next = capacity * 2
        while next < count + extra { next *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: next, alignment: 1)
        grown.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = grown
        capacity = next
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        reserve(length)
        let target = base + count
        // Keys, digits, short parts: two overlapping word copies beat a call into libc's memmove
        // and a byte loop (callgrind); neither reads or writes outside the two ranges.
        switch length {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            for offset in 0..<length {
                target.storeBytes(
                    of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        default:
            target.copyMemory(from: source, byteCount: length)
        }
        count += length
    }

    func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: UnsafeRawBufferPointer(bytes))
    }
}
