import Testing
import TransitionCore

@testable import SandboxSession

/// What a simulated link charges a held frame (`FrameEncoding.bytes`, recorded when the frame is
/// held) covers what the frame keeps alive over its whole hold: its parts, and the full frame's
/// and the delta's buffers — including a buffer made before it is written (the full frame's is
/// made with the encoding) and a buffer sized ahead of its message (`capacity(for:)`).
@Suite("Frame charge") struct FrameChargeTests {
    static let driver = SessionSceneTests.driver

    /// Charged when held (before either message is made) against what is kept once both are.
    static func check(_ frame: FrameEncoding) throws {
        let charged = frame.bytes
        let snapshot = try #require(frame.snapshot)
        let full = frame.full
        let delta = frame.delta
        let kept = snapshot.retainedBytes + full.retainedBytes + (delta?.retainedBytes ?? 0)
        #expect(charged >= kept, "frame \(frame.number): charged \(charged), keeps \(kept)")
        // And after the delta is made (its base let go), what it charges now still covers it.
        #expect(frame.bytes >= kept, "frame \(frame.number) after: charged \(frame.bytes), keeps \(kept)")
    }

    @Test func aStreamedFrameIsChargedWhatItKeeps() throws {
        var h = FrameRecyclingTests.streaming()
        for index in 0..<40 {
            FrameRecyclingTests.tick(&h)
            let frame = try #require(FrameRecyclingTests.frame(&h))
            // Every other frame held (as a slow link holds them), so new encodings are made too.
            if index % 2 == 0 { try Self.check(frame) } else { _ = frame.delta }
        }
    }
}

/// A small session's storage (sized from its first frames) meets a scene of the most views, with
/// the longest ids and names that need escaping: the snapshot's buffer and part lists and the
/// message buffers grow in the middle of a frame (run under ASan by `make check-sanitizers`), and
/// every delta a client applies still gives the full frame.
@Suite("Frame storage growth") struct FrameGrowthTests {
    static func name(_ prefix: String, _ index: Int) -> String {
        let body = prefix + #"\"q\\u"# + String(index)
        return body + String(repeating: "x", count: 64 - 1 - prefix.count - 6 - String(index).count)
    }

    static func controller(_ id: String, views: Int) -> String {
        let list = (0..<views).map {
            #"{"id":"\#(name(id + "v", $0))","frame":{"x":\#($0),"y":1.5,"width":10.25,"height":10}}"#
        }
        return #"{"id":"\#(name(id, 0))","title":"\#(name("t" + id, 1))","views":[\#(list.joined(separator: ","))]}"#
    }

    @Test func aLargeSceneAfterSmallFrames() throws {
        var h = SessionSceneTests.Harness()
        var client = FrameAssembler()
        var last: UInt64?
        func step(_ h: inout SessionSceneTests.Harness) throws {
            FrameRecyclingTests.tick(&h)
            guard let frame = FrameRecyclingTests.frame(&h) else { return }
            let message = frame.message(after: last)
            #expect(client.apply(FrameDeltaTests.parse(message)) == FrameDeltaTests.parse(frame.full))
            last = frame.id
        }
        for _ in 0..<20 { try step(&h) }
        let root =
            #"{"id":"nav","kind":"navigation","stack":[\#(Self.controller("a", views: 8)),"#
            + #"\#(Self.controller("b", views: 8))]}"#
        let errors = h.send(#"{"type":"scene","root":\#(root)}"#).filter {
            if case .send(_, .error) = $0 { true } else { false }
        }
        #expect(errors.isEmpty, "\(errors)")
        for _ in 0..<10 { try step(&h) }
        h.send(#"{"type":"push","animated":true,"controller":\#(Self.controller("c", views: 8))}"#)
        for _ in 0..<60 { try step(&h) }
        h.send(#"{"type":"present","animated":true,"controller":\#(Self.controller("d", views: 8))}"#)
        for _ in 0..<60 { try step(&h) }
        FrameRecyclingTests.tick(&h)
        let full = try #require(FrameRecyclingTests.frame(&h)?.full.text)
        #expect(full.contains(#"\"q\\u"#) && full.utf8.count > 4_000, "\(full.utf8.count) bytes")
    }
}
