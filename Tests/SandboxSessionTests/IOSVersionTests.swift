import Testing
import TransitionCore

@testable import SandboxSession

/// The scene's `ios` version: parsed strictly, the newest by default, echoed in `scene-state`
/// (docs/PROTOCOL.md "The scene", docs/SCENE.md "The iOS version").
@Suite("The scene's iOS version")
struct IOSVersionTests {
    static let root = #""root":{"id":"root","kind":"plain"}"#

    static func setup(_ fields: String) throws -> SceneSetup {
        guard case .scene(let setup) = try ClientMessage.parse(Array(#"{"type":"scene",\#(fields)}"#.utf8)) else {
            preconditionFailure("not a scene message")
        }
        return setup
    }

    @Test func absentIsTheNewest() throws {
        #expect(try Self.setup(Self.root).options.ios == .newest)
        #expect(IOSVersion.newest == .ios26)
    }

    @Test(arguments: IOSVersion.allCases)
    func everyReleaseParses(_ version: IOSVersion) throws {
        #expect(try Self.setup(#""ios":"\#(version.rawValue)",\#(Self.root)"#).options.ios == version)
    }

    /// Apple went from iOS 18 to iOS 26: 19…25 never existed. Numbers are refused too (the wire
    /// names a release by its string).
    @Test(arguments: [#""19""#, #""6""#, #""13.4""#, "13", "null", #""""#])
    func unknownReleasesAreRefused(_ value: String) throws {
        let error = try #require(throws: WireError.self) { try Self.setup(#""ios":\#(value),\#(Self.root)"#) }
        #expect(error.message.contains("'ios'"), "\(error.message)")
    }

    @Test func ordered() {
        #expect(IOSVersion.ios8 < .ios13 && IOSVersion.ios18 < .ios26)
        #expect(IOSVersion.ios15.atLeast(15) && !IOSVersion.ios14.atLeast(15))
        #expect(IOSVersion.allCases == IOSVersion.allCases.sorted())
    }

    @Test func echoedInSceneState() throws {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        let replies = session.receive(#"{"type":"scene","ios":"8",\#(Self.root)}"#, at: 0).map {
            try! JSONParser.parse(Array($0.utf8))
        }
        let state = try #require(replies.first { $0["type"] == .string("scene-state") })
        #expect(state["ios"] == .string("8"))
    }
}
