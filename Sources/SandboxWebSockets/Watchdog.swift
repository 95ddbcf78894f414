/// Once a second: cuts the connections whose output waited too long without a write
/// (`Outbox.checkStall`, `OutboxTests.stallCut`) and publishes the thread's counts.
final class Watchdog {
    static let interval = 1.0

    private unowned let server: SandboxServer
    private lazy var timer = LWSTimer { [unowned self] in self.fired() }

    init(server: SandboxServer) {
        self.server = server
    }

    func start(on context: OpaquePointer) { timer.schedule(on: context, after: Self.interval) }

    private func fired() {
        guard let context = server.context else { return }
        let now = server.clock.now
        for connection in server.connections.values { connection.checkWriteStall(at: now) }
        server.publishCounts()
        timer.schedule(on: context, after: Self.interval)
    }

    func stop(on context: OpaquePointer) { timer.cancel(on: context) }
}
