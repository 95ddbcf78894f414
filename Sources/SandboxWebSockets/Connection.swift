import SandboxSession

/// One WebSocket connection: the driver of its own session or a viewer of another's. The
/// libwebsockets glue around its `Outbox`, which decides every bound, frame choice, hold of the
/// simulated network and close (`OutboxTests`): this feeds it the socket's callbacks and carries
/// out its actions. A message goes to libwebsockets only when the kernel's send buffer can take
/// all of it (`SendRoom`), so lws never holds a partial write (docs/SECURITY.md).
final class Connection {
    let id: ConnectionID
    let socket: WebSocketHandle
    unowned let server: SandboxServer

    // Service-thread only (see SandboxServer): no dynamic exclusivity bookkeeping needed.
    @exclusivity(unchecked) var outbox: Outbox
    /// The message being received, gathered from its fragments.
    @exclusivity(unchecked) private var incoming: [UInt8] = []
    @exclusivity(unchecked) private var incomingIsBinary = false
    /// The outbox's actions for a received message, and for a frame falling due: two, because a
    /// message's own frame falls due while its actions are carried out.
    @exclusivity(unchecked) private var inputActions = ActionBuffer()
    @exclusivity(unchecked) private var frameDueActions = ActionBuffer()
    /// The due time the server's network scheduler holds for this connection.
    var networkScheduled: Double?
    /// What the kernel's send buffer can take, known without asking it each time.
    @exclusivity(unchecked) private var sendEstimate = SendRoomEstimate()
    /// Bytes, frames and the close code, for the log line and the metrics.
    @exclusivity(unchecked) var stats: ConnectionStats
    /// The process-wide count this connection adds to, and what it has added: its outbox's held
    /// bytes and twice its kernel send queue (`recharge`), given back when it goes.
    let budget: ByteBudget
    private(set) var charged = 0
    /// The outbox's actions when the socket can write (a frame's write among them).
    @exclusivity(unchecked) private var writableActions = ActionBuffer()

    init(id: ConnectionID, socket: WebSocketHandle, server: SandboxServer, version: ProtocolVersion, at now: Double) {
        self.id = id
        self.socket = socket
        self.server = server
        outbox = Outbox(limits: server.limits, headroom: server.headroom, version: version, at: now)
        stats = ConnectionStats(peer: socket.peerAddress, openedAt: now)
        budget = server.group.budget
        SendRoom.fixBuffer(socket.wsi)
    }

    deinit { budget.add(-charged) }

    /// Tells the budget what this connection holds now (after each batch of outbox actions);
    /// past the hard mark, this thread's largest holders are cut (`SandboxServer.shedOverBudget`).
    /// A closing connection holds nothing the budget counts (`Outbox.heldBytes`): its queue is
    /// dropped and its socket closes within its kill time.
    func recharge() {
        let held = outbox.isClosing ? 0 : outbox.heldBytes + 2 * sendEstimate.queuedBytes
        let delta = held - charged
        guard delta != 0 else { return }
        charged = held
        if budget.add(delta) > budget.marks.bytes, delta > 0 { server.shedOverBudget() }
    }

    /// Cut as one of the largest holders while the process is past its hard mark.
    func shed() { perform(outbox.overBudget(.shed)) }

    func enqueue(_ message: EncodedMessage, startsFrames: Bool = false) {
        perform(outbox.enqueue(message, startsFrames: startsFrames, at: server.clock.now))
    }

    func frameDue() {
        var actions = frameDueActions.take()
        outbox.frameDue(at: server.clock.now, latest: { server.latestFrame(for: id) }, into: &actions)
        perform(actions)
        frameDueActions.giveBack(&actions)
    }

    func setLink(_ conditions: NetworkConditions) { outbox.setLink(conditions) }

    func close(_ code: Int, _ reason: String) { perform(outbox.close(code, reason)) }

    /// The network scheduler: what the link holds that is due by `now` goes on; the input due
    /// reaches the session one message at a time, while the connection stays open.
    func deliverNetwork(at now: Double) {
        for action in outbox.deliverNetwork(at: now) {
            if case .deliverToSession = action, outbox.isClosing { break }
            _ = perform(action, at: now)
        }
        perform(outbox.deliveryEnded())
    }

    /// The retry tick, after the room check said no: ask again for WRITEABLE. Returns false once
    /// the connection is no longer blocked.
    func retryBlockedWrite() -> Bool {
        guard outbox.isBlocked else { return false }
        socket.requestWritable()
        return true
    }

    /// The watchdog: output that waited too long without a write is cut.
    /// It also samples the kernel's send queue of a socket that holds something, for the budget.
    func checkWriteStall(at now: Double) {
        if sendEstimate.queuedBytes > 0 { sendEstimate.remeasure(socket.wsi) }
        perform(outbox.checkStall(at: now))
    }

    /// LWS_CALLBACK_SERVER_WRITEABLE: at most one write per call. Returns -1 to close.
    func writable() -> Int32 {
        let limit = server.limits.sendBytes
        var actions = writableActions.take()
        outbox.writable(
            at: server.clock.now,
            room: { length in
                switch socket.sendRoom(for: length, limit: limit, estimate: &sendEstimate) {
                case .fits: .fits
                case .later: .later
                case .never: .never
                }
            },
            latest: { server.latestFrame(for: id) }, into: &actions)
        let result = perform(actions)
        writableActions.giveBack(&actions)
        return result
    }

    /// LWS_CALLBACK_RECEIVE: gathers fragments, hands whole messages to the outbox (size and rate
    /// limits, the simulated network). Returns -1 to close.
    func receive(_ bytes: UnsafeRawPointer?, _ count: Int) -> Int32 {
        if outbox.isClosing { return 0 }
        if socket.isFirstFragment {
            incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
            incomingIsBinary = socket.isBinary
        }
        let tooLarge = outbox.receiving(total: incoming.count + count)
        if !tooLarge.isEmpty { return perform(tooLarge) }
        if let bytes, count > 0 {
            incoming.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        guard socket.isFinalFragment else { return 0 }
        let now = server.clock.now
        stats.bytesIn += incoming.count
        var actions = inputActions.take()
        outbox.received(incoming, binary: incomingIsBinary, at: now, into: &actions)
        let result = perform(actions, at: now)
        // Emptied first: then nothing else holds `incoming`'s storage, which it keeps.
        inputActions.giveBack(&actions)
        incoming.removeAll(keepingCapacity: incoming.capacity <= 4096)
        return result
    }
}
