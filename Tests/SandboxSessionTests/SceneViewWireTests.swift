import Testing
import TransitionCore

@testable import SandboxSession

/// A controller's `views` on the wire (`SceneView`): parsed strictly and bounded, echoed in
/// `scene-state`'s tree (docs/PROTOCOL.md "Controllers on the wire").
@Suite("A controller's named views on the wire")
struct SceneViewWireTests {
    static func root(_ views: String) throws -> SceneController? {
        let text = #"{"type":"scene","root":{"id":"root","views":\#(views)}}"#
        guard case .scene(let setup) = try ClientMessage.parse(Array(text.utf8)) else {
            preconditionFailure("not a scene message")
        }
        return setup.root
    }

    static func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> String {
        #"{"x":\#(x),"y":\#(y),"width":\#(w),"height":\#(h)}"#
    }

    @Test func parsesKindsAndFrames() throws {
        let root = try #require(
            try Self.root(
                #"[{"id":"thumb","frame":\#(Self.frame(16, 120, 120, 90))},"#
                    + #"{"id":"strip","kind":"horizontal-scroll","frame":\#(Self.frame(0, 300, 390, 200))}]"#))
        #expect(
            root.views == [
                SceneView(id: "thumb", kind: .view, frame: Rect(x: 16, y: 120, width: 120, height: 90)),
                SceneView(id: "strip", kind: .horizontalScroll, frame: Rect(x: 0, y: 300, width: 390, height: 200)),
            ])
    }

    @Test func absentIsNone() throws {
        let text = #"{"type":"scene","root":{"id":"root"}}"#
        guard case .scene(let setup) = try ClientMessage.parse(Array(text.utf8)) else { return }
        #expect(setup.root?.views == [])
    }

    /// Each refusal names the field by its path from the message.
    @Test(arguments: [
        (#"{"id":"a"}"#, "array"),
        (#"[{"id":"a"}]"#, "'frame' is required"),
        (#"[{"id":"a","frame":\#(frame(0, 0, 0, 10))}]"#, "greater than 0"),
        (#"[{"id":"a","frame":\#(frame(0, 0, -5, 10))}]"#, "greater than 0"),
        (#"[{"id":"a","frame":{"x":0,"y":0,"width":1e308,"height":1}}]"#, "within"),
        (#"[{"id":"a","frame":{"x":-1e5,"y":0,"width":1,"height":1}}]"#, "within"),
        (#"[{"id":"a","frame":{"x":0,"y":0,"width":1}}]"#, "height"),
        (#"[{"id":"a","frame":{"x":0,"y":0,"width":1,"height":1,"z":1}}]"#, "z"),
        (#"[{"id":"a","kind":"button","frame":\#(frame(0, 0, 1, 1))}]"#, "horizontal-scroll"),
        (#"[{"id":"","frame":\#(frame(0, 0, 1, 1))}]"#, "1–64 bytes"),
        (#"[{"id":"a","frame":\#(frame(0, 0, 1, 1))},{"id":"a","frame":\#(frame(0, 0, 1, 1))}]"#, "duplicate"),
        (
            "[" + Array(repeating: #"{"id":"a","frame":\#(frame(0, 0, 1, 1))}"#, count: 9).joined(separator: ",") + "]",
            "at most 8"
        ),
        ("[1]", "object"),
    ])
    func refusals(_ views: String, _ words: String) throws {
        let error = try #require(throws: WireError.self) { try Self.root(views) }
        #expect(error.message.contains(words) || (error.field ?? "").contains(words), "\(error.message)")
        #expect((error.field ?? "").hasPrefix("root.views") || error.field == "root.views", "\(error.field ?? "")")
    }

    /// `scene-state` echoes them in the controller's tree, as given.
    @Test func echoedInSceneState() throws {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        let id = ConnectionID(number: 1)
        hub.connect(id, session: "s", into: &actions)
        actions.removeAll()
        let views = #"[{"id":"thumb","frame":\#(Self.frame(16, 120, 120, 90))}]"#
        let text = #"{"type":"scene","root":{"id":"root","views":\#(views)}}"#
        hub.receive(Array(text.utf8), from: id, at: 1, into: &actions)
        let echoed = actions.compactMap { action -> String? in
            guard case .send(_, let message) = action, case .sceneState = message else { return nil }
            return ServerMessages.encode(message, headroom: 0).text
        }.first
        let state = try #require(echoed)
        let frame = #"{"x":16,"y":120,"width":120,"height":90}"#
        #expect(state.contains(#""views":[{"id":"thumb","kind":"view","frame":\#(frame)}]"#))
    }
}
