import CLibWebSockets

/// Whether the kernel's send buffer can take a whole message now.
///
/// libwebsockets 4.1.6 keeps whatever part of a write the socket refused and, should the peer
/// then half-close, its poll loop spins on that socket forever (docs/SECURITY.md). So a message
/// goes to lws only when it fits whole: the kernel accepts a write while its accounting
/// (`SO_SNDBUF`, which counts bookkeeping too) has room, so the payload already queued
/// (`SIOCOUTQ`) and the new message are counted twice over, plus a margin.
enum SendRoom: Equatable {
    case fits
    /// Not now: try again when the peer has read some.
    case later
    /// Never, even into an empty buffer grown to the system's maximum.
    case never

    /// WebSocket header of a server frame (unmasked): at most 10 bytes.
    static let headerBytes = 10
    static let margin = 4096
    /// The send buffer every connection gets at ESTABLISHED (`SO_SNDBUF`; the kernel doubles it
    /// for its bookkeeping, and setting it turns Linux's growth up to `tcp_wmem`'s 4 MiB off).
    /// 64 KiB of payload by the rule below (less 2 KiB of margin): the largest messages of
    /// ordinary play, a scene's frames and `scene-state` (32 controllers at most; 46 KB frames
    /// at 64, docs/SCENE.md), fit whole with room for the next, and a frame of a plain
    /// transition (under 700 B) dozens of times. A larger message grows it once, as far as
    /// `net.core.wmem_max` allows (docs/SECURITY.md, "Kernel memory and the byte budget").
    static let fixedBufferBytes = 64 * 1024

    /// Sets the connection's send buffer to `fixedBufferBytes` (ESTABLISHED, before any write).
    static func fixBuffer(_ wsi: OpaquePointer) {
        _ = clws_grow_send_buffer(wsi, Int32(fixedBufferBytes))
    }

    static func check(_ wsi: OpaquePointer, payload: Int, limit: Int) -> SendRoom {
        var measured: (size: Int, queued: Int)?
        return check(wsi, payload: payload, limit: limit, measured: &measured)
    }

    /// `measured`: the buffer's size and queued bytes as last asked of the kernel (nil if not).
    private static func check(_ wsi: OpaquePointer, payload: Int, limit: Int, measured: inout (size: Int, queued: Int)?)
        -> SendRoom
    {
        guard payload <= limit else { return .never }
        var size: Int32 = 0
        var queued: Int32 = 0
        guard clws_send_buffer(wsi, &size, &queued) == 0 else { return .fits }  // not a TCP socket: nothing to guard
        let wire = payload + headerBytes
        if !fits(size: Int(size), queued: 0, wire: wire) {
            // Even an empty buffer is too small: ask for a larger one, once.
            _ = clws_grow_send_buffer(wsi, Int32(clamping: 2 * wire + margin))
            guard clws_send_buffer(wsi, &size, &queued) == 0, fits(size: Int(size), queued: 0, wire: wire) else {
                return .never
            }
        }
        measured = (Int(size), Int(queued))
        return fits(size: Int(size), queued: Int(queued), wire: wire) ? .fits : .later
    }

    static func fits(size: Int, queued: Int, wire: Int) -> Bool {
        2 * (queued + wire) + margin <= size
    }

    /// `check`, asking the kernel only when the connection's `estimate` cannot tell: two
    /// system calls per message (`SO_SNDBUF`, `SIOCOUTQ`) were a measurable part of a frame's
    /// cost at 1,000 sessions.
    static func check(_ wsi: OpaquePointer, payload: Int, limit: Int, estimate: inout SendRoomEstimate) -> SendRoom {
        let wire = payload + headerBytes
        if payload <= limit, estimate.fits(wire: wire) {
            estimate.wrote(wire)
            return .fits
        }
        var measured: (size: Int, queued: Int)?
        let room = check(wsi, payload: payload, limit: limit, measured: &measured)
        if let measured {
            estimate = SendRoomEstimate(size: measured.size, queued: measured.queued)
            if room == .fits { estimate.wrote(wire) }
        }
        return room
    }
}

/// An upper bound of what the kernel's send buffer holds, from its last measure: the bytes
/// queued then plus everything written since (the kernel only drains it), against the size
/// measured then. Measured again after `remeasureAfter` writes, so that what libwebsockets writes
/// on its own (pings, pongs: a few bytes each, within `SendRoom.margin`) and a size the kernel
/// shrank under memory pressure (`sk_stream_moderate_sndbuf`) are seen soon; a write the kernel
/// cut short anyway meets `Connection`'s partial-write backstop.
struct SendRoomEstimate {
    static let remeasureAfter = 16
    private var size = 0
    private var queued = 0
    private var writes = Self.remeasureAfter

    init() {}

    init(size: Int, queued: Int) {
        self.size = size
        self.queued = queued
        writes = 0
    }

    /// Payload bytes the kernel's send queue holds at most (the last measure plus every write
    /// since): what the byte budget counts for the socket, twice over.
    var queuedBytes: Int { queued }

    /// Measures the kernel's queue again (the watchdog's once-a-second sample of a socket that
    /// holds something, so a queue the peer drained stops counting).
    mutating func remeasure(_ wsi: OpaquePointer) {
        var size: Int32 = 0
        var queued: Int32 = 0
        guard clws_send_buffer(wsi, &size, &queued) == 0 else { return }
        self = SendRoomEstimate(size: Int(size), queued: Int(queued))
    }

    func fits(wire: Int) -> Bool {
        writes < Self.remeasureAfter && SendRoom.fits(size: size, queued: queued, wire: wire)
    }

    mutating func wrote(_ wire: Int) {
        queued += wire
        writes += 1
    }
}
