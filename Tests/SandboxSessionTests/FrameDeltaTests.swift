import PropertyBased
import Testing
import TransitionCore

@testable import SandboxSession

/// Delta frames (docs/PROTOCOL.md, "Delta frames"): a client applying them ends with exactly
/// the full frame's content, whichever frames it skipped; and the numbers' fixed precision.
@Suite("Delta frames") struct FrameDeltaTests {
    static let driver = SessionSceneTests.driver

    static func parse(_ message: EncodedMessage) -> JSONValue { try! JSONParser.parse(Array(message.text.utf8)) }

    /// Every state of a session playing `gestures` (x displacements per 16 ms, each pan left to
    /// settle), as `FrameCache` encodes it; `unasked[i]`: nobody asked for state i (so the next one
    /// has no delta — as when every connection was too slow to be sent it).
    static func states(kind: TransitionKind, scene: Bool, animator: Bool = false, gestures: [[Double]], unasked: [Bool])
        -> [FrameEncoding]
    {
        var h = SessionSceneTests.Harness()
        var states: [FrameEncoding] = []
        var index = 0
        func collect() {
            defer { index += 1 }
            guard !unasked[index % unasked.count] else { return }
            let frame = h.frames.frame(for: driver, in: h.hub, now: h.now)!
            if states.last?.number != frame.number { states.append(frame) }
        }
        collect()
        if scene {
            // A navigation controller under a page sheet: the pan dismisses the sheet, the
            // pushed-back list comes forward (scene layers that change every frame).
            h.send(SessionSceneTests.navigationScene)
            collect()
            h.send(SessionSceneTests.sheet)
            collect()
        } else {
            // The property-animator driver adds `animator`, whose fields are deltas too.
            let driver = animator ? #","driver":"property-animator""# : ""
            h.send(#"{"type":"configure","transition":"\#(kind.rawValue)"\#(driver)}"#)
            collect()
        }
        for steps in gestures {
            var x = 60.0, y = 300.0
            _ = h.pointer("down", x: x, y: y)
            collect()
            for (step, dx) in steps.enumerated() {
                if scene { y += abs(dx) } else { x += dx }
                _ = h.pointer(step == steps.count - 1 ? "up" : "move", x: x, y: y)
                collect()
            }
            for _ in 0..<600 {
                guard h.hub.isAnimating("s") else { break }
                h.now += 1 / 60
                var actions: [SessionAction] = []
                h.hub.tick(fps: 60, at: h.now, into: &actions)
                collect()
            }
        }
        return states
    }

    /// A client sent the states `received` says, each as the server picks it.
    static func check(_ states: [FrameEncoding], received: [Bool], everyStateAsked: Bool = false) {
        var client = FrameAssembler()
        var last: UInt64?
        var deltas = 0
        for (index, state) in states.enumerated() where received[index % received.count] {
            let message = state.message(after: last)
            let parsed = parse(message)
            if let base = parsed["base"] {
                deltas += 1
                #expect(base == .number(Double(state.number - 1)))
                #expect(state.baseID == last)
            }
            let whole = client.apply(parsed)
            #expect(whole == parse(state.full), "state \(state.number): \(message.text)")
            #expect(whole?["base"] == nil)
            last = state.id
        }
        #expect(client.dropped == 0)
        // Everything received in a row: deltas after the first (the 2 s keyframe aside).
        if everyStateAsked, received.allSatisfy({ $0 }), states.count > 3 { #expect(deltas > 0) }
    }

    static let gestures = Gen.double(in: -40...60).array(of: 2...25).array(of: 1...3)
    static let kinds = Gen.int(in: 0...(TransitionKind.allCases.count - 1))
    static let pattern = Gen.bool.array(of: 1...7)

    @Test func aClientApplyingDeltasHasExactlyTheFullFrames() async {
        await propertyCheck(count: 80, input: Self.gestures, Self.kinds, Gen.bool, Self.pattern, Self.pattern) {
            gestures, kind, scene, unasked, skipped in
            // Never all unasked (nothing to check) and never all skipped.
            let unasked = unasked.allSatisfy { $0 } ? [false] : unasked
            let states = Self.states(
                kind: TransitionKind.allCases[kind], scene: scene && kind % 2 == 0,
                animator: scene && kind % 2 == 1, gestures: gestures, unasked: unasked)
            // Every frame received, then frames skipped (latest frame wins).
            Self.check(states, received: [true], everyStateAsked: !unasked.contains(true))
            Self.check(states, received: skipped.allSatisfy { !$0 } ? [true] : skipped)
        }
    }

    @Test func anUnchangedLayerIsItsIDAndAnUnchangedSceneIsLeftOut() {
        // A push pan moves both screens' centres and nothing else.
        let push = Self.states(kind: .push, scene: false, gestures: [[10, 10, 10, 10]], unasked: [false])
        let delta = push.compactMap(\.delta).map(\.text).last { $0.contains("tracking") }!
        #expect(delta.contains(#"{"id":"from","center":["#) && !delta.contains("transform"))
        // A fade pan changes opacity only; a layer that did not change is its id.
        let cover = Self.states(kind: .coverVertical, scene: false, gestures: [[10, 10, 10, 10]], unasked: [false])
        let covered = cover.compactMap(\.delta).map(\.text).last { $0.contains("tracking") }!
        #expect(covered.contains(#""layers":["from",{"id":"to","center":"#), "\(covered)")
        // A scene whose still views do not move is left out of the delta.
        let scene = Self.states(kind: .push, scene: true, gestures: [[0, 0, 0]], unasked: [false])
        #expect(scene.compactMap(\.delta).contains { !$0.text.contains("\"scene\"") })
        #expect(scene.last!.full.text.contains("\"scene\":{"))
        // The animator's fields: only what changed (fractionComplete while scrubbing).
        let scrub = Self.states(
            kind: .push, scene: false, animator: true, gestures: [[10, 10, 10, 10]], unasked: [false])
        let scrubbed = scrub.compactMap(\.delta).map(\.text).last { $0.contains("tracking") }!
        #expect(
            scrubbed.contains(#""animator":{"fractionComplete":"#) && !scrubbed.contains("\"state\""), "\(scrubbed)")
        // Dragging the sheet down brings the list forward: its scene layers are patched (what
        // changed of the same view), root and transition left out.
        let sheet = Self.states(kind: .push, scene: true, gestures: [[20, 20, 20, 20]], unasked: [false])
        let patched = sheet.compactMap(\.delta).map(\.text).last { $0.contains("tracking") }!
        #expect(
            patched.contains(#""scene":{"layers":[{"base":0,"frame":"#) && !patched.contains("\"root\""), "\(patched)")
    }

    @Test func aFullFrameAtLeastEveryTwoSeconds() {
        var h = SessionSceneTests.Harness()
        h.send(#"{"type":"configure","transition":"push","duration":10}"#)
        _ = h.pan(from: (60, 300), by: (300, 0))  // past half: a 10 s finish (scaled by what is left)
        var fulls: [Double] = []
        for _ in 0..<400 {
            h.now += 1 / 60
            var actions: [SessionAction] = []
            h.hub.tick(fps: 60, at: h.now, into: &actions)
            if h.frames.frame(for: Self.driver, in: h.hub, now: h.now)!.baseID == nil { fulls.append(h.now) }
        }
        #expect(fulls.count >= 3)
        let longest: Double = 2 + 1.0 / 60 + 1e-9
        let gaps: [Double] = zip(fulls, fulls.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 <= longest })
    }

    /// What a hostile or broken server could send `sandbox pan --url`: each is dropped (counted),
    /// and the frame held stays as it was.
    @Test(arguments: [
        #"{"type":"frame","n":3,"base":1,"layers":[]}"#,  // not the frame held
        #"{"type":"frame","n":3,"base":2,"layers":["nobody"]}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[7]}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[{"center":[1,2]}]}"#,  // no id
        #"{"type":"frame","n":3,"base":2,"layers":"from"}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":{"layers":[5]}}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":{"layers":[-1]}}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":{"layers":[0.5]}}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":{"layers":[{"base":9,"scale":1}]}}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":{"layers":[1e308]}}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"scene":7}"#,
        #"{"type":"frame","n":3,"base":2,"layers":[],"animator":[1]}"#,
    ])
    func aBadDeltaIsDroppedAndChangesNothing(_ text: String) throws {
        var client = FrameAssembler()
        let whole = Self.json(
            #"{"type":"frame","n":2,"phase":"idle","layers":[{"id":"from","center":[0,0]}],"scene":{"layers":[{"controller":"a","role":"root","scale":1}],"root":null,"transition":null}}"#
        )
        #expect(client.apply(whole) == whole)
        #expect(client.apply(Self.json(text)) == nil)
        #expect(client.dropped == 1 && client.frame == whole)
    }

    static func json(_ text: String) -> JSONValue { try! JSONParser.parse(Array(text.utf8)) }

    @Test(
        arguments: [
            (156.6875547964885, 2, "156.69"), (422, 2, "422"), (-0.001, 2, "0"), (-0.005, 2, "-0.01"),
            (0.0008566475046699458, 8, "0.00085665"), (0.3972222222222223, 6, "0.397222"), (1, 6, "1"),
            (-12.5, 2, "-12.5"), (0.10, 4, "0.1"), (1e308, 2, "1e+308"), (-1e308, 6, "-1e+308"),
            (.infinity, 2, "null"), (.nan, 2, "null"), (1234567.891, 2, "1234567.89"), (8e15, 1, "8000000000000000.0"),
            (183.33333333333334, 3, "183.333"), (1e-7, 6, "0"), (5e-7, 6, "0.000001"),
        ] as [(Double, Int, String)])
    func fixedPrecision(_ value: Double, _ decimals: Int, _ text: String) {
        var w = JSONWriter(headroom: 0)
        w.fixed(value, decimals)
        #expect(w.finish().text == text)
    }
}
