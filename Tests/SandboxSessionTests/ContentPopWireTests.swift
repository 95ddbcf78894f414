import Testing
import TransitionCore

@testable import SandboxSession

/// The content swipe's wire: a horizontal scroll view's `atLeadingEdge` (default true) and the
/// scene's `contentPop` (default true: `interactiveContentPopGestureRecognizer.isEnabled`),
/// parsed strictly; `atLeadingEdge: false` echoed in `scene-state` (docs/PROTOCOL.md).
@Suite("The content swipe on the wire")
struct ContentPopWireTests {
    typealias W = SceneViewWireTests

    static func setup(_ text: String) throws -> SceneSetup {
        guard case .scene(let setup) = try ClientMessage.parse(Array(text.utf8)) else {
            preconditionFailure("not a scene message")
        }
        return setup
    }

    /// A view of `kind` with `extra` fields, 1 × 1 at the origin.
    static func view(_ id: String, _ kind: String, _ extra: String = "") -> String {
        #"{"id":"\#(id)","kind":"\#(kind)"\#(extra),"frame":\#(W.frame(0, 0, 1, 1))}"#
    }

    @Test func atLeadingEdgeDefaultsToTrueAndParses() throws {
        let root = try #require(
            try W.root(
                "[" + Self.view("a", "horizontal-scroll") + ","
                    + Self.view("b", "horizontal-scroll", #","atLeadingEdge":false"#) + "]"))
        #expect(root.views.map(\.atLeadingEdge) == [true, false])
    }

    @Test(arguments: [
        ("[" + view("a", "vertical-scroll", #","atLeadingEdge":true"#) + "]", "horizontal-scroll"),
        ("[" + view("a", "view", #","atLeadingEdge":false"#) + "]", "horizontal-scroll"),
        ("[" + view("a", "pan", #","atLeadingEdge":true"#) + "]", "horizontal-scroll"),
        ("[" + view("a", "horizontal-scroll", #","atLeadingEdge":1"#) + "]", "atLeadingEdge"),
        ("[" + view("a", "horizontal-scroll", #","atLeadingEdge":null"#) + "]", "atLeadingEdge"),
    ])
    func atLeadingEdgeRefusals(_ views: String, _ words: String) throws {
        let error = try #require(throws: WireError.self) { try W.root(views) }
        #expect(error.message.contains(words) || (error.field ?? "").contains(words), "\(error.message)")
        #expect(error.field == "root.views[0].atLeadingEdge", "\(error.field ?? "")")
    }

    @Test func contentPopOption() throws {
        #expect(try Self.setup(#"{"type":"scene","root":{"id":"r"}}"#).options.contentPop)
        #expect(try !Self.setup(#"{"type":"scene","contentPop":false,"root":{"id":"r"}}"#).options.contentPop)
        let error = try #require(throws: WireError.self) {
            try Self.setup(#"{"type":"scene","contentPop":"no","root":{"id":"r"}}"#)
        }
        #expect(error.field == "contentPop")
    }

    @Test func aScrollAwayFromItsLeadingEdgeIsEchoed() throws {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        let id = ConnectionID(number: 1)
        hub.connect(id, session: "s", into: &actions)
        actions.removeAll()
        let views =
            "[" + Self.view("a", "horizontal-scroll") + ","
            + Self.view("b", "horizontal-scroll", #","atLeadingEdge":false"#) + "]"
        let text = #"{"type":"scene","root":{"id":"root","views":\#(views)}}"#
        hub.receive(Array(text.utf8), from: id, at: 1, into: &actions)
        let state = try #require(
            actions.compactMap { action -> String? in
                guard case .send(_, let message) = action, case .sceneState = message else { return nil }
                return ServerMessages.encode(message, headroom: 0).text
            }.first)
        let frame = #""frame":{"x":0,"y":0,"width":1,"height":1}"#
        #expect(state.contains(#"{"id":"a","kind":"horizontal-scroll",\#(frame)}"#))
        #expect(state.contains(#"{"id":"b","kind":"horizontal-scroll",\#(frame),"atLeadingEdge":false}"#))
    }
}
