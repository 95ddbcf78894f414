import CLibWebSockets
import SandboxSession

/// Carrying out an `Outbox`'s actions on the socket, the server and the counters, in order.
extension Connection {
    /// Carries out `actions` in order; -1 when the callback must end the connection.
    @discardableResult
    func perform(_ actions: [OutboxAction], at now: Double? = nil) -> Int32 {
        var result: Int32 = 0
        for action in actions {
            if perform(action, at: now) != 0 { result = -1 }
        }
        recharge()
        return result
    }

    func perform(_ action: OutboxAction, at now: Double?) -> Int32 {
        switch action {
        case let .write(message, frame):
            write(message, frame: frame)
        case .requestWritable:
            socket.requestWritable()
        case .pauseInput:
            socket.readInput(false)
        case .resumeInput:
            socket.readInput(true)
        case .closing(let code):
            stats.serverCloses(code)
        case let .sendClose(code, reason):
            socket.setCloseReason(code, reason)
            return -1
        case .kill(let seconds):
            socket.kill(after: seconds)
        case .killSoon:
            socket.killSoon()
        case .resetOnClose:
            _ = clws_reset_on_close(socket.wsi)
        case .blocked:
            server.writeBlocked(self)
        case .rateLimited(let error):
            server.errorSent(error, to: id)
            server.metrics?.sent(.error(error))
        case let .deliverToSession(bytes, binary, arrived):
            server.received(bytes, binary: binary, from: self, at: now ?? server.clock.now, arrived: arrived)
        case .networkDue(let due):
            server.networkHolds(self, due: due)
        }
        return 0
    }

    private func write(_ message: EncodedMessage, frame: Bool) {
        let length = message.payloadCount
        let written = message.withBuffer { socket.writeText($0, headroom: message.headroom, count: length) }
        stats.bytesOut += length
        if frame {
            stats.framesOut += 1
            server.metrics?.sentFrame(bytes: length)
        } else {
            server.metrics?.sentReply(bytes: length)
        }
        if !written {
            socket.killSoon()  // a socket error
        } else if socket.hasPartialWrite {
            // The room check is conservative, so this should not happen; if the kernel refused
            // part anyway (memory pressure), make sure a half-close cannot spin the loop: stop
            // reading (no EOF to see) and cut the connection once it drains or times out.
            server.partialWrites += 1
            socket.readInput(false)
            outbox.writeSplit()
            socket.kill(after: 5)
        }
    }
}
