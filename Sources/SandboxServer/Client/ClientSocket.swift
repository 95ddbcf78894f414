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
    public unowned let loop: ClientLoop
    private weak var delegate: ClientSocketDelegate?
    private var wsi: OpaquePointer?
    // The loop's thread only, per message: no dynamic exclusivity bookkeeping.
    @exclusivity(unchecked) private var outgoing: [[UInt8]] = []
    @exclusivity(unchecked) private var outgoingHead = 0
    @exclusivity(unchecked) private var incoming: [UInt8] = []
    private var closeCode: Int?
    private var closeRequested = false
    public private(set) var isOpen = false
    public private(set) var isClosed = false
    private let headroom = Int(clws_pre())

    init(loop: ClientLoop, delegate: ClientSocketDelegate) {
        self.loop = loop
        self.delegate = delegate
    }

    /// Queues one text message.
    public func send(_ text: String) {
        guard !isClosed else { return }
        var bytes = [UInt8](repeating: 0, count: headroom)
        bytes.append(contentsOf: text.utf8)
        outgoing.append(bytes)
        if let wsi, isOpen { lws_callback_on_writable(wsi) }
    }

    /// Closes with 1000 once the queued messages are out.
    public func close() {
        closeRequested = true
        if let wsi, isOpen { lws_callback_on_writable(wsi) }
    }

    /// Messages queued and not yet handed to libwebsockets.
    public var queued: Int { outgoing.count - outgoingHead }

    // MARK: - From the callback

    func opened(_ wsi: OpaquePointer) {
        self.wsi = wsi
        isOpen = true
        delegate?.socketOpened(self)
        if queued > 0 || closeRequested { lws_callback_on_writable(wsi) }
    }

    func receive(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        let final = clws_is_final_fragment(wsi) != 0
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
        if outgoingHead < outgoing.count {
            let length = outgoing[outgoingHead].count - headroom
            let written = outgoing[outgoingHead].withUnsafeMutableBufferPointer {
                clws_write_text(wsi, $0.baseAddress! + headroom, length)
            }
            outgoingHead += 1
            if outgoingHead == outgoing.count {
                outgoing.removeAll(keepingCapacity: true)
                outgoingHead = 0
            }
            if written < length { return -1 }
            if queued > 0 || closeRequested { lws_callback_on_writable(wsi) }
            return 0
        }
        if closeRequested {
            var reason = Array("done".utf8)
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &reason, reason.count)
            return -1
        }
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

    private func finish(error: String?) {
        guard !isClosed else { return }
        isClosed = true
        isOpen = false
        wsi = nil
        delegate?.socketClosed(self, code: closeCode, error: error)
        loop.forget(self)
    }
}
