import CLibWebSockets

/// The Swift face of one libwebsockets connection (`struct lws *`): every per-connection C call
/// the server and the clients make goes through here, so the rest of the code reads as Swift.
/// A value holding the pointer: valid from ESTABLISHED until CLOSED, on the loop's thread only.
struct WebSocketHandle {
    let wsi: OpaquePointer

    /// Asks for one WRITEABLE callback.
    func requestWritable() { lws_callback_on_writable(wsi) }

    /// Stops (false) or resumes (true) reading the peer's input; lws keeps what is unread.
    func readInput(_ enabled: Bool) { lws_rx_flow_control(wsi, enabled ? 1 : 0) }

    /// Writes one whole text message; `buffer` starts with `LWS_PRE` headroom before the payload.
    /// Returns whether lws took all of it.
    func writeText(_ buffer: UnsafeMutablePointer<UInt8>, headroom: Int, count: Int) -> Bool {
        clws_write_text(wsi, buffer + headroom, count) >= count
    }

    /// True when lws holds part of a write the kernel refused (see `SendRoom`).
    var hasPartialWrite: Bool { lws_partial_buffered(wsi) != 0 }

    /// Whether the kernel's send buffer can take a payload of `count` bytes whole now.
    func sendRoom(for count: Int, limit: Int) -> SendRoom { SendRoom.check(wsi, payload: count, limit: limit) }

    /// `sendRoom`, with the connection's estimate of the buffer sparing most system calls.
    func sendRoom(for count: Int, limit: Int, estimate: inout SendRoomEstimate) -> SendRoom {
        SendRoom.check(wsi, payload: count, limit: limit, estimate: &estimate)
    }

    /// The close frame lws sends when the callback next returns -1 (reason cut to 123 bytes).
    func setCloseReason(_ code: Int, _ reason: String) {
        var bytes = Array(reason.utf8.prefix(123))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
    }

    /// Cuts the connection at the next turn of the loop, whatever lws still holds.
    func killSoon() { clws_kill_soon(wsi) }

    /// Cuts the connection after `seconds` unless it closes before.
    func kill(after seconds: Int) { clws_kill_after(wsi, Int32(seconds)) }

    /// Fragments of the message being received.
    var isFirstFragment: Bool { lws_is_first_fragment(wsi) != 0 }
    var isFinalFragment: Bool { clws_is_final_fragment(wsi) != 0 }
    var isBinary: Bool { lws_frame_is_binary(wsi) != 0 }
    var remainingPayload: Int { Int(lws_remaining_packet_payload(wsi)) }

    /// A request header: nil if absent, "\u{0}" (matching nothing) if longer than any sane value.
    func header(_ token: lws_token_indexes) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = clws_header(wsi, token, &buffer, Int32(buffer.count))
        if length == -1 { return nil }
        // Too long (-2) must not pass for absent: an empty value is refused by every check.
        guard length >= 0 else { return "\u{0}" }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the HTTP request is a GET.
    var isGet: Bool { clws_is_get(wsi) != 0 }

    /// The peer's address as lws reports it ("" if it cannot tell).
    var peerAddress: String {
        var buffer = [CChar](repeating: 0, count: 128)
        clws_peer(wsi, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Answers an HTTP request with `status` and a short text body, before any upgrade.
    func refuseHTTP(_ status: Int, _ message: String) { _ = clws_http_refuse(wsi, UInt32(status), message) }
}
