import Testing
import TransitionCore

@testable import SandboxSession

/// `configure`'s `prediction` as the session state machine meets it (SessionHub+Prediction):
/// off by default, the table after `configured` once asked, a viewer gets none, and a bad value
/// is refused and changes nothing.
@Suite("PredictionSession")
struct PredictionSessionTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)

    func receive(_ hub: inout SessionHub, _ text: String, from id: ConnectionID, at now: Double) -> [SessionAction] {
        hub.receiveOnOneThread(Array(text.utf8), from: id, at: now)
    }

    func connected() -> SessionHub {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        return hub
    }

    static func table(_ kind: TransitionKind) -> TrackingTable? {
        return TrackingTable(try! TrackingPicture(configuration: TransitionConfiguration(kind: kind)))
    }

    static func predictions(_ actions: [SessionAction]) -> [TrackingTable?] {
        actions.compactMap { if case .send(_, .prediction(let table, _)) = $0 { return table } else { return nil } }
    }

    @Test func offByDefault() {
        var hub = connected()
        let actions = receive(&hub, #"{"type":"configure","transition":"push"}"#, from: driver, at: 1)
        #expect(Self.predictions(actions).isEmpty)
        #expect(!actions.contains { if case .charge = $0 { true } else { false } })
    }

    @Test func askingAloneIsAnsweredWithTheTableAndCharged() throws {
        var hub = connected()
        let actions = receive(&hub, #"{"type":"configure","prediction":true}"#, from: driver, at: 1)
        let table = try #require(Self.table(.pop))
        #expect(actions == [.send(driver, .prediction(table)), .charge(driver, bytes: table.encodedCount)])
        let text = ServerMessages.encode(.prediction(table), headroom: 0).text
        #expect(text.hasPrefix(#"{"type":"prediction","table":{"tolerance":0.25,"pan":{"axis":"x","direction":"both""#))
    }

    @Test func theTableFollowsEachConfigured() throws {
        var hub = connected()
        _ = receive(&hub, #"{"type":"configure","prediction":true}"#, from: driver, at: 1)
        let actions = receive(&hub, #"{"type":"configure","transition":"push","id":"r1"}"#, from: driver, at: 2)
        guard actions.count >= 3, case .send(driver, .configured) = actions[0] else {
            Issue.record("expected configured first, got \(actions)")
            return
        }
        // Right after `configured`, and like it, the answer to the request (its id echoed).
        guard case .send(driver, .prediction(let table, let id)) = actions[1] else {
            Issue.record("expected the table second, got \(actions)")
            return
        }
        #expect(table == Self.table(.push) && table != nil && id != nil)
        _ = receive(&hub, #"{"type":"configure","prediction":false}"#, from: driver, at: 3)
        let fade = receive(&hub, #"{"type":"configure","transition":"fade"}"#, from: driver, at: 4)
        #expect(Self.predictions(fade).isEmpty)
    }

    @Test func aTableOverTheByteBoundIsNotSent() {
        var hub = connected()
        _ = receive(&hub, #"{"type":"configure","prediction":true}"#, from: driver, at: 1)
        let text = #"{"type":"configure","transition":"flip-horizontal","container":[4000,4000]}"#
        let actions = receive(&hub, text, from: driver, at: 2)
        #expect(Self.predictions(actions) == [nil])
        #expect(!actions.contains { if case .charge = $0 { true } else { false } })
    }

    /// Tables are built at most `tableBurst` at once and `tablesPerSecond` after: past them the
    /// answer is `null` (and nothing is charged), and the bucket refills with time.
    @Test func tablesAreRateLimited() {
        var hub = connected()
        var answers: [Bool] = []
        for i in 0..<10 {
            let at = 1 + Double(i) * 0.001
            let actions = receive(&hub, #"{"type":"configure","prediction":true}"#, from: driver, at: at)
            answers.append(Self.predictions(actions).first! != nil)
        }
        #expect(answers == Array(repeating: true, count: 8) + [false, false])
        let later = receive(&hub, #"{"type":"configure","prediction":true}"#, from: driver, at: 1.5)
        #expect(Self.predictions(later).first! != nil)
    }

    /// The thread's build budget is shared: fresh connections, each with a full bucket of its
    /// own, asking at once for tables of the costliest picture (the pop's spring at damping 0.05,
    /// past the sample bound; each a different duration, so none is cached) get `sampleBurst` worth built, and the next one nothing built.
    @Test func theThreadsBudgetIsSharedByItsConnections() {
        var hub = SessionHub()
        let burst = Int(PredictionTables.sampleBurst / PredictionTables.worstBuild)
        for i in 0...burst {
            let id = ConnectionID(number: 10 + i)
            var actions: [SessionAction] = []
            hub.connect(id, session: "s\(i)", into: &actions)
            let text =
                #"{"type":"configure","prediction":true,"transition":"pop","spring":{"damping":0.05},"#
                + #""duration":0.\#(60 + i)}"#
            #expect(Self.predictions(receive(&hub, text, from: id, at: 1)) == [nil])
            #expect(hub.predictionTables.builds == min(i + 1, burst))
        }
    }

    @Test func aViewerIsToldItHasNone() {
        var hub = connected()
        var actions: [SessionAction] = []
        hub.connect(viewer, session: "t", into: &actions)
        _ = receive(&hub, #"{"type":"join","session":"s"}"#, from: viewer, at: 1)
        #expect(
            receive(&hub, #"{"type":"configure","prediction":true}"#, from: viewer, at: 2) == [
                .send(viewer, .prediction(nil))
            ])
    }

    @Test(arguments: [
        (#"{"type":"configure","prediction":1}"#, "invalid-field"),
        (#"{"type":"configure","prediction":null}"#, "invalid-field"),
        (#"{"type":"configure","prediction":"yes"}"#, "invalid-field"),
        (#"{"type":"configure","prediction":{"on":true}}"#, "invalid-field"),
        (#"{"type":"configure","prediction":true,"fps":0}"#, "invalid-config"),
        (#"{"type":"configure","prediction":true,"wings":1}"#, "unknown-field"),
    ])
    func badValuesChangeNothing(_ text: String, _ code: String) {
        var hub = connected()
        let before = hub
        let actions = receive(&hub, text, from: driver, at: 1)
        guard actions.count == 1, case .send(_, .error(let error)) = actions[0] else {
            Issue.record("expected one error, got \(actions)")
            return
        }
        #expect(error.code == code)
        #expect(hub == before)
    }
}
