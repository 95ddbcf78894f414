import Testing
import TransitionCore

@testable import SandboxSession

/// Issue 14's `configure` fields at the wire: each accepted value reaches the engine and comes
/// back in `config`; each bad one is refused naming its field, and nothing changes.
@Suite("Release rules at the wire")
struct ReleaseRuleSettingsTests {
    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    static func connected() -> VirtualSession {
        var frames = FrameAssembler()
        return connected(&frames)
    }

    /// Connected, its first frame given to `frames` (the client's assembler: frames after it
    /// may be deltas, docs/PROTOCOL.md "Delta frames").
    static func connected(_ frames: inout FrameAssembler) -> VirtualSession {
        var session = VirtualSession()
        _ = whole(session.connect(at: 0).map(json), &frames)
        return session
    }

    /// The replies with every frame whole, as a client assembles them.
    static func whole(_ replies: [JSONValue], _ frames: inout FrameAssembler) -> [JSONValue] {
        replies.map { $0["type"] == .string("frame") ? frames.apply($0)! : $0 }
    }

    static func configure(_ session: inout VirtualSession, _ fields: String) -> [JSONValue] {
        session.receive(#"{"type":"configure",\#(fields)}"#, at: session.now + 0.01).map(json)
    }

    @Test("the defaults: threshold, 0.998, no band, damping 1, no pitfalls")
    func defaults() throws {
        var session = Self.connected()
        let reply = try #require(Self.configure(&session, #""fps":60"#).first)
        let config = try #require(reply["config"])
        #expect(config["releaseRule"] == .string("threshold"))
        #expect(config["decelerationRate"] == .number(0.998))
        #expect(config["rubberBand"] == .null)
        #expect(config["completionDamping"] == .number(1))
        #expect(config["pitfalls"] == .array([]))
        #expect(config["driver"] == .string("percent-driven"))
        #expect(
            config["propertyAnimator"]
                == Self.json(
                    #"{"curve":"easeInEaseOut","scrubsLinearly":true,"durationFactor":0,"pausesOnCompletion":false}"#))
    }

    @Test("every field is applied and echoed")
    func applied() throws {
        var session = Self.connected()
        let replies = Self.configure(
            &session,
            #""releaseRule":"projection","decelerationRate":0.99,"rubberBand":0.55,"completionDamping":0.7,"pitfalls":["no-abs","zero-origin-frame"]"#
        )
        let config = try #require(replies.first?["config"])
        #expect(replies.first?["type"] == .string("configured"))
        #expect(config["releaseRule"] == .string("projection"))
        #expect(config["decelerationRate"] == .number(0.99))
        #expect(config["rubberBand"] == .number(0.55))
        #expect(config["completionDamping"] == .number(0.7))
        // Written in the documented order, whatever order they were sent in.
        #expect(config["pitfalls"] == .array([.string("zero-origin-frame"), .string("no-abs")]))
        // Absent fields are kept; null clears the band; an empty list clears the pitfalls.
        let next = try #require(Self.configure(&session, #""rubberBand":null,"pitfalls":[]"#).first?["config"])
        #expect(
            next["releaseRule"] == .string("projection") && next["rubberBand"] == .null
                && next["pitfalls"] == .array([]))
    }

    @Test(
        "bad values are refused naming the field, and change nothing",
        arguments: [
            (#""releaseRule":"fling""#, "invalid-field", "releaseRule"),
            (#""releaseRule":1"#, "invalid-field", "releaseRule"),
            (#""releaseRule":null"#, "invalid-field", "releaseRule"),
            (#""decelerationRate":1"#, "invalid-config", "decelerationRate"),
            (#""decelerationRate":0"#, "invalid-config", "decelerationRate"),
            (#""decelerationRate":-0.998"#, "invalid-config", "decelerationRate"),
            (#""decelerationRate":1e308"#, "invalid-config", "decelerationRate"),
            (#""decelerationRate":1e309"#, "invalid-json", nil),
            (#""decelerationRate":"0.998""#, "invalid-field", "decelerationRate"),
            (#""decelerationRate":null"#, "invalid-field", "decelerationRate"),
            (#""rubberBand":0"#, "invalid-config", "rubberBand"),
            (#""rubberBand":-0.55"#, "invalid-config", "rubberBand"),
            (#""rubberBand":1e308"#, "invalid-config", "rubberBand"),
            (#""rubberBand":1.5"#, "invalid-config", "rubberBand"),
            (#""rubberBand":true"#, "invalid-field", "rubberBand"),
            (#""rubberBand":[0.55]"#, "invalid-field", "rubberBand"),
            (#""completionDamping":0"#, "invalid-config", "completionDamping"),
            (#""completionDamping":11"#, "invalid-config", "completionDamping"),
            (#""pitfalls":"no-abs""#, "invalid-field", "pitfalls"),
            (#""pitfalls":null"#, "invalid-field", "pitfalls"),
            (#""pitfalls":["no-abs","no-abs"]"#, "invalid-field", "pitfalls"),
            (#""pitfalls":["NO-ABS"]"#, "invalid-field", "pitfalls"),
            (#""pitfalls":[1]"#, "invalid-field", "pitfalls"),
            (#""pitfalls":[["no-abs"]]"#, "invalid-field", "pitfalls"),
            (
                #""pitfalls":["zero-origin-frame","complete-on-cancel","negative-completion-speed","no-abs","no-abs"]"#,
                "invalid-field", "pitfalls"
            ),
            (#""driver":"uiview-animate""#, "invalid-field", "driver"),
            (#""driver":null"#, "invalid-field", "driver"),
            (#""propertyAnimator":{"curve":"spring"}"#, "invalid-field", "propertyAnimator.curve"),
            (#""propertyAnimator":{"curve":[1.5,0,1,1]}"#, "invalid-config", "propertyAnimator.curve"),
            (#""propertyAnimator":{"curve":[0,0,1]}"#, "invalid-field", "propertyAnimator.curve"),
            (#""propertyAnimator":{"scrubsLinearly":"yes"}"#, "invalid-field", "propertyAnimator.scrubsLinearly"),
            (#""propertyAnimator":{"durationFactor":11}"#, "invalid-config", "propertyAnimator.durationFactor"),
            (#""propertyAnimator":{"durationFactor":-1e308}"#, "invalid-config", "propertyAnimator.durationFactor"),
            (#""propertyAnimator":{"pausesOnCompletion":1}"#, "invalid-field", "propertyAnimator.pausesOnCompletion"),
            (#""propertyAnimator":{"stopAnimation":true}"#, "unknown-field", "propertyAnimator.stopAnimation"),
            (#""propertyAnimator":[]"#, "invalid-field", "propertyAnimator"),
            // A good field beside a bad one: all or nothing.
            (#""releaseRule":"projection","rubberBand":0"#, "invalid-config", "rubberBand"),
        ] as [(String, String, String?)])
    func refused(fields: String, code: String, field: String?) throws {
        var session = Self.connected()
        let before = try #require(Self.configure(&session, #""fps":60"#).first?["config"])
        let reply = try #require(Self.configure(&session, fields).first)
        #expect(reply["type"] == .string("error"))
        #expect(reply["code"] == .string(code))
        if let field { #expect(reply["field"] == .string(field)) }
        let after = try #require(Self.configure(&session, #""fps":60"#).first?["config"])
        #expect(before == after)
    }

    @Test("the driver and the property animator's settings are applied and echoed; frames carry the animator")
    func driver() throws {
        var whole = FrameAssembler()
        var session = Self.connected(&whole)
        let replies = Self.whole(
            Self.configure(
                &session,
                #""transition":"push","driver":"property-animator","propertyAnimator":{"curve":[0.1,0.2,0.3,0.4],"scrubsLinearly":false,"durationFactor":1.5}"#
            ), &whole)
        let config = try #require(replies.first?["config"])
        #expect(config["driver"] == .string("property-animator"))
        #expect(
            config["propertyAnimator"]
                == Self.json(
                    #"{"curve":[0.1,0.2,0.3,0.4],"scrubsLinearly":false,"durationFactor":1.5,"pausesOnCompletion":false}"#
                ))
        let idle = try #require(replies.last)
        #expect(
            idle["animator"]
                == Self.json(#"{"state":"inactive","running":false,"reversed":false,"fractionComplete":0}"#))
        // Absent nested fields are kept.
        let next = try #require(
            Self.whole(Self.configure(&session, #""propertyAnimator":{"durationFactor":0}"#), &whole).first?["config"])
        #expect(next["propertyAnimator"]?["scrubsLinearly"] == .bool(false))
        // A pan: the frames say the animator is active and paused, then running reversed.
        let frames = Self.whole(Self.quickShortPan(&session), &whole).filter { $0["type"] == .string("frame") }
        #expect(frames.dropLast().last?["animator"]?["state"] == .string("active"))
        #expect(frames.dropLast().last?["animator"]?["running"] == .bool(false))
        #expect(frames.last?["animator"]?["running"] == .bool(true))
        #expect(frames.last?["animator"]?["reversed"] == .bool(true))
        // iOS 11+ semantics: setting isReversed flips the reading to 1 − f, and the reversed run
        // counts up (the engine's forward time counts down).
        let tracked = try #require(frames.dropLast().last?["animator"]?["fractionComplete"]?.number)
        let reversed = try #require(frames.last?["animator"]?["fractionComplete"]?.number)
        #expect(tracked > 0 && tracked < 0.5)
        #expect(abs(reversed - (1 - tracked)) < 1e-6 + 1e-12)  // frames carry 1e-6
        var readings = [reversed]
        while session.nextTick != nil {
            for reply in Self.whole(session.tick().map(Self.json), &whole) where reply["phase"] == .string("cancelling")
            {
                if let f = reply["animator"]?["fractionComplete"]?.number { readings.append(f) }
            }
        }
        #expect(readings.count > 2 && zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
        // Percent-driven frames have no animator.
        let back = Self.whole(Self.configure(&session, #""driver":"percent-driven""#), &whole)
        #expect(back.last?["type"] == .string("frame") && back.last?["animator"] == nil)
    }

    @Test("pausesOnCompletion: the session rests paused (no display link), and a configure may replace it")
    func pausedSession() throws {
        var whole = FrameAssembler()
        var session = Self.connected(&whole)
        var replies = Self.configure(
            &session,
            #""transition":"push","driver":"property-animator","propertyAnimator":{"pausesOnCompletion":true}"#)
        // A slow drag to 0.5, still, released: finishes and pauses at 1.
        replies += session.receive(#"{"type":"pointer","phase":"down","x":100,"y":400,"t":1000,"seq":1}"#, at: 1).map(
            Self.json)
        replies += session.receive(#"{"type":"pointer","phase":"move","x":200,"y":400,"t":1300,"seq":2}"#, at: 1.3).map(
            Self.json)
        replies += session.receive(#"{"type":"pointer","phase":"up","x":200,"y":400,"t":1600,"seq":3}"#, at: 1.6).map(
            Self.json)
        while session.nextTick != nil { replies += session.tick().map(Self.json) }
        replies = Self.whole(replies, &whole)
        #expect(session.phase == .paused)
        let paused = try #require(replies.first { $0["event"] == .string("paused") })
        #expect(paused["progress"] == .number(1))
        #expect(!replies.contains { $0["event"] == .string("finished") })
        #expect(replies.last?["phase"] == .string("paused") && replies.last?["animator"]?["state"] == .string("active"))
        let next = Self.configure(&session, #""propertyAnimator":{"pausesOnCompletion":false}"#)
        #expect(next.first?["type"] == .string("configured") && next.last?["phase"] == .string("idle"))
    }

    @Test("in a scene the animator does not pause on completion: the operation completes")
    func sceneCompletes() throws {
        var session = Self.connected()
        _ = Self.configure(&session, #""driver":"property-animator","propertyAnimator":{"pausesOnCompletion":true}"#)
        _ = session.receive(#"{"type":"scene","root":{"id":"root"}}"#, at: 0.5)
        _ = session.receive(#"{"type":"present","controller":{"id":"modal"},"interactive":true}"#, at: 0.6)
        var replies: [JSONValue] = []
        replies += session.receive(#"{"type":"pointer","phase":"down","x":195,"y":800,"t":1000,"seq":1}"#, at: 1).map(
            Self.json)
        for i in 1...12 {
            let y = 800 - 50 * Double(i)
            replies += session.receive(
                #"{"type":"pointer","phase":"move","x":195,"y":\#(y),"t":\#(1000 + 25 * Double(i)),"seq":\#(i + 1)}"#,
                at: 1 + 0.025 * Double(i)
            ).map(Self.json)
        }
        replies += session.receive(#"{"type":"pointer","phase":"up","x":195,"y":200,"t":1300,"seq":14}"#, at: 1.3).map(
            Self.json)
        while session.nextTick != nil { replies += session.tick().map(Self.json) }
        #expect(replies.contains { $0["event"] == .string("finished") })
        #expect(!replies.contains { $0["event"] == .string("paused") })
        #expect(
            replies.contains { $0["callback"] == .string("completeTransition") && $0["didComplete"] == .bool(true) })
    }

    @Test("a huge pitfalls array is refused by its length, with a short reply")
    func hugeArray() throws {
        var session = Self.connected()
        let items = Array(repeating: #""no-abs""#, count: 50_000).joined(separator: ",")
        let replies = session.receive(#"{"type":"configure","pitfalls":[\#(items)]}"#, at: 0.1)
        let reply = try #require(replies.first)
        #expect(reply.utf8.count < 300)
        #expect(Self.json(reply)["field"] == .string("pitfalls"))
    }

    @Test("an unknown name is echoed bounded")
    func boundedEcho() throws {
        var session = Self.connected()
        let huge = String(repeating: "x", count: 100_000)
        for fields in [#""pitfalls":["\#(huge)"]"#, #""releaseRule":"\#(huge)""#] {
            let reply = try #require(session.receive(#"{"type":"configure",\#(fields)}"#, at: 0.1).first)
            #expect(reply.utf8.count < 450)
        }
    }

    /// 60 pt in 150 ms at 60 Hz, released moving: progress 0.3, 2 progress/s.
    static func quickShortPan(_ session: inout VirtualSession) -> [JSONValue] {
        var replies: [JSONValue] = []
        var t = 1000.0
        replies += session.receive(#"{"type":"pointer","phase":"down","x":100,"y":400,"t":\#(t),"seq":1}"#, at: 1).map(
            json)
        for i in 1...9 {
            t = 1000 + 150 * Double(i) / 9
            let x = 100 + 60 * Double(i) / 9
            replies += session.receive(
                #"{"type":"pointer","phase":"move","x":\#(x),"y":400,"t":\#(t),"seq":\#(i + 1)}"#,
                at: 1 + Double(i) / 60
            ).map(json)
        }
        replies += session.receive(#"{"type":"pointer","phase":"up","x":160,"y":400,"t":\#(t),"seq":11}"#, at: 1.2).map(
            json)
        return replies
    }

    @Test("the released event carries reason projection and the projected progress")
    func releasedEvent() throws {
        var session = Self.connected()
        _ = Self.configure(&session, #""transition":"push","releaseRule":"projection""#)
        let released = try #require(Self.quickShortPan(&session).first { $0["event"] == .string("released") })
        #expect(released["reason"] == .string("projection"))
        #expect(released["decision"] == .string("finish"))
        // 0.3 + (2/1000)·0.998/(1 − 0.998)
        let projected = try #require(released["projected"]?.number)
        #expect(abs(projected - 1.298) < 1e-6)
    }

    @Test("with the threshold rule the same pan cancels and its released event has no projected field")
    func noProjectedField() throws {
        var session = Self.connected()
        _ = Self.configure(&session, #""transition":"push""#)
        let released = try #require(Self.quickShortPan(&session).first { $0["event"] == .string("released") })
        #expect(released["reason"] == .string("threshold") && released["decision"] == .string("cancel"))
        #expect(released["projected"] == nil)
    }
}
