import Foundation
import Testing
import TransitionCore

@testable import SandboxSession

/// `configure {timeScale}` at the wire: applied and echoed like every setting, refused
/// outside 0.05…1 naming the field with nothing changed; on the display link a slowed
/// completion keeps the session's fps and spans 1/timeScale as many frames, and a rotation
/// of the interface slows too.
@Suite("Slow animations in a session")
struct TimeScaleSessionTests {
    typealias Wire = ReleaseRuleSettingsTests

    @Test("echoed in configured; 1 by default")
    func echoed() throws {
        var session = Wire.connected()
        let first = try #require(Wire.configure(&session, #""fps":60"#).first?["config"])
        #expect(first["timeScale"] == .number(1))
        let slowed = try #require(Wire.configure(&session, #""timeScale":0.1"#).first?["config"])
        #expect(slowed["timeScale"] == .number(0.1))
        // Absent, it is kept.
        let kept = try #require(Wire.configure(&session, #""duration":0.3"#).first?["config"])
        #expect(kept["timeScale"] == .number(0.1) && kept["duration"] == .number(0.3))
    }

    @Test(
        "bad values are refused naming the field, and change nothing",
        arguments: [
            (#""timeScale":0"#, "invalid-config"),
            (#""timeScale":0.01"#, "invalid-config"),
            (#""timeScale":2"#, "invalid-config"),
            (#""timeScale":-0.5"#, "invalid-config"),
            (#""timeScale":1e308"#, "invalid-config"),
            (#""timeScale":"0.1""#, "invalid-field"),
            (#""timeScale":null"#, "invalid-field"),
            (#""timeScale":[0.1]"#, "invalid-field"),
            (#""duration":0.3,"timeScale":5"#, "invalid-config"),
        ] as [(String, String)])
    func refused(fields: String, code: String) throws {
        var session = Wire.connected()
        let before = try #require(Wire.configure(&session, #""timeScale":0.5"#).first?["config"])
        let reply = try #require(Wire.configure(&session, fields).first)
        #expect(reply["type"] == .string("error"))
        #expect(reply["code"] == .string(code))
        #expect(reply["field"] == .string("timeScale"))
        let after = try #require(Wire.configure(&session, #""fps":60"#).first?["config"])
        #expect(before == after)
    }

    /// Frames of one play of a 0.3 s fade, with their `sent` times (ms).
    static func playFrames(timeScale: Double) throws -> [Double] {
        var session = Wire.connected()
        _ = Wire.configure(&session, #""transition":"fade","duration":0.3,"fps":60,"timeScale":\#(timeScale)"#)
        var sent: [Double] = []
        var replies = session.receive(#"{"type":"play"}"#, at: session.now + 0.01).map(Wire.json)
        while session.nextTick != nil && sent.count < 10_000 {
            for reply in replies where reply["type"] == .string("frame") {
                if case .number(let ms)? = reply["sent"] { sent.append(ms) }
            }
            replies = session.tick().map(Wire.json)
        }
        for reply in replies where reply["type"] == .string("frame") {
            if case .number(let ms)? = reply["sent"] { sent.append(ms) }
        }
        #expect(session.phase == .finished)
        return sent
    }

    @Test("a slowed play: frames stay 1/fps apart and span duration / timeScale")
    func slowedPlay() throws {
        let real = try Self.playFrames(timeScale: 1)
        let slow = try Self.playFrames(timeScale: 0.1)
        let realSpan = try #require(real.last) - real[0]
        let slowSpan = try #require(slow.last) - slow[0]
        #expect(abs(realSpan - 300) <= 17)
        #expect(abs(slowSpan - 3_000) <= 17)
        #expect(slow.count >= 10 * (real.count - 2))
        for (a, b) in zip(slow, slow.dropFirst()) where b > a { #expect(abs(b - a - 1000.0 / 60) < 0.01) }
    }

    @Test("a device turn at timeScale 0.25 takes four times as many ticks")
    func slowedRotation() throws {
        func ticks(_ timeScale: Double) -> Int {
            var h = SessionSceneTests.Harness()
            h.send(#"{"type":"configure","timeScale":\#(timeScale)}"#)
            h.send(SessionOrientationTests.allOrientations)
            h.send(#"{"type":"device","orientation":"landscapeLeft"}"#)
            var n = 0
            while h.scene?.rotation != nil && n < 1_000 {
                h.now += 1 / 60
                n += 1
                var actions: [SessionAction] = []
                h.hub.tick(fps: 60, at: h.now, into: &actions)
            }
            #expect(h.scene?.scene.interfaceOrientation == .landscapeRight)
            return n
        }
        // A phone's 0.3 s, less the 0.1 s that passes with the message: 12 ticks at 1,
        // 0.3 / 0.25 − 0.1 s at 0.25.
        let real = ticks(1), slow = ticks(0.25)
        #expect(abs(Double(real) - 0.2 * 60) <= 1)
        #expect(abs(Double(slow) - 1.1 * 60) <= 1)
    }
}
