import CLibWebSockets

/// What a client socket tells its owner. Called on the loop's thread.
public protocol ClientSocketDelegate: AnyObject {
    func socketOpened(_ socket: ClientSocket)
    /// One whole text message (fragments joined), valid only during the call.
    func socket(_ socket: ClientSocket, received message: UnsafeRawBufferPointer)
    /// The connection is gone: `code` is the peer's close code if it sent one; `error` says
    /// why a connection failed.
    func socketClosed(_ socket: ClientSocket, code: Int?, error: String?)
}

/// One client WebSocket on a `ClientLoop`. Outgoing messages queue and leave one per
/// WRITEABLE callback, as libwebsockets requires.
public final class ClientSocket {
    /// The largest message the client takes: 1 MiB. The server's largest messages, a scene's
    /// frames and `scene-state`, are under 64 KiB (46 KB at 64 controllers, docs/SCENE.md), so
    /// this is 20 times the most a real server sends; a larger message (one huge frame or
    /// endless continuation fragments) cuts the connection instead of growing
    /// `incoming` until memory runs out.
    public static let maxMessageBytes = 1 << 20

    public unowned let loop: ClientLoop
    /// What the callbacks reach the loop through: they can run from the loop's deinit.
    private weak var owner: ClientLoop?
    /// The libwebsockets connection, from `connect` until the socket finishes or is detached.
    var wsi: OpaquePointer?
    /// Where it connects (and how it trusts a wss:// server).
    public let url: WebSocketURL
    private weak var delegate: ClientSocketDelegate?
    private var connection: WebSocketHandle?
    // The loop's thread only, per message: no dynamic exclusivity bookkeeping.
    @exclusivity(unchecked) private var outgoing: [[UInt8]] = []
    @exclusivity(unchecked) private var outgoingHead = 0
    @exclusivity(unchecked) private var incoming: [UInt8] = []
    private var closeCode: Int?
    private var closeRequested = false
    /// OpenSSL's first refusal of the server's certificate chain, said when the connection fails.
    var certificateProblem: String?
    /// The certificate's subjectAltName when it does not name the host (`TLSTrust.mismatch`).
    var certificateNames: String?
    public private(set) var isOpen = false
    public private(set) var isClosed = false
    private let headroom = Int(clws_pre())

    init(loop: ClientLoop, url: WebSocketURL, delegate: ClientSocketDelegate) {
        self.loop = loop
        self.owner = loop
        self.url = url
        self.delegate = delegate
    }

    /// Queues one text message.
    public func send(_ text: String) {
        guard !isClosed else { return }
        var bytes = [UInt8](repeating: 0, count: headroom)
        bytes.append(contentsOf: text.utf8)
        outgoing.append(bytes)
        if isOpen { connection?.requestWritable() }
    }

    /// Closes with 1000 once the queued messages are out.
    public func close() {
        closeRequested = true
        if isOpen { connection?.requestWritable() }
    }

    /// Messages queued and not yet handed to libwebsockets.
    public var queued: Int { outgoing.count - outgoingHead }

    // MARK: - From the callback

    func opened(_ wsi: OpaquePointer) {
        let connection = WebSocketHandle(wsi: wsi)
        self.connection = connection
        isOpen = true
        delegate?.socketOpened(self)
        if queued > 0 || closeRequested { connection.requestWritable() }
    }

    func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let handle = WebSocketHandle(wsi: wsi)
        // What is held, this piece, and the rest of its frame (its header says how long it is:
        // up to 2^64 - 1, so compared unsigned, without a sum that can overflow).
        let rest = UInt(lws_remaining_packet_payload(wsi))
        let room = UInt(Self.maxMessageBytes - min(Self.maxMessageBytes, incoming.count + length))
        if incoming.count + length > Self.maxMessageBytes || rest > room {
            return refuseOversized(handle)
        }
        let final = handle.isFinalFragment
        if final && incoming.isEmpty {
            // The common case, one fragment: no copy.
            delegate?.socket(self, received: UnsafeRawBufferPointer(start: input, count: length))
            return 0
        }
        if let input { incoming.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length)) }
        if final {
            incoming.withUnsafeBytes { delegate?.socket(self, received: $0) }
            incoming.removeAll(keepingCapacity: true)
        }
        return 0
    }

    func writable(_ wsi: OpaquePointer) -> Int32 {
        let connection = WebSocketHandle(wsi: wsi)
        if outgoingHead < outgoing.count {
            let length = outgoing[outgoingHead].count - headroom
            let written = outgoing[outgoingHead].withUnsafeMutableBufferPointer {
                connection.writeText($0.baseAddress!, headroom: headroom, count: length)
            }
            outgoingHead += 1
            if outgoingHead == outgoing.count {
                outgoing.removeAll(keepingCapacity: true)
                outgoingHead = 0
            }
            if !written { return -1 }
            if queued > 0 || closeRequested { connection.requestWritable() }
            return 0
        }
        if closeRequested {
            connection.setCloseReason(1000, "done")
            return -1
        }
        return 0
    }

    /// Says so at once and cuts the connection at the next turn of the loop; until then lws
    /// reads on and the rest is dropped (the socket is detached). No 1009 close frame: lws sends
    /// one only on its graceful close (`return -1`, or a paused read), and with TLS data pending
    /// that leaves its forced service spinning on this wsi without end (libwebsockets 4.1.6).
    private func refuseOversized(_ handle: WebSocketHandle) -> Int32 {
        incoming = []
        handle.killSoon()
        lws_set_opaque_user_data(handle.wsi, nil)
        finish(error: "the server sent a message over \(Self.maxMessageBytes >> 20) MiB (connection cut)")
        return 0
    }

    func peerClosing(code: Int) {
        closeCode = code >= 0 ? code : nil
    }

    func failed(_ reason: String) {
        finish(error: reason)
    }

    func closed() {
        finish(error: nil)
    }

    /// The loop is going away: no callback may reach this socket after this. Its delegate is
    /// not told (it may be going away too).
    func detach() {
        if let wsi { lws_set_opaque_user_data(wsi, nil) }
        wsi = nil
        isClosed = true
        isOpen = false
        connection = nil
        incoming = []
    }

    private func finish(error: String?) {
        guard !isClosed else { return }
        isClosed = true
        isOpen = false
        connection = nil
        wsi = nil
        incoming = []
        delegate?.socketClosed(self, code: closeCode, error: error)
        owner?.forget(self)
    }
}
