import CLibWebSockets
import SandboxSession

// What crosses threads in a `ServerGroup`: accepted sockets dealt by the listening thread, and a
// viewer on one thread watching a session another thread hosts. Each server has one mailbox
// (`crossThread`); the sender locks it, appends, and wakes the owner's loop, which takes
// everything at EVENT_WAIT_CANCELLED. Messages keep their order; frames do not queue: a newer
// frame for a viewer replaces one not yet taken (latest frame wins, as on one thread).

/// What other threads may touch, under the server's mutex. The context is nil once the server
/// has stopped: then nothing more is accepted.
struct CrossThread: @unchecked Sendable {  // the context is used only under the lock
    var context: OpaquePointer?
    var handedOver: [Int32] = []
    var deliveries: [Delivery] = []
    var frames: [ConnectionID: (session: String, frame: FrameEncoding)] = [:]
}

/// One item of a server's mailbox. Messages arrive encoded by the sender, in buffers of their own.
enum Delivery: @unchecked Sendable {  // an EncodedMessage is handed over whole, never shared
    /// To the session's thread: a viewer of another thread wants to watch it / leaves it.
    case attach(viewer: ConnectionID, session: String)
    case detach(viewer: ConnectionID, session: String)
    /// To the viewers' thread: one message for each of them, encoded once for that thread (its
    /// connections write it one after another). `endsWatch` with the session it ends;
    /// `session`: the session whose `join` it answers (dropped for a viewer that has left for
    /// another since); `startsFrames`: a `joined` (`ServerMessage.startsFrames`).
    case message(to: [ConnectionID], EncodedMessage, endsWatch: String?, session: String?, startsFrames: Bool)
}

/// One message of a batch on its way to viewers of other threads, gathered by thread while the
/// batch sends it to one connection after another: the hub sends a broadcast to the driver and
/// then each viewer in a row, so each other thread is posted it once (`post(_:)`;
/// `RemoteSendsTests`).
struct RemoteSends {
    private(set) var message: ServerMessage?
    private(set) var watched: String?
    private(set) var viewers: [Int: [ConnectionID]] = [:]

    /// Whether `action` may join what is gathered: a send of the same message. Anything else is
    /// carried out after the gathered message is posted, so each viewer's order holds.
    func continues(with action: SessionAction) -> Bool {
        guard let message else { return true }
        if case .send(_, message) = action { return true }
        return false
    }

    mutating func add(_ viewer: ConnectionID, _ message: ServerMessage, watching session: String?) {
        self.message = message
        watched = session
        viewers[viewer.thread, default: []].append(viewer)
    }

    mutating func removeAll() {
        message = nil
        watched = nil
        viewers.removeAll(keepingCapacity: true)
    }
}

extension SandboxServer {
    // MARK: - Sending to another thread

    /// Posts to this server's mailbox and wakes its loop; false once it has stopped.
    @discardableResult
    func post(_ delivery: Delivery) -> Bool {
        crossThread.withLock { state in
            guard let context = state.context else { return false }
            state.deliveries.append(delivery)
            lws_cancel_service(context)
            return true
        }
    }

    /// Posts a viewer's latest frame, replacing one it has not taken yet.
    func post(frame: FrameEncoding, to viewer: ConnectionID, of session: String) {
        crossThread.withLock { state in
            guard let context = state.context else { return }
            let wasEmpty = state.frames.isEmpty
            state.frames[viewer] = (session, frame)
            if wasEmpty { lws_cancel_service(context) }
        }
    }

    /// Posts what `remote` gathered: one encoding per thread, for all its viewers there.
    func post(_ remote: inout RemoteSends) {
        guard let message = remote.message else { return }
        let session = remote.watched
        for (thread, viewers) in remote.viewers {
            let encoded = ServerMessages.encode(message, headroom: headroom)
            group.server(thread)?.post(
                .message(
                    to: viewers, encoded, endsWatch: message.endsWatch ? session : nil, session: session,
                    startsFrames: message.startsFrames))
        }
        remote.removeAll()
    }

    func sendFrame(_ frame: FrameEncoding, toViewer viewer: ConnectionID, of session: String) {
        group.server(viewer.thread)?.post(frame: frame, to: viewer, of: session)
    }

    /// `.watchElsewhere`: ask the session's thread to attach this viewer.
    func watchElsewhere(_ viewer: ConnectionID, _ session: String) {
        if let host = group.host(of: session),
            group.server(host)?.post(.attach(viewer: viewer, session: session)) == true
        {
            return
        }
        // Ended (or its thread stopped) since the hub asked: as if the join had found nothing.
        remoteJoinFailed(viewer, session)
    }

    /// `.stopWatchingElsewhere`: the viewer left; its session's thread forgets it.
    func stopWatchingElsewhere(_ viewer: ConnectionID, _ session: String) {
        remoteFrames[viewer] = nil
        if let host = group.host(of: session) { group.server(host)?.post(.detach(viewer: viewer, session: session)) }
    }

    // MARK: - Taking what other threads sent (on this server's thread)

    func takeDeliveries() {
        let (deliveries, frames) = crossThread.withLock { state in
            defer {
                state.deliveries.removeAll()
                state.frames.removeAll()
            }
            return (state.deliveries, state.frames)
        }
        for delivery in deliveries {
            switch delivery {
            case let .attach(viewer, session):
                attachRemote(viewer, session)
            case let .detach(viewer, session):
                hub.detachViewer(viewer, from: session)
            case let .message(targets, message, endsWatch, session, startsFrames):
                for target in targets where deliverable(to: target, of: session, endsWatch: endsWatch, startsFrames) {
                    connections[target]?.enqueue(message, startsFrames: startsFrames)
                    if let session = endsWatch {
                        // A refused join ends no watch: the frames of the one it has stay.
                        if hub.session(of: target) == session { remoteFrames[target] = nil }
                        hub.remoteWatchEnded(target, session: session)
                    }
                }
            }
        }
        // Messages first (a `joined` before its first frame), then each viewer's latest frame,
        // if it still watches that session.
        for (viewer, latest) in frames where hub.session(of: viewer) == latest.session {
            guard let connection = connections[viewer] else { continue }
            remoteFrames[viewer] = latest.frame
            connection.frameDue()
        }
    }

    /// Whether a message from a session's thread still concerns the viewer: not the answer to a
    /// join it has withdrawn or left since (a newer `join`, answered first: it would come after
    /// the newer one's). A `joined` it still waits for makes it leave what it did and watch.
    private func deliverable(to viewer: ConnectionID, of session: String?, endsWatch: String?, _ joined: Bool) -> Bool {
        guard let session, endsWatch == nil else { return true }
        guard joined else { return hub.session(of: viewer) == session }
        return remoteJoinAccepted(viewer, session)
    }

    // MARK: - Accepted sockets dealt by the listening thread

    /// Called on the listening thread: queues a duplicate of `fd` for this server's thread and
    /// wakes it. False if this server has stopped (the caller then serves the socket itself).
    func takeHandOff(_ fd: Int32) -> Bool {
        crossThread.withLock { state in
            guard let context = state.context else { return false }
            let copy = dup(fd)
            guard copy >= 0 else { return false }
            state.handedOver.append(copy)
            lws_cancel_service(context)
            return true
        }
    }

    /// Adopts the sockets handed over, on this server's own service thread. A failed adoption
    /// has already closed the descriptor (lws does), so it is not closed again.
    func adoptHandedOver() {
        let sockets = crossThread.withLock { state -> [Int32] in
            defer { state.handedOver.removeAll() }
            return state.handedOver
        }
        guard let native else {
            sockets.forEach { close($0) }
            return
        }
        for fd in sockets { _ = clws_server_adopt(native, fd) }
    }

    /// LWS_CALLBACK_FILTER_NETWORK_CONNECTION (listening thread). Returns 1 to refuse the socket
    /// (lws closes it), 0 to serve it here; handing it to another thread also answers 1, as lws
    /// closes its own descriptor and the peer serves a duplicate.
    func filterNetworkConnection(_ fd: Int32) -> Int32 {
        if isStopRequested { return 1 }
        // Descriptors are handed out lowest first, so an accepted one this high means the table
        // is nearly full (handshakes never finished hold theirs for 10 s): refuse it at once
        // and keep a reserve, so accept() never meets EMFILE — on which lws 4.1.6 spins at 100 %
        // of a core, logging each failure (test_hostile.py:
        // test_a_full_descriptor_table_refuses_new_sockets_without_spinning).
        if fd >= group.descriptorCeiling { return 1 }
        guard let peer = group.nextServer(), peer !== self else { return 0 }
        return peer.takeHandOff(fd) ? 1 : 0
    }
}

extension SandboxServer {
    /// A viewer of another thread asks to watch a session of this one.
    func attachRemote(_ viewer: ConnectionID, _ session: String) {
        hub.attachViewer(viewer, to: session, into: &actions)
        carryOut(attaching: session)
    }

    /// The session's thread accepted this viewer: it leaves what it did (false: it withdrew the join).
    func remoteJoinAccepted(_ viewer: ConnectionID, _ session: String) -> Bool {
        guard hub.remoteJoinAccepted(viewer, session: session, into: &actions) else { return false }
        remoteFrames[viewer] = nil
        carryOut()
        return true
    }

    /// `.watchElsewhere` found the session gone (or its thread stopped) since the hub asked.
    func remoteJoinFailed(_ viewer: ConnectionID, _ session: String) {
        hub.remoteJoinFailed(viewer, session: session, into: &actions)
    }
}
