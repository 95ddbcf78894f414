import Testing
import TransitionCore

@testable import SandboxSession

/// A scene names at most `SceneSession.viewLimit` views over its life, in all: a launch or an
/// operation past it is refused and changes nothing (each view is a layer of every frame).
@Suite("The bound on a scene's named views")
struct SceneViewLimitTests {
    static func controller(_ id: String, views: Int) -> String {
        let list = (0..<views).map { #"{"id":"v\#($0)","frame":{"x":0,"y":0,"width":10,"height":10}}"# }
        return #"{"id":"\#(id)","views":[\#(list.joined(separator: ","))]}"#
    }

    static func run(_ messages: [String]) -> [SessionAction] {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        let id = ConnectionID(number: 1)
        hub.connect(id, session: "s", into: &actions)
        var now = 1.0
        var last: [SessionAction] = []
        for text in messages {
            last = []
            hub.receive(Array(text.utf8), from: id, at: now, into: &last)
            now += 0.2
        }
        return last
    }

    static func errorMessage(_ actions: [SessionAction]) -> String? {
        for case .send(_, .error(let error)) in actions { return error.message }
        return nil
    }

    @Test func aLaunchPastTheBoundIsRefused() {
        let root =
            #"{"id":"nav","kind":"navigation","stack":[\#(Self.controller("a", views: 8)),"#
            + #"\#(Self.controller("b", views: 8)),\#(Self.controller("c", views: 8)),"#
            + #"\#(Self.controller("d", views: 8)),\#(Self.controller("e", views: 1))]}"#
        let actions = Self.run([#"{"type":"scene","root":\#(root)}"#])
        #expect(Self.errorMessage(actions)?.contains("at most 32 views") == true, "\(actions)")
    }

    @Test func aPresentPastTheBoundIsRefusedAndOneAtItIsNot() {
        let root =
            #"{"id":"nav","kind":"navigation","stack":[\#(Self.controller("a", views: 8)),"#
            + #"\#(Self.controller("b", views: 8)),\#(Self.controller("c", views: 8))]}"#
        let scene = #"{"type":"scene","root":\#(root)}"#
        let present = #"{"type":"present","animated":false,"controller":\#(Self.controller("d", views: 8))}"#
        let atBound = Self.run([scene, present])
        #expect(Self.errorMessage(atBound) == nil, "\(atBound)")
        let past = Self.run([
            scene, present, #"{"type":"dismiss","animated":false}"#,
            #"{"type":"present","animated":false,"controller":\#(Self.controller("e", views: 1))}"#,
        ])
        #expect(Self.errorMessage(past)?.contains("at most 32 views") == true, "\(past)")
    }
}
