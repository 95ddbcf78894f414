import Testing
import TransitionCore

@testable import SandboxSession

/// Numbers that used to wedge a session, and error replies that echoed input unbounded
/// (docs/PROTOCOL.md `pointer`, docs/ENGINE.md "Input ranges and finite outputs").
@Suite("Input ranges and bounded echoes")
struct InputRangeTests {
    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    static func pointer(_ phase: String, x: Double = 100, y: Double = 400, t: Double, seq: Int) -> String {
        #"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":\#(y),"t":\#(t),"seq":\#(seq)}"#
    }

    static func message(_ text: String) throws -> PointerMessage {
        guard case .pointer(let message) = try ClientMessage.parse(Array(text.utf8)) else {
            preconditionFailure("not a pointer message: \(text)")
        }
        return message
    }

    /// The parsed replies of one message.
    static func replies(_ session: inout VirtualSession, _ text: String, at time: Double) -> [JSONValue] {
        session.receive(text, at: time).map(json)
    }

    static func errors(_ replies: [JSONValue]) -> [JSONValue] { replies.filter { $0["type"] == .string("error") } }
    static func frames(_ replies: [JSONValue]) -> [JSONValue] { replies.filter { $0["type"] == .string("frame") } }

    /// True when no number in the value is missing: a non-finite number is written as null, and
    /// the only nulls a frame may carry are `ack` and `received` before the first input.
    static func hasNoNulls(_ value: JSONValue, key: String = "") -> Bool {
        switch value {
        case .null: return key == "ack" || key == "received"
        case .array(let items): return items.allSatisfy { hasNoNulls($0, key: key) }
        case .object(let object): return object.allSatisfy { hasNoNulls($0.value, key: $0.key) }
        case .bool, .number, .string: return true
        }
    }

    // MARK: - Pointer ranges at the wire

    @Test(
        "x, y beyond ±1,000,000 pt and t beyond ±1e13 ms are invalid-field naming the field, with the seq",
        arguments: [
            (#"{"type":"pointer","phase":"down","x":1e308,"y":400,"t":1000,"seq":1}"#, "x"),
            (#"{"type":"pointer","phase":"down","x":-1000000.001,"y":400,"t":1000,"seq":1}"#, "x"),
            (#"{"type":"pointer","phase":"down","x":100,"y":-1e7,"t":1000,"seq":1}"#, "y"),
            (#"{"type":"pointer","phase":"down","x":100,"y":400,"t":1e300,"seq":1}"#, "t"),
            (#"{"type":"pointer","phase":"down","x":100,"y":400,"t":-1.0000001e13,"seq":1}"#, "t"),
        ])
    func pointerRanges(text: String, field: String) throws {
        #expect {
            _ = try ClientMessage.parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == "invalid-field" && error.field == field && error.seq == 1
                && error.message.hasPrefix("'\(field)' must be a number in [")
        }
    }

    @Test("the edges of every range are accepted, and epoch-millisecond clocks play a whole gesture")
    func edgesAreAccepted() throws {
        for (x, y, t) in [(1_000_000.0, -1_000_000.0, 1e13), (-1_000_000.0, 1_000_000.0, -1e13), (0.0, 0.0, 0.0)] {
            let message = try Self.message(Self.pointer("down", x: x, y: y, t: t, seq: 1))
            #expect(message.x == x && message.y == y && message.time == t)
        }
        var session = VirtualSession()
        _ = session.connect(at: 0)
        let epoch = 1.7e12  // Date.now() in 2023
        _ = Self.replies(&session, Self.pointer("down", x: 100, t: epoch, seq: 1), at: 1)
        for i in 1...15 {
            _ = Self.replies(
                &session, Self.pointer("move", x: 100 + 10 * Double(i), t: epoch + 16 * Double(i), seq: 1 + i),
                at: 1 + 0.016 * Double(i))
        }
        let up = Self.replies(&session, Self.pointer("up", x: 250, t: epoch + 300, seq: 17), at: 1.3)
        #expect(Self.errors(up).isEmpty)
        #expect(session.phase == .finishing)
        var ticks = 0
        while session.nextTick != nil && ticks < 1000 {
            for reply in session.tick().map(Self.json) { #expect(Self.hasNoNulls(reply)) }
            ticks += 1
        }
        #expect(session.phase == .finished)
    }

    @Test("x: 1e308 is refused, changes nothing (same seq accepted next), and every frame stays finite")
    func hugeCoordinateChangesNothing() throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        _ = Self.replies(&session, Self.pointer("down", t: 1000, seq: 1), at: 0.1)
        let refused = Self.replies(&session, Self.pointer("move", x: 1e308, t: 1016, seq: 2), at: 0.116)
        #expect(refused.count == 1)
        let error = try #require(Self.errors(refused).first)
        #expect(
            error["code"] == .string("invalid-field") && error["field"] == .string("x") && error["seq"] == .number(2))
        #expect(session.phase == .idle)
        // seq 2 was not used up: the connection's last seq stayed 1.
        let accepted = Self.replies(&session, Self.pointer("move", x: 300, t: 1032, seq: 2), at: 0.132)
        #expect(Self.errors(accepted).isEmpty)
        let frame = try #require(Self.frames(accepted).last)
        #expect(frame["ack"] == .number(2) && frame["phase"] == .string("tracking"))
        for reply in accepted { #expect(Self.hasNoNulls(reply)) }
    }

    // MARK: - Time far ahead of arrival

    @Test(
        "an up at t: 1e300 is refused; one 1e12 ms ahead is clamped to the lead; the session completes and configures again"
    )
    func upAtHugeTimeDoesNotWedge() throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        _ = Self.replies(&session, Self.pointer("down", t: 1000, seq: 1), at: 0.1)
        _ = Self.replies(&session, Self.pointer("move", x: 250, t: 1100, seq: 2), at: 0.2)
        let refused = Self.replies(&session, Self.pointer("up", x: 250, t: 1e300, seq: 3), at: 0.3)
        let error = try #require(Self.errors(refused).first)
        #expect(error["code"] == .string("invalid-field") && error["field"] == .string("t"), "\(error)")
        #expect(session.phase == .tracking)
        let busy = Self.replies(&session, #"{"type":"configure","fps":30}"#, at: 0.35)
        #expect(Self.errors(busy).first?["code"] == .string("busy"))
        let up = Self.replies(&session, Self.pointer("up", x: 250, t: 1e12, seq: 3), at: 0.4)
        #expect(Self.errors(up).isEmpty)
        #expect(session.phase == .finishing)
        var ticks = 0
        while session.nextTick != nil && ticks < 2000 {
            _ = session.tick()
            ticks += 1
        }
        #expect(session.phase == .finished)
        #expect(
            session.now <= 0.4 + SessionCore.maximumLead + SessionSettings().configuration.longestAnimation + 1 / 60)
        let configured = Self.replies(&session, #"{"type":"configure","fps":30}"#, at: session.now)
        #expect(configured.first?["type"] == .string("configured"))
    }

    @Test("within a gesture a pointer maps at most maximumLead ahead of its arrival: further, the anchor moves")
    func leadLimit() throws {
        var core = SessionCore(id: "lead", settings: SessionSettings())
        // The down anchors the client's clock: t 5,000 ms ↔ 2 s server time.
        _ = try core.pointer(try Self.message(Self.pointer("down", t: 5_000, seq: 1)), receivedAt: 2)
        // A move sent 10 s later by the client but arriving 0 s later: exactly the limit.
        _ = try core.pointer(try Self.message(Self.pointer("move", x: 120, t: 15_000, seq: 2)), receivedAt: 2)
        #expect(core.engine.time == 12)
        // 10 ms further: clamped to the limit (the anchor moves back 10 ms), not refused.
        _ = try core.pointer(try Self.message(Self.pointer("move", x: 130, t: 15_010, seq: 3)), receivedAt: 2)
        #expect(core.engine.time == 12 && core.ack == 3)
        // The gesture's spacing holds from the new anchor on: 20 ms later by the client, 20 ms later here.
        _ = try core.pointer(try Self.message(Self.pointer("move", x: 140, t: 15_030, seq: 4)), receivedAt: 2.5)
        #expect(abs(core.engine.time - 12.02) < 1e-9)
        // A new gesture re-anchors: any in-range t is accepted for its down.
        _ = try core.pointer(try Self.message(Self.pointer("up", x: 140, t: 15_040, seq: 5)), receivedAt: 2.5)
        _ = core.tick(at: 20)
        _ = try core.pointer(try Self.message(Self.pointer("down", t: 9e12, seq: 6)), receivedAt: 30)
        #expect(core.engine.time == 30)
    }

    @Test(
        "a down held up 20 s, then the gesture in a burst: the release is accepted and the transition ends (no wedge)")
    func stalledDownStillReleases() throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        // The client's events are 10.6 s apart from the down, but all arrive at 11.6 s.
        var t = 1000.0
        _ = Self.replies(&session, Self.pointer("down", x: 100, t: t, seq: 1), at: 11.6)
        for seq in 2...6 {
            t += 2120
            #expect(
                Self.errors(
                    Self.replies(&session, Self.pointer("move", x: 100 + 30 * Double(seq), t: t, seq: seq), at: 11.6)
                ).isEmpty)
        }
        #expect(Self.errors(Self.replies(&session, Self.pointer("up", x: 280, t: t + 50, seq: 7), at: 11.6)).isEmpty)
        var ticks = 0
        while session.nextTick != nil && ticks < 2000 {
            _ = session.tick()
            ticks += 1
        }
        #expect(session.phase == .finished || session.phase == .cancelled)
        let configured = Self.replies(&session, #"{"type":"configure","fps":30}"#, at: session.now)
        #expect(configured.first?["type"] == .string("configured"))
    }

    @Test("a release at the largest lead and slowest settings rests within lead + longestAnimation + one tick")
    func completionBound() throws {
        var core = SessionCore(id: "bound", settings: SessionSettings())
        _ = try core.configure(
            MessageFields(
                Self.json(
                    #"{"type":"configure","duration":60,"completionSpeed":0.01,"fps":1,"clamp":[0,1],"flingVelocity":1,"completionCurve":"spring","spring":{"damping":0.05},"completionDamping":0.05,"timeScale":0.05,"pitfalls":["negative-completion-speed"]}"#
                )))
        // The down arrives late (held up 9.8 s), the rest at once: they map up to 9.82 s ahead.
        // Past the whole distance, then a flick back: a fling that cancels from progress 1, the
        // longest completion there is (60 s / 0.05, capped at 60 s, and the flash).
        let received = 10.0
        _ = try core.pointer(try Self.message(Self.pointer("down", x: 100, t: 0, seq: 1)), receivedAt: received)
        _ = try core.pointer(try Self.message(Self.pointer("move", x: 400, t: 9_800, seq: 2)), receivedAt: received)
        _ = try core.pointer(try Self.message(Self.pointer("move", x: 350, t: 9_810, seq: 3)), receivedAt: received)
        _ = try core.pointer(try Self.message(Self.pointer("up", x: 350, t: 9_820, seq: 4)), receivedAt: received)
        #expect(core.engine.phase == .cancelling && core.engine.lastRelease?.progress == 1)
        let settings = core.settings
        #expect(settings.configuration.longestAnimation == TransitionConfiguration.longestPossibleAnimation)
        let bound =
            received + SessionCore.maximumLead + settings.configuration.longestAnimation + 1 / Double(settings.fps)
        let end = try #require(core.engine.completionEndTime)
        #expect(end <= received + SessionCore.maximumLead + settings.configuration.longestAnimation)
        #expect(end - received > 69.8)  // the worst case really is exercised (9.82 + 60 + 1/60)
        // The display link ticks every 1/fps from the release on, as the server's does.
        var now = received
        while core.engine.phase.isAnimating && now <= bound {
            now += 1 / Double(settings.fps)
            _ = core.tick(at: now)
            #expect(core.engine.progress.isFinite)
        }
        #expect(core.engine.phase == .cancelled)
        #expect(now <= bound)
    }

    // MARK: - Bounded echoes

    @Test("a key of 32,700 tabs gets an error reply under 400 bytes")
    func tabKeyEchoIsBounded() throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        let tabs = String(repeating: "\t", count: 32_700)
        let text = #"{"type":"ping","seq":1,"t":0,""# + tabs.replacingOccurrences(of: "\t", with: "\\t") + #"":1}"#
        let replies = session.receive(text, at: 0.1)
        #expect(replies.count == 1)
        let reply = try #require(replies.first)
        #expect(reply.utf8.count < 400, "\(reply.utf8.count) bytes")
        let error = Self.json(reply)
        #expect(error["code"] == .string("unknown-field"))
        #expect(error["field"] == .string(String(repeating: "\t", count: 10) + "…"))
        // In a message, control characters are shown, not echoed (`WireError.quoted`).
        #expect(error["message"] == .string("unknown field '" + String(repeating: "U+0009", count: 10) + "U+00…'"))
    }

    @Test(
        "every echo of client text is bounded: type, phase, field, nested field, join id, a configure name",
        arguments: [
            #"{"type":"X"}"#,
            #"{"type":"pointer","phase":"X","x":1,"y":1,"t":1,"seq":1}"#,
            #"{"type":"configure","X":1}"#,
            #"{"type":"configure","spring":{"X":1}}"#,
            #"{"type":"join","session":"X"}"#,
            #"{"type":"configure","transition":"X"}"#,  // echoed by SessionSettings: the central cap bounds it
        ])
    func echoesAreBounded(template: String) throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        let huge = String(repeating: "\\u0009\\\"é\\\\", count: 5_000)
        let reply = try #require(session.receive(template.replacingOccurrences(of: "X", with: huge), at: 0.1).first)
        #expect(reply.utf8.count < 450, "\(reply.utf8.count) bytes: \(reply.prefix(200))")
        let error = Self.json(reply)
        #expect(error["type"] == .string("error"))
        if case .string(let field)? = error["field"] {
            #expect(field.utf8.count <= WireError.maximumEchoBytes + "…".utf8.count + "spring.".utf8.count)
        }
    }

    @Test("quoted(_:) shows control and format characters as U+XXXX, bounded")
    func quotedShowsInvisibleCharacters() {
        #expect(WireError.quoted("a\u{202E}b") == "'aU+202Eb'")
        #expect(WireError.quoted("x\u{200D}\u{0007}") == "'xU+200DU+0007'")
        let overrides = WireError.quoted(String(repeating: "\u{202E}", count: 10_000))
        #expect(
            !overrides.unicodeScalars.contains("\u{202E}") && overrides.utf8.count <= WireError.maximumEchoBytes + 8)
    }

    @Test("truncated(_:limit:) counts bytes as written, cuts on a Character boundary, marks the cut")
    func truncation() {
        let a64 = String(repeating: "a", count: 64)
        #expect(WireError.truncated(a64) == a64)
        #expect(WireError.truncated(a64 + "b") == a64 + "…")
        #expect(WireError.truncated(String(repeating: "\t", count: 10)) == String(repeating: "\t", count: 10))
        #expect(WireError.truncated(String(repeating: "\t", count: 11)) == String(repeating: "\t", count: 10) + "…")
        #expect(WireError.truncated(String(repeating: "\"", count: 40)) == String(repeating: "\"", count: 32) + "…")
        #expect(WireError.truncated(String(repeating: "é", count: 40)) == String(repeating: "é", count: 32) + "…")
        // "e" + a combining acute: one Character of 3 bytes; never split.
        let cluster = "e\u{301}"
        let cut = WireError.truncated(String(repeating: cluster, count: 30))
        #expect(cut == String(repeating: cluster, count: 21) + "…")
        // A family emoji (25 bytes, one Character): two fit, the third does not.
        let family = "👨‍👩‍👧‍👦"
        #expect(WireError.truncated(String(repeating: family, count: 3)) == family + family + "…")
        #expect(WireError.quoted("x") == "'x'")
        #expect(WireError.quoted(a64 + "b") == "'" + a64 + "…'")
    }

    @Test("WireError caps message and field however they are set")
    func centralCaps() {
        var error = WireError(
            .invalidField, String(repeating: "m", count: 10_000), field: String(repeating: "f", count: 10_000))
        #expect(error.message == String(repeating: "m", count: WireError.maximumMessageBytes) + "…")
        #expect(error.field == String(repeating: "f", count: WireError.maximumEchoBytes) + "…")
        error.field = "spring." + String(repeating: "g", count: 500)
        #expect(error.field == "spring." + String(repeating: "g", count: WireError.maximumEchoBytes - 7) + "…")
        error.field = nil
        #expect(error.field == nil)
        let configuration = WireError(
            ConfigurationError(field: "duration", allowed: "x", got: String(repeating: "9", count: 1_000)))
        #expect(configuration.message.utf8.count <= WireError.maximumMessageBytes + 3)
    }
}
