import SandboxSession

/// The connections whose next message found no room in the kernel's send buffer, and the one
/// timer per service thread that asks each for WRITEABLE again every `interval` until it writes
/// (`Outbox.isBlocked`). `test_hostile.py`'s slow readers hold it.
final class WriteRetries {
    static let interval = 0.02

    private unowned let server: SandboxServer
    private var blocked: [ConnectionID: Connection] = [:]
    private lazy var timer = LWSTimer { [unowned self] in self.retry() }

    init(server: SandboxServer) {
        self.server = server
    }

    func add(_ connection: Connection) {
        blocked[connection.id] = connection
        if let context = server.context, !timer.isScheduled { timer.schedule(on: context, after: Self.interval) }
    }

    func remove(_ id: ConnectionID) { blocked[id] = nil }

    private func retry() {
        for (id, connection) in blocked where !connection.retryBlockedWrite() {
            blocked[id] = nil
            server.writeFlowing(id)
        }
        if let context = server.context, !blocked.isEmpty { timer.schedule(on: context, after: Self.interval) }
    }

    func stop(on context: OpaquePointer) {
        timer.cancel(on: context)
        blocked.removeAll()
    }
}
