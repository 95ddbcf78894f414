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

    static func check(_ wsi: OpaquePointer, payload: Int, limit: Int) -> SendRoom {
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
        return fits(size: Int(size), queued: Int(queued), wire: wire) ? .fits : .later
    }

    static func fits(size: Int, queued: Int, wire: Int) -> Bool {
        2 * (queued + wire) + margin <= size
    }
}
