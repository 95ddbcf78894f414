import Testing
import TransitionCore

@testable import SandboxSession

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
