import Logging
import SandboxSession

/// How `sandbox serve` runs.
public struct ServerOptions: Sendable {
    /// The interface address to bind; loopback by default.
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 8080
    /// The folder served over HTTP (the page).
    public var webRoot = "web"
    /// Default frames per second for new sessions.
    public var fps = 60
    /// Phases of each display link's period (`SessionHub.tickPhases`, `serve --tick-phases`).
    public var tickPhases = ServerOptions.defaultTickPhases
    /// 4: at 60 fps a phase every 4.2 ms. Measured (docs/PERFORMANCE.md, "Tick phases and the
    /// display clock"): the jitter-bar ramp held 452 sessions at 4 phases, 484 at 8, 156 at 1; at
    /// 1,000 sessions each phase costs at least one more `poll` over every descriptor (4 phases:
    /// 2.07× the C streamer's CPU against 1.80× at 1), the price of the ramp's jitter.
    public static let defaultTickPhases = 4
    public static let tickPhaseRange = 1...32
    /// The simulated network of every new connection (`serve --network`; loopback: none).
    public var network = NetworkConditions.loopback
    /// Browser origins allowed besides the server's own (`http://host:port`).
    public var allowedOrigins: [String] = []
    /// `Host` names allowed besides loopback names, address literals and the bound address
    /// (`RequestPolicy`); a leading dot allows subdomains.
    public var allowedHosts: [String] = []
    /// Viewers one session takes at most, across threads (`serve --max-viewers`,
    /// `SessionHub.maxViewers`).
    public var maxViewers = SessionHub.defaultMaxViewers
    /// Per-connection bounds and the connection limit (docs/SECURITY.md).
    public var limits = ConnectionLimits()
    /// The process-wide byte budget over everything held for clients (`serve --byte-budget`).
    public var budget = ProcessBudget()
    /// WebSocket connections one client address may hold open (`serve --max-connections-per-address`);
    /// nil: no limit. 64: a user with a dozen tabs, each a driver and a few viewers, stays well
    /// under it, while one address can take no more than 64 of the default ~900 slots
    /// (`PeerLimits`; docs/SECURITY.md).
    public var maxConnectionsPerAddress: Int? = ServerOptions.defaultMaxConnectionsPerAddress
    public static let defaultMaxConnectionsPerAddress = 64
    /// TLS handshakes one client address may start a second, sustained; bursts of twice as many
    /// (`serve --handshakes-per-address`; TLS servers only). 20: a browser opens the page with
    /// a handful of connections; 20 RSA-2048 handshakes a second cost ~5 % of a core (2.3 ms
    /// each, docs/DEPLOY.md).
    public var handshakesPerAddress = ServerOptions.defaultHandshakesPerAddress
    public static let defaultHandshakesPerAddress = 20.0
    /// Addresses no per-address limit applies to: behind the balancer on this machine every
    /// client is 127.0.0.1 (deploy/haproxy.cfg limits per address itself).
    public var unlimitedAddresses: Set<String> = ["127.0.0.1"]
    /// Seconds of silence before a keepalive ping, and before hanging up.
    public var pingSeconds: UInt16 = 20
    public var hangupSeconds: UInt16 = 60
    /// Seconds a handshake may take.
    public var handshakeTimeoutSeconds: UInt32 = 10
    /// False for the extra service threads of `serve --threads`: they listen nowhere and serve
    /// the connections the listening server hands them.
    public var listens = true
    /// Where the server logs (connections, refusals, errors); logs nothing unless given one.
    public var logger = Logger(label: "sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
    /// `GET /metrics` (Prometheus' text format) from these; nil: no /metrics (404).
    public var metrics: ServerMetrics?
    /// PEM certificate chain and private key: serve https:// and wss:// only (both or neither).
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// This process's name among several behind a balancer: every session id starts `NODE-`
    /// (docs/DEPLOY.md). Nil: bare ids.
    public var node: String?
    /// A diagnostic (`serve --prebuilt-frames`): every frame is sent as this many bytes of
    /// `FrameEncoding.padding`, made once, while sessions tick as ever: the server core's cost
    /// without making frames, measured against the C streamer (docs/PERFORMANCE.md). Nil: real frames.
    public var prebuiltFrameBytes: Int?

    public init() {}
}

/// The subprotocol our clients offer (the page, the tools, the tests): the newest protocol.
public let sandboxSubprotocol = ProtocolVersion.v2.subprotocol
/// Protocol 1's subprotocol (whole frames with `t`), which a client that offers none gets too
/// (docs/PROTOCOL.md, "Versions").
public let sandboxSubprotocolV1 = ProtocolVersion.v1.subprotocol
