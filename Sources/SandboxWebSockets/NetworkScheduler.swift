import HeapModule
import SandboxSession

/// When each connection's simulated network delivers next, earliest first, and the one timer
/// per service thread that fires at the earliest. A firing visits only the connections due, not
/// every one that holds something (1,500 quiet connections through 2 s cost 0.87 of a core when
/// each firing walked them all); `test_network.py` holds the deliveries.
final class NetworkScheduler {
    private unowned let server: SandboxServer
    private var queue = Heap<NetworkDue>()
    private lazy var timer = LWSTimer { [unowned self] in self.fired() }
    private var timerDue = Double.infinity

    init(server: SandboxServer) {
        self.server = server
    }

    /// A connection's link holds something due at `due`. One entry per connection and due time;
    /// an entry made stale by an earlier one is skipped when it comes up.
    func holds(_ connection: Connection, due: Double) {
        if let scheduled = connection.networkScheduled, scheduled <= due { return }
        connection.networkScheduled = due
        queue.insert(NetworkDue(due: due, connection: connection.id))
        arm()
    }

    private func arm() {
        guard let first = queue.min, first.due < timerDue, let context = server.context else { return }
        timerDue = first.due
        timer.schedule(on: context, after: first.due - server.clock.now)
    }

    /// The connections due deliver, each is queued again for its next due time, and the timer is
    /// set for the earliest.
    private func fired() {
        timerDue = .infinity
        let now = server.clock.now
        while let first = queue.min, first.due <= now {
            queue.removeMin()
            guard let connection = server.connections[first.connection], connection.networkScheduled == first.due
            else { continue }
            connection.networkScheduled = nil
            connection.deliverNetwork(at: now)
            if let due = connection.outbox.networkDue { holds(connection, due: due) }
        }
        arm()
    }

    /// Teardown: nothing more is delivered.
    func stop(on context: OpaquePointer) {
        timer.cancel(on: context)
        queue = Heap()
    }
}

/// A connection's next delivery, ordered by time.
struct NetworkDue: Comparable {
    let due: Double
    let connection: ConnectionID

    static func < (a: NetworkDue, b: NetworkDue) -> Bool { a.due < b.due }
    static func == (a: NetworkDue, b: NetworkDue) -> Bool { a.due == b.due && a.connection == b.connection }
}
