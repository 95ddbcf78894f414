import Testing
import TransitionCore

@testable import SandboxSession

/// A controller's `sheet` on the wire (`SheetDetentConfiguration`): parsed strictly and bounded,
/// echoed in `scene-state` (docs/PROTOCOL.md "Sheet detents"). UIKit's defaults: Apple,
/// `UISheetPresentationController` — `detents` `[.large()]`,
/// `prefersScrollingExpandsWhenScrolledToEdge` true, the others false or nil.
@Suite("A controller's sheet on the wire")
struct SceneSheetWireTests {
    static func controller(_ sheet: String) throws -> SceneController {
        let text = #"{"type":"present","controller":{"id":"card","sheet":\#(sheet)}}"#
        guard case .sceneCommand(let command) = try ClientMessage.parse(Array(text.utf8)),
            case .present(let reference, _, _, _) = command.request,
            case .controller(let controller) = reference
        else { preconditionFailure("not a present message") }
        return controller
    }

    @Test func parsesEveryField() throws {
        let sheet = try #require(
            try Self.controller(
                #"{"detents":["medium","large",{"id":"peek","height":120}],"selectedDetent":"peek","#
                    + #""largestUndimmedDetent":"medium","prefersGrabberVisible":true,"#
                    + #""prefersScrollingExpandsWhenScrolledToEdge":false,"prefersEdgeAttachedInCompactHeight":true,"#
                    + #""widthFollowsPreferredContentSizeWhenEdgeAttached":true,"preferredCornerRadius":16}"#
            ).sheet)
        #expect(
            sheet
                == SheetDetentConfiguration(
                    detents: [.medium, .large, .custom(id: "peek", height: 120)], selectedDetent: "peek",
                    largestUndimmedDetent: "medium", prefersGrabberVisible: true,
                    prefersScrollingExpandsWhenScrolledToEdge: false, prefersEdgeAttachedInCompactHeight: true,
                    widthFollowsPreferredContentSizeWhenEdgeAttached: true, preferredCornerRadius: 16))
    }

    @Test func anEmptyObjectIsUIKitsDefaults() throws {
        #expect(try Self.controller("{}").sheet == SheetDetentConfiguration())
        #expect(SheetDetentConfiguration().detents == [.large])
        #expect(SheetDetentConfiguration().prefersScrollingExpandsWhenScrolledToEdge)
    }

    /// Each refusal names the field by its path from the message.
    @Test(arguments: [
        ("[]", "object"),
        (#"{"detents":[]}"#, "1…8"),
        (#"{"detents":"medium"}"#, "1…8"),
        (#"{"detents":[\#(Array(repeating: #""large""#, count: 9).joined(separator: ","))]}"#, "1…8"),
        (#"{"detents":["small"]}"#, "\"medium\", \"large\""),
        (#"{"detents":["large","large"]}"#, "duplicate"),
        (#"{"detents":[{"id":"a","height":1e308}]}"#, "within"),
        (#"{"detents":[{"id":"a","height":-5}]}"#, "within"),
        (#"{"detents":[{"id":"a","height":10}]}"#, "within"),
        (#"{"detents":[{"id":"a","height":99}]}"#, "within"),
        (#"{"detents":[{"id":"a"}]}"#, "height"),
        (#"{"detents":[{"id":"medium","height":100}]}"#, "cannot be"),
        (#"{"detents":[{"id":"a","height":100,"z":1}]}"#, "z"),
        (#"{"detents":[{"id":"","height":100}]}"#, "1–64 bytes"),
        (#"{"selectedDetent":"medium"}"#, "names no detent"),
        (#"{"largestUndimmedDetent":"peek"}"#, "names no detent"),
        (#"{"preferredCornerRadius":-1}"#, "0…100"),
        (#"{"preferredCornerRadius":1e300}"#, "0…100"),
        (#"{"prefersGrabberVisible":1}"#, "true or false"),
        (#"{"grabber":true}"#, "grabber"),
    ])
    func refusals(_ sheet: String, _ words: String) throws {
        let error = try #require(throws: WireError.self) { try Self.controller(sheet) }
        #expect(error.message.contains(words) || (error.field ?? "").contains(words), "\(error.message)")
        #expect((error.field ?? "").hasPrefix("controller.sheet"), "\(error.field ?? "")")
    }

    /// The shortest custom detent presents and dismisses (a 44 pt one once made the sheet's
    /// transition container shorter than the engine's 100 pt and wedged the sheet); 99 pt is
    /// refused at the parse (`refusals`).
    @Test func aShortCustomDetentIsRefused() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        let id = ConnectionID(number: 1)
        hub.connect(id, session: "s", into: &actions)
        let sheet = #"{"id":"card","presentationStyle":"pageSheet","sheet":{"detents":[{"id":"peek","height":100}]}}"#
        var now = 1.0
        for text in [
            #"{"type":"scene","ios":"26","root":{"id":"home"}}"#,
            #"{"type":"present","animated":false,"controller":\#(sheet)}"#,
            #"{"type":"dismiss","animated":false}"#,
        ] {
            actions = []
            hub.receive(Array(text.utf8), from: id, at: now, into: &actions)
            now += 0.2
            for case .send(_, .error(let error)) in actions { Issue.record("\(text): \(error.message)") }
        }
    }
}
