import Testing
import TransitionCore

@testable import SandboxSession

/// A connection's outbox, action by action: inputs in, exact action lists out — every bound, the
/// close decisions and their order, input pausing, the frame choice. The simulated link through
/// the outbox: `OutboxLinkTests`.
@Suite("Outbox") struct OutboxTests {
    static func message(_ size: Int) -> EncodedMessage { NetworkLinkTests.message(size) }

    static func limits(_ change: (inout ConnectionLimits) -> Void = { _ in }) -> ConnectionLimits {
        var limits = ConnectionLimits()
        change(&limits)
        return limits
    }

    static func outbox(_ change: (inout ConnectionLimits) -> Void = { _ in }) -> Outbox {
        Outbox(limits: limits(change), headroom: 0, at: 0)
    }

    static func writable(
        _ outbox: inout Outbox, at now: Double = 0, room: Outbox.Room = .fits, latest: FrameEncoding? = nil
    ) -> [OutboxAction] {
        outbox.writable(at: now) { _ in
            room
        } latest: {
            latest
        }
    }

    /// Two consecutive states of a session, the second offering a delta against the first.
    static func consecutiveFrames() throws -> (FrameEncoding, FrameEncoding) {
        let states = FrameDeltaTests.states(kind: .push, scene: false, gestures: [[10, 10, 10]], unasked: [false])
        let pair = zip(states, states.dropFirst()).first { $0.1.baseID == $0.0.id }
        return try #require(pair)
    }

    @Test func replyCountBound() {
        var outbox = Self.outbox { $0.queuedReplies = 3 }
        for _ in 0..<3 { #expect(outbox.enqueue(Self.message(20), at: 0) == [.requestWritable]) }
        // The fourth: what waits is dropped, a polite 1008, and a kill if it cannot go out.
        #expect(outbox.enqueue(Self.message(20), at: 0) == [.closing(code: 1008), .kill(after: 2), .requestWritable])
        #expect(outbox.state == .closing(.init(code: 1008, reason: "too many unread replies")))
        #expect(outbox.queuedReplies == 0 && outbox.queuedBytes == 0)
        #expect(outbox.enqueue(Self.message(20), at: 0) == [])
        #expect(Self.writable(&outbox) == [.sendClose(code: 1008, reason: "too many unread replies")])
        #expect(outbox.state == .closed)
        #expect(Self.writable(&outbox) == [])
    }

    @Test func replyByteBound() {
        var outbox = Self.outbox { $0.queuedBytes = 1000 }
        #expect(outbox.enqueue(Self.message(600), at: 0) == [.requestWritable])
        #expect(outbox.queuedBytes == 600)
        #expect(outbox.enqueue(Self.message(401), at: 0) == [.closing(code: 1008), .kill(after: 2), .requestWritable])
    }

    @Test func messageSizeBound() {
        var outbox = Self.outbox { $0.messageBytes = 100 }
        #expect(outbox.receiving(total: 100) == [])
        #expect(
            outbox.receiving(total: 101) == [
                .closing(code: 1009), .sendClose(code: 1009, reason: "message larger than 64 KiB"),
            ])
        #expect(outbox.isClosing)
    }

    @Test func rateLimitErrorThenClose() {
        var outbox = Self.outbox {
            $0.messagesPerSecond = 1
            $0.burstSeconds = 2
        }
        let bytes = Array(#"{"type":"ping","seq":1,"t":0}"#.utf8)
        for _ in 0..<2 {
            #expect(
                outbox.received(bytes, binary: false, at: 0) == [
                    .deliverToSession(bytes, binary: false, arrived: nil)
                ])
        }
        let error = WireError(.rateLimited, "more than 1 messages or 4096 KiB per second; closing")
        // The error is queued first, reading stops at once, then the close.
        #expect(
            outbox.received(bytes, binary: false, at: 0) == [
                .rateLimited(error), .requestWritable, .kill(after: 2), .closing(code: 1008), .requestWritable,
            ])
        #expect(outbox.received(bytes, binary: false, at: 5) == [])
        #expect(
            Self.writable(&outbox) == [
                .write(ServerMessages.encode(.error(error), headroom: 0), frame: false), .requestWritable,
            ])
        #expect(Self.writable(&outbox) == [.sendClose(code: 1008, reason: "input rate limit")])
    }

    @Test func theRateRefillsOverTime() {
        var outbox = Self.outbox {
            $0.messagesPerSecond = 1
            $0.burstSeconds = 1
        }
        let bytes = Array("{}".utf8)
        #expect(outbox.received(bytes, binary: true, at: 0) == [.deliverToSession(bytes, binary: true, arrived: nil)])
        #expect(outbox.received(bytes, binary: true, at: 1) == [.deliverToSession(bytes, binary: true, arrived: nil)])
        #expect(
            outbox.received(bytes, binary: true, at: 1.5).first
                == .rateLimited(
                    WireError(.rateLimited, "more than 1 messages or 4096 KiB per second; closing")))
    }

    @Test func inputPauseHysteresis() {
        var outbox = Self.outbox { $0.pauseReplies = 4 }
        let messages = (0..<4).map { Self.message(20 + $0) }
        for message in messages.prefix(3) { #expect(outbox.enqueue(message, at: 0) == [.requestWritable]) }
        #expect(outbox.enqueue(messages[3], at: 0) == [.pauseInput, .requestWritable])
        #expect(Self.writable(&outbox) == [.write(messages[0], frame: false), .requestWritable])
        // Resumed only once down to half.
        #expect(Self.writable(&outbox) == [.write(messages[1], frame: false), .resumeInput, .requestWritable])
        #expect(Self.writable(&outbox) == [.write(messages[2], frame: false), .requestWritable])
        #expect(Self.writable(&outbox) == [.write(messages[3], frame: false)])
        #expect(Self.writable(&outbox) == [])
    }

    @Test func pauseByBytesAndCloseResumesInput() {
        var outbox = Self.outbox { $0.pauseBytes = 1000 }
        #expect(outbox.enqueue(Self.message(1000), at: 0) == [.pauseInput, .requestWritable])
        // Closing reads (and discards) input again: unread input would reset the close frame away.
        #expect(outbox.close(1001, "server shutting down") == [.closing(code: 1001), .resumeInput, .requestWritable])
        #expect(Self.writable(&outbox) == [.write(Self.message(1000), frame: false), .requestWritable])
        #expect(Self.writable(&outbox) == [.sendClose(code: 1001, reason: "server shutting down")])
        #expect(outbox.close(1001, "server shutting down") == [])
    }

    @Test func latestFrameWins() {
        var outbox = Self.outbox()
        let frame = FrameEncoding(whole: Self.message(300))
        for _ in 0..<3 { #expect(outbox.frameDue(at: 0) { nil } == [.requestWritable]) }
        #expect(Self.writable(&outbox, latest: frame) == [.write(frame.full, frame: true)])
        #expect(Self.writable(&outbox, latest: frame) == [])
    }

    @Test func repliesGoBeforeTheFrame() {
        var outbox = Self.outbox()
        let frame = FrameEncoding(whole: Self.message(300))
        let reply = Self.message(40)
        #expect(outbox.frameDue(at: 0) { nil } == [.requestWritable])
        #expect(outbox.enqueue(reply, at: 0) == [.requestWritable])
        #expect(Self.writable(&outbox, latest: frame) == [.write(reply, frame: false), .requestWritable])
        #expect(Self.writable(&outbox, latest: frame) == [.write(frame.full, frame: true)])
    }

    @Test func noFrameToSendClearsTheDueFlag() {
        var outbox = Self.outbox()
        _ = outbox.frameDue(at: 0) { nil }
        #expect(Self.writable(&outbox, latest: nil) == [])
        #expect(Self.writable(&outbox, latest: FrameEncoding(whole: Self.message(30))) == [])
    }

    @Test func deltaAfterBase() throws {
        let (first, second) = try Self.consecutiveFrames()
        var outbox = Self.outbox()
        _ = outbox.frameDue(at: 0) { nil }
        #expect(Self.writable(&outbox, latest: first) == [.write(first.full, frame: true)])
        _ = outbox.frameDue(at: 0) { nil }
        #expect(Self.writable(&outbox, latest: second) == [.write(try #require(second.delta), frame: true)])
    }

    @Test func aSkippedBaseSendsWhole() throws {
        let (_, second) = try Self.consecutiveFrames()
        var outbox = Self.outbox()
        _ = outbox.frameDue(at: 0) { nil }
        #expect(Self.writable(&outbox, latest: second) == [.write(second.full, frame: true)])
    }

    @Test func startsFramesSendsWhole() throws {
        let (first, second) = try Self.consecutiveFrames()
        var outbox = Self.outbox()
        _ = outbox.frameDue(at: 0) { nil }
        _ = Self.writable(&outbox, latest: first)
        let joined = Self.message(50)
        #expect(outbox.enqueue(joined, startsFrames: true, at: 0) == [.requestWritable])
        _ = outbox.frameDue(at: 0) { nil }
        #expect(Self.writable(&outbox, latest: second) == [.write(joined, frame: false), .requestWritable])
        #expect(Self.writable(&outbox, latest: second) == [.write(second.full, frame: true)])
    }

    @Test func aBlockedWriteWaitsForTheRetryTick() {
        var outbox = Self.outbox()
        let reply = Self.message(40)
        _ = outbox.enqueue(reply, at: 0)
        #expect(Self.writable(&outbox, at: 1, room: .later) == [.blocked])
        #expect(outbox.isBlocked && outbox.blockedSince == 1)
        #expect(Self.writable(&outbox, at: 2, room: .later) == [])
        // While blocked the retry tick asks for WRITEABLE: enqueueing does not.
        #expect(outbox.enqueue(reply, at: 2) == [])
        #expect(Self.writable(&outbox, at: 3) == [.write(reply, frame: false), .requestWritable])
        #expect(!outbox.isBlocked)
    }

    @Test func aMessageThatNeverFitsCloses1011() {
        var outbox = Self.outbox()
        _ = outbox.enqueue(Self.message(40), at: 0)
        #expect(Self.writable(&outbox, room: .never) == [.closing(code: 1011), .kill(after: 1), .requestWritable])
        #expect(Self.writable(&outbox) == [.sendClose(code: 1011, reason: "message larger than the send limit")])
    }

    @Test func stallCut() {
        var outbox = Self.outbox { $0.writeStallSeconds = 30 }
        _ = outbox.enqueue(Self.message(40), at: 0)
        _ = outbox.enqueue(Self.message(40), at: 0)
        #expect(outbox.checkStall(at: 30) == [])
        // A write is progress: the stall clock starts again.
        _ = Self.writable(&outbox, at: 10)
        #expect(outbox.checkStall(at: 40) == [])
        #expect(outbox.checkStall(at: 40.5) == [.closing(code: 1006), .killSoon])
        #expect(outbox.state == .cut && outbox.queuedReplies == 0)
        #expect(outbox.checkStall(at: 100) == [])
        #expect(Self.writable(&outbox) == [])
    }

    @Test func nothingWaitingNeverStalls() {
        var outbox = Self.outbox { $0.writeStallSeconds = 30 }
        _ = outbox.enqueue(Self.message(40), at: 0)
        _ = Self.writable(&outbox, at: 1)
        #expect(outbox.checkStall(at: 1000) == [])
    }

    @Test func aStalledCloseStillOwesItsCloseFrame() {
        var outbox = Self.outbox { $0.writeStallSeconds = 30 }
        _ = outbox.enqueue(Self.message(40), at: 0)
        _ = outbox.close(1001, "server shutting down")
        #expect(outbox.checkStall(at: 31) == [.closing(code: 1006), .killSoon])
        #expect(Self.writable(&outbox) == [.sendClose(code: 1001, reason: "server shutting down")])
    }
}
