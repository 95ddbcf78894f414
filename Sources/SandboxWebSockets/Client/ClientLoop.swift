import CLibWebSockets
import SandboxSession

/// A libwebsockets client context and its event loop, for the headless tools (`pan --url`,
/// `latency`, `bench`). Not thread-safe: create it, connect, and run it on one thread; a second
/// thread wants a loop of its own. Only `wake()` may be called from another thread.
public final class ClientLoop: @unchecked Sendable {
    private var native: UnsafeMutablePointer<clws_client>?
    private var context: OpaquePointer? { native?.pointee.context }
    private let clock = ServerClock()
    /// Made at the first deadline. Its closure holds the loop weakly: deinit must not make one
    /// (as a lazy property would) nor find an unowned reference to a loop already going away.
    private var timer: LWSTimer?
    /// The deadline the timer is armed for, if any.
    private var armedFor: Double?
    /// Sockets by identity, kept alive until lws is done with them.
    var sockets: [ObjectIdentifier: ClientSocket] = [:]

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The trust of every wss:// connection of this loop (nil: the loop connects to ws:// only).
    public let trust: TLSTrust?

    /// A loop for connections to `url`'s kind: a wss:// one makes a TLS client context with its
    /// trust; its CA file is checked first, so a missing or unreadable one is named, not a
    /// failed context.
    public convenience init(for url: WebSocketURL) throws(StartError) {
        try self.init(trust: url.isSecure ? url.trust : nil)
    }

    public init(trust: TLSTrust? = nil) throws(StartError) {
        // No lws log lines: every failure reaches the socket's delegate with its reason (a
        // refused certificate in OpenSSL's words), which the tools say once, on their own terms.
        clws_set_log_level(0)
        var caFile: String?
        if let trust {
            caFile = try trust.caFileToLoad()  // before every property is set: no deinit runs
        }
        self.trust = trust
        native = clws_client_create(sandboxSubprotocol, clientCallback, nil, trust == nil ? 0 : 1, caFile)
        guard native != nil else {
            let what = caFile.map { " (with the certificates of \($0))" } ?? ""
            throw StartError(description: "could not create a libwebsockets client context\(what)")
        }
    }

    deinit {
        guard let native else { return }  // a failed init: no context
        // Destroying the context closes every connection, and lws calls back for each: no
        // callback may find a socket (or this loop, half gone) then. The timer first, then
        // every socket is detached from its wsi.
        timer?.cancel(on: context)
        for socket in sockets.values { socket.detach() }
        clws_client_destroy(native)
        sockets.removeAll()
    }

    /// Seconds on this loop's monotonic clock (since it was created).
    public var now: Double { clock.now }

    /// Starts connecting to a `ws://` or `wss://host:port/path` URL; the delegate hears how it
    /// goes (a wss:// URL on a loop made without trust fails at once, saying so).
    /// `subprotocol` nil offers none.
    public func connect(
        to url: WebSocketURL, subprotocol: String? = sandboxSubprotocol,
        delegate: ClientSocketDelegate
    ) -> ClientSocket {
        let socket = ClientSocket(loop: self, url: url, delegate: delegate)
        sockets[ObjectIdentifier(socket)] = socket
        let opaque = Unmanaged.passUnretained(socket).toOpaque()
        let hostHeader = "\(url.host):\(url.port)"
        if url.isSecure && trust == nil {
            socket.failed("\(url) is wss:// but this client loop was made for ws:// only")
            return socket
        }
        let tls = !url.isSecure ? CLWS_PLAIN : url.trust.insecure ? CLWS_TLS_INSECURE : CLWS_TLS_VERIFIED
        let wsi = clws_client_connect(
            native, url.host, Int32(url.port), url.path, hostHeader, nil, subprotocol, opaque, Int32(tls.rawValue))
        if wsi == nil {
            socket.failed("could not start connecting to \(url)")
        } else if !socket.isClosed {
            socket.wsi = wsi
        }
        return socket
    }

    /// Services the loop until `done()` holds or the loop's clock reaches `deadline` (seconds on
    /// `now`). The loop sleeps until a network event or the deadline; a timer is kept armed for
    /// the deadline, and re-armed if libwebsockets' clock calls it ripe a hair before ours does.
    public func run(until done: () -> Bool, deadline: Double = .infinity) {
        guard let context else { return }
        while !done() {
            let now = self.now
            if now >= deadline { return }
            if deadline.isFinite && armedFor != deadline {
                armedFor = deadline
                let timer = self.timer ?? LWSTimer { [weak self] in self?.timerFired() }
                self.timer = timer
                timer.schedule(on: context, after: deadline - now)
            }
            lws_service(context, 0)
        }
    }

    /// lws runs a ripe timer inside `lws_service` and then polls with no timeout when no other
    /// timer is pending, so the loop would sleep on past the deadline: break the wait.
    private func timerFired() {
        armedFor = nil
        wake()
    }

    /// Wakes the loop from another thread.
    public func wake() {
        if let context { lws_cancel_service(context) }
    }

    func forget(_ socket: ClientSocket) { sockets[ObjectIdentifier(socket)] = nil }
}

private func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let opaque = lws_get_opaque_user_data(wsi) else { return 0 }
    let socket = Unmanaged<ClientSocket>.fromOpaque(opaque).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        socket.wsi = wsi
        socket.opened(wsi)
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return socket.receive(wsi, input, length)
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return socket.writable(wsi)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        socket.peerClosing(code: Int(clws_close_code(input, length)))
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        // OpenSSL's verdict on one certificate of the chain (`length`: preverify_ok); user is the
        // X509_STORE_CTX. libwebsockets refuses the handshake after this unless the error is
        // cleared, and says only "connect SSL err 1": the first refusal is kept to be said.
        guard length == 0, let user else { return 0 }
        let store = OpaquePointer(user)
        if socket.url.trust.insecure {
            X509_STORE_CTX_set_error(store, X509_V_OK)  // --insecure: any certificate
        } else if socket.certificateProblem == nil {
            let code = Int(X509_STORE_CTX_get_error(store))
            let words = String(cString: X509_verify_cert_error_string(code))
            let depth = X509_STORE_CTX_get_error_depth(store)
            socket.certificateProblem = "X509_V_ERR \(code): \(words), certificate \(depth) of the chain"
            if code == TLSTrust.hostnameMismatch || code == TLSTrust.addressMismatch {
                var names = [CChar](repeating: 0, count: 512)
                clws_certificate_names(X509_STORE_CTX_get_current_cert(store), &names, names.count)
                let bytes = names.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                socket.certificateNames = String(decoding: bytes, as: UTF8.self)
            }
        }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let said =
            socket.certificateProblem
            ?? input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
        // No certificate was looked at: perhaps the server speaks the other scheme (`SchemeProbe`).
        let otherScheme = socket.certificateProblem == nil ? SchemeProbe.mismatch(socket.url) : nil
        let reason =
            otherScheme
            ?? (!socket.url.isSecure
                ? said
                : socket.certificateNames.map { TLSTrust.mismatch(names: $0, url: socket.url) }
                    ?? TLSTrust.explain(said, url: socket.url))
        // The socket may be freed by its delegate now; later callbacks for this wsi (down to
        // WSI_DESTROY) must not find it.
        lws_set_opaque_user_data(wsi, nil)
        socket.failed(reason)
    case LWS_CALLBACK_CLIENT_CLOSED:
        lws_set_opaque_user_data(wsi, nil)
        socket.closed()
    case LWS_CALLBACK_WSI_DESTROY:
        // Gone without CLOSED or CONNECTION_ERROR: the socket must not keep the freed wsi.
        lws_set_opaque_user_data(wsi, nil)
        socket.failed("the connection was dropped")
    default:
        break
    }
    return 0
}
