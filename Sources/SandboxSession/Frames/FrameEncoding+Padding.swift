/// The C streamer's message as a frame (`serve --prebuilt-frames`): the server core's floor is
/// measured by sending it in place of each session's frame, with everything else unchanged
/// (docs/PERFORMANCE.md, "Frame cost": the core without making frames).
extension FrameEncoding {
    /// The sizes `padding(bytes:headroom:)` makes: its prefix and suffix at least, a WebSocket
    /// message the send limit takes at most.
    public static let paddingBytes = 25...65536

    /// `{"type":"frame","pad":"xx…"}` of exactly `bytes` bytes (`paddingBytes`), the bytes
    /// `ws-floor stream --bytes` sends (tools/floor/ws-floor.c): a frame only ever sent whole,
    /// never a delta, the same bytes in protocol 1 (`PaddingFrameTests`).
    public static func padding(bytes: Int, headroom: Int) -> FrameEncoding {
        precondition(paddingBytes.contains(bytes), "a padding frame is \(paddingBytes) bytes")
        let prefix = Array(#"{"type":"frame","pad":""#.utf8), suffix = Array(#""}"#.utf8)
        let text = prefix + [UInt8](repeating: UInt8(ascii: "x"), count: bytes - prefix.count - suffix.count) + suffix
        var writer = JSONWriter(headroom: headroom, capacity: bytes)
        text.withUnsafeBytes { writer.appendRaw($0) }
        return FrameEncoding(whole: writer.finish(), everyProtocol: true)
    }
}
