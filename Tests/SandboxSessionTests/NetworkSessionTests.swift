import PropertyBased
import Testing
import TransitionCore

@testable import SandboxSession

/// The simulated network as a session meets it: `configure`'s `network`, the `link` answer,
/// exact delivery times on the virtual clock, and decisions that do not depend on the network.
@Suite("Network lab sessions") struct NetworkSessionTests {
    let driver = ConnectionID(number: 1)
    let viewer = ConnectionID(number: 2)

    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }
    static func type(_ text: String) -> String { json(text)["type"]?.string ?? "?" }
    static func pointer(_ phase: String, x: Double, t: Double, seq: Int) -> String {
        #"{"type":"pointer","phase":"\#(phase)","x":\#(x),"y":400,"t":\#(t),"seq":\#(seq)}"#
    }

    func receive(_ hub: inout SessionHub, _ text: String, from id: ConnectionID, at now: Double) -> [SessionAction] {
        var actions: [SessionAction] = []
        hub.receive(Array(text.utf8), from: id, at: now, into: &actions)
        return actions
    }

    // MARK: - configure's network

    @Test func aNetworkOnlyConfigureAnswersWithTheLinkAlone() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        let link = NetworkConditions(delayMs: 60, jitterMs: 20, seed: 5)
        #expect(
            receive(&hub, #"{"type":"configure","network":{"delayMs":60,"jitterMs":20,"seed":5}}"#, from: driver, at: 1)
                == [.setLink(driver, link), .send(driver, .link(link))])
        // Absent keys keep their value.
        #expect(
            receive(&hub, #"{"type":"configure","network":{"delayMs":0}}"#, from: driver, at: 2)
                == [
                    .setLink(driver, NetworkConditions(delayMs: 0, jitterMs: 20, seed: 5)),
                    .send(driver, .link(NetworkConditions(delayMs: 0, jitterMs: 20, seed: 5))),
                ])
    }

    @Test func aNetworkOnlyConfigureNeedsNoRestAndKeepsTheGesture() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        _ = receive(&hub, Self.pointer("down", x: 100, t: 0, seq: 1), from: driver, at: 1)
        _ = receive(&hub, Self.pointer("move", x: 160, t: 16, seq: 2), from: driver, at: 1.016)
        #expect(hub.engine(of: "s")!.phase == .tracking)
        let answer = receive(&hub, #"{"type":"configure","network":{"delayMs":250}}"#, from: driver, at: 1.02)
        #expect(answer.count == 2)
        #expect(hub.engine(of: "s")!.phase == .tracking)
        // A configure that changes the session still needs the transition at rest, and then
        // changes nothing at all, the link included.
        let busy = receive(
            &hub, #"{"type":"configure","network":{"delayMs":10},"duration":0.4}"#, from: driver, at: 1.03)
        guard busy.count == 1, case .send(_, .error(let error)) = busy[0] else {
            Issue.record("expected one error, got \(busy)")
            return
        }
        #expect(error.code == "busy")
        let check = receive(&hub, #"{"type":"configure","network":{}}"#, from: driver, at: 1.04)
        #expect(check.first == .setLink(driver, NetworkConditions(delayMs: 250)))
    }

    @Test func aViewerSetsItsOwnLinkButNothingElse() {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        hub.connect(viewer, session: "t", into: &actions)
        _ = receive(&hub, #"{"type":"join","session":"s"}"#, from: viewer, at: 1)
        let mine = NetworkConditions(delayMs: 300, jitterMs: 40)
        #expect(
            receive(&hub, #"{"type":"configure","network":{"delayMs":300,"jitterMs":40}}"#, from: viewer, at: 2)
                == [.setLink(viewer, mine), .send(viewer, .link(mine))])
        let refused = receive(&hub, #"{"type":"configure","network":{"delayMs":5},"fps":30}"#, from: viewer, at: 3)
        guard refused.count == 1, case .send(_, .error(let error)) = refused[0] else {
            Issue.record("expected one error, got \(refused)")
            return
        }
        #expect(error.code == "not-driver")
        #expect(hub.core(of: "s")!.settings.fps == 60)
        #expect(
            receive(&hub, #"{"type":"configure","network":{}}"#, from: viewer, at: 4).first == .setLink(viewer, mine))
    }

    @Test(arguments: [
        (#"{"type":"configure","network":{"delayMs":2000.5}}"#, "invalid-field", "network.delayMs"),
        (#"{"type":"configure","network":{"delayMs":1e308}}"#, "invalid-field", "network.delayMs"),
        (#"{"type":"configure","network":{"jitterMs":-1}}"#, "invalid-field", "network.jitterMs"),
        (#"{"type":"configure","network":{"seed":1.5}}"#, "invalid-field", "network.seed"),
        (#"{"type":"configure","network":{"seed":-3}}"#, "invalid-field", "network.seed"),
        (#"{"type":"configure","network":{"seed":9007199254740993}}"#, "invalid-field", "network.seed"),
        (#"{"type":"configure","network":{"bandwidth":5}}"#, "unknown-field", "network.bandwidth"),
        (#"{"type":"configure","network":"4G"}"#, "invalid-field", "network"),
        (#"{"type":"configure","network":null}"#, "invalid-field", "network"),
    ])
    func badNetworksChangeNothing(_ text: String, _ code: String, _ field: String) {
        var hub = SessionHub()
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        let answer = receive(&hub, text, from: driver, at: 1)
        guard answer.count == 1, case .send(_, .error(let error)) = answer[0] else {
            Issue.record("expected one error, got \(answer)")
            return
        }
        #expect(error.code == code && error.field == field)
        #expect(
            receive(&hub, #"{"type":"configure","network":{}}"#, from: driver, at: 2).first
                == .setLink(driver, .loopback))
    }

    @Test func aDefaultLinkHoldsTheWelcomeToo() {
        var hub = SessionHub(network: NetworkConditions(delayMs: 60))
        var actions: [SessionAction] = []
        hub.connect(driver, session: "s", into: &actions)
        #expect(
            actions == [
                .register(session: "s"), .setLink(driver, NetworkConditions(delayMs: 60)),
                .send(driver, .welcome(session: "s", settings: SessionSettings())),
                .send(driver, .link(NetworkConditions(delayMs: 60))), .frameDue(driver),
            ])
    }

    // MARK: - On the virtual clock, exactly

    @Test func deliveriesHappenExactlyWhenDueWithTheirStamps() {
        var session = VirtualSession(network: NetworkConditions(delayMs: 100))
        #expect(session.connect(at: 0).isEmpty)
        #expect(session.nextTick == 0.1)
        let opening = session.tick()
        #expect(opening.map(Self.type) == ["welcome", "link", "frame"])
        #expect(Self.json(opening[2])["delivered"] == .number(100))
        #expect(Self.json(opening[2])["arrived"] == nil)

        #expect(session.receive(#"{"type":"ping","seq":1,"t":7}"#, at: 1.0).isEmpty)
        #expect(session.nextTick == 1.1)
        #expect(session.tick().isEmpty)  // the server answers at 1.1; the pong is on its way
        #expect(abs(session.nextTick! - 1.2) < 1e-12)
        let pong = session.tick().map(Self.json)
        #expect(pong.count == 1 && pong[0]["serverTime"] == .number(1100))

        #expect(session.receive(Self.pointer("down", x: 100, t: 5000, seq: 1), at: 2.0).isEmpty)
        _ = session.tick()
        let frame = session.tick().map(Self.json)
        #expect(frame.count == 1)
        #expect(
            frame[0]["ack"] == .number(1) && frame[0]["arrived"] == .number(2000)
                && frame[0]["received"] == .number(2100))
        #expect(frame[0]["sent"] == .number(2100) && frame[0]["delivered"] == .number(2200))
        #expect(session.nextTick == nil)
    }

    @Test func withoutALinkFramesCarryNoStamps() {
        var session = VirtualSession()
        _ = session.connect(at: 0)
        let frame = session.receive(Self.pointer("down", x: 100, t: 5000, seq: 1), at: 1).map(Self.json)
        #expect(frame.count == 1 && frame[0]["arrived"] == nil && frame[0]["delivered"] == nil)
    }

    @Test func theSameSeedReplaysBitIdentically() {
        func run() -> [String] {
            var session = VirtualSession(network: NetworkConditions(delayMs: 150, jitterMs: 80, seed: 11))
            var out = session.connect(at: 0)
            var x = 100.0
            for seq in 1...60 {
                let time = 0.5 + Double(seq) * 0.008
                while let next = session.nextTick, next <= time { out += session.tick() }
                x += 4
                out += session.receive(
                    Self.pointer(seq == 1 ? "down" : seq == 60 ? "up" : "move", x: x, t: time * 1000, seq: seq),
                    at: time)
            }
            while session.nextTick != nil { out += session.tick() }
            return out
        }
        let first = run()
        #expect(first.count > 60)
        #expect(first == run())
    }

    // MARK: - Decisions do not depend on the network

    /// What must not change with the network: each `released` event whole, the finish or
    /// cancel, and the progress of the frame that acknowledges each pointer.
    struct Decisions: Equatable {
        var released: [JSONValue] = []
        var ends: [String] = []
        var acknowledged: [Int: Double] = [:]
    }

    /// Gestures (x displacements per 8 ms). One that moves less than the slop never begins, and
    /// the next follows it 8 ms later at once, as a quick second touch would; every other one is
    /// played once the previous one rested (a touch on a running completion grabs it, which by
    /// nature depends on when the touch arrives). The client's clock is the same whatever the
    /// network; only when the messages reach the server differs.
    static func play(_ gestures: [[Double]], kind: TransitionKind, extra: String = "", network: NetworkConditions)
        -> Decisions
    {
        var session = VirtualSession(network: network)
        var decisions = Decisions()
        func take(_ replies: [String]) {
            for text in replies {
                let message = json(text)
                switch message["type"]?.string {
                case "transition":
                    let event = message["event"]?.string ?? ""
                    if event == "released" { decisions.released.append(message) }
                    if event == "finished" || event == "cancelled" { decisions.ends.append(event) }
                case "frame":
                    if case .number(let ack)? = message["ack"], decisions.acknowledged[Int(ack)] == nil,
                        case .number(let progress)? = message["progress"]
                    {
                        decisions.acknowledged[Int(ack)] = progress
                    }
                default:
                    break
                }
            }
        }
        func settle() { while session.nextTick != nil { take(session.tick()) } }
        take(session.connect(at: 0))
        settle()
        take(session.receive(#"{"type":"configure","transition":"\#(kind.rawValue)"\#(extra)}"#, at: session.now))
        settle()
        var seq = 0
        var clock = 1000.0  // the client's clock, ms
        var send = session.now + 0.1  // when the next message leaves the client, server clock s
        for steps in gestures {
            let tiny = abs(steps.reduce(0, +)) < 5 && steps.allSatisfy { abs($0) < 5 }
            var x = 60.0
            for (index, dx) in ([0] + steps).enumerated() {
                let time = send + Double(index) * 0.008
                while let next = session.nextTick, next <= time { take(session.tick()) }
                seq += 1
                x += dx
                let phase = index == 0 ? "down" : index == steps.count ? "up" : "move"
                take(session.receive(pointer(phase, x: x, t: clock + Double(index) * 8, seq: seq), at: time))
            }
            if tiny {
                send += Double(steps.count + 1) * 0.008
                clock += Double(steps.count + 1) * 8
            } else {
                settle()
                send = session.now + 0.1
                clock += 10_000
            }
        }
        settle()
        return decisions
    }

    /// Mostly pans, some touches that never begin (within the slop).
    static let gestures = Gen.oneOf(
        Gen.double(in: -30...45).array(of: 2...30),
        Gen.double(in: -1...1).array(of: 1...4)
    ).array(of: 1...4)
    static let kinds = Gen.int(in: 0...(TransitionKind.allCases.count - 1))
    static let delays = Gen.double(in: 0...250)
    static let jitters = Gen.double(in: 0...100)
    static let seeds = Gen.int(in: 0...1_000_000)

    @Test func decisionsAreTheSameAtZeroAndThroughAnyNetwork() async {
        await propertyCheck(count: 120, input: Self.gestures, Self.kinds, Self.delays, Self.jitters, Self.seeds) {
            gestures, kind, delay, jitter, seed in
            let conditions = NetworkConditions(delayMs: delay, jitterMs: jitter, seed: seed)
            let reference = Self.play(gestures, kind: TransitionKind.allCases[kind], network: .loopback)
            let through = Self.play(gestures, kind: TransitionKind.allCases[kind], network: conditions)
            #expect(through == reference)
            #expect(reference.acknowledged.count == gestures.reduce(0) { $0 + $1.count + 1 })
        }
    }

    @Test func aQuickSecondTouchAfterOneThatNeverBeganFlingsTheSame() {
        // A 4 pt wiggle, 8 ms, then a flick; fling at 838 pt/s. The
        // wiggle's up could leave the engine's clock ahead of the server's, and the flick's first
        // moves were then stamped alike: 833 pt/s (cancelled) became 842 (finished).
        let gestures: [[Double]] = [[1, 1, 1, 1], Array(repeating: 50.0 / 7, count: 7)]
        let reference = Self.play(
            gestures, kind: .push, extra: #","duration":0.5,"flingVelocity":838"#, network: .loopback)
        #expect(reference.released.count == 1)
        for seed in 1...30 {
            for network in [
                NetworkConditions(delayMs: 150, jitterMs: 60, seed: seed),
                NetworkConditions(delayMs: 60, jitterMs: 20, seed: seed),
            ] {
                #expect(
                    Self.play(gestures, kind: .push, extra: #","duration":0.5,"flingVelocity":838"#, network: network)
                        == reference)
            }
        }
    }

    @Test func decisionsAreTheSameAtTheIssuesWorstCase() {
        // 250 ± 100 ms each way, a flick, a slow drag back, a fling.
        let gestures: [[Double]] = [
            Array(repeating: 25, count: 12), Array(repeating: 6, count: 20) + Array(repeating: -8, count: 10),
            [40, 45, 45, 45],
        ]
        for kind in TransitionKind.allCases {
            let reference = Self.play(gestures, kind: kind, network: .loopback)
            #expect(reference.released.count == 3)
            for seed in 1...5 {
                #expect(
                    Self.play(gestures, kind: kind, network: NetworkConditions(delayMs: 250, jitterMs: 100, seed: seed))
                        == reference)
            }
        }
    }
}
