// The libFuzzer target over the whole input path: bytes → parse → session → frame
// (docs/SECURITY.md, "Fuzzing"). Built by Fuzz/build.sh, run by `make fuzz`.
//
// One input is a little session script, one client message per line:
//
//     +120 {"type":"pointer","phase":"down","x":100,"y":400,"t":1000,"seq":1}
//     {"type":"ping","seq":1,"t":5}
//     +2000
//
// A line may start with `+MS` (up to 9 decimal digits, then an optional space): the virtual clock
// advances MS milliseconds first, and the display link fires every tick due by then, as the live
// one would while time passes. The rest of the line (if any) is delivered to a `VirtualSession`
// at that time. After the last line the display link runs until the transition rests. Every
// output is checked (`Checks` below); a broken invariant traps, and libFuzzer saves the input.
//
// FUZZ_SKIP=name,name… (environment) turns named checks off, to look past a known finding.

import Foundation
import SandboxSession
import TransitionCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    var run = Run()
    run.play(UnsafeBufferPointer(start: data, count: size))
    return 0
}

// MARK: - Limits of one execution

enum Limits {
    /// An error reply stays well under 1 KB whatever the input (echoed input is truncated).
    static let errorBytes = 1024
    /// How far past its longest possible end (from the message that started it) a completion may
    /// still run: the client clock may be mapped a little ahead of the server's (a delayed
    /// pointer-down), but not without bound.
    static let completionSlack = 10.0
    /// Display-link ticks per execution that produce output, and in all (ticks the engine ignores
    /// are cheap). A completion longer than this is not followed to its end (still checked as far
    /// as it got): 60 s / speed 0.01 at 240 fps would be 1.44 million frames.
    static let frameTicks = 2_000
    static let allTicks = 200_000
}

// MARK: - One execution

struct Run {
    /// A session just connected at 0, its `welcome` and first frame checked: every execution
    /// starts from a copy (a value), which spares it building the engine (the pop animator fits
    /// a spring) and encoding the welcome each time.
    static let connected: VirtualSession = {
        var session = VirtualSession()
        let replies = session.connect(at: 0)
        var checks = Checks()
        for reply in replies { checks.check(reply) }
        Checks.connectedFrames = checks.assembler
        var again = VirtualSession()
        if again.connect(at: 0) != replies { fail("deterministic", "two connects gave different bytes", "") }
        Checks.defaults = Checks.config(of: replies[0])
        return session
    }()

    var session = Run.connected
    var checks = Checks(connected: ())
    var ticks = 0
    var frameTicks = 0
    var lastTick = -Double.infinity
    var lastDelivery = -Double.infinity

    mutating func play(_ input: UnsafeBufferPointer<UInt8>) {
        var now = 0.0
        var start = 0
        while start < input.count {
            var end = start
            while end < input.count, input[end] != 0x0A { end += 1 }
            var p = start
            if input[p] == UInt8(ascii: "+") {
                p += 1
                var ms = 0
                var digits = 0
                while p < end, digits < 9, input[p] >= 0x30, input[p] <= 0x39 {
                    ms = ms * 10 + Int(input[p] - 0x30)
                    digits += 1
                    p += 1
                }
                if p < end, input[p] == UInt8(ascii: " ") { p += 1 }
                now += Double(ms) / 1000
                tick(until: now)
            }
            if p < end {
                let line = UnsafeBufferPointer(rebasing: input[p..<end])
                let text = String(decoding: line, as: UTF8.self)
                let replies = session.receive(text, at: now)
                checks.received(text, replies: replies, at: session.now)
            }
            start = end + 1
        }
        // After the inputs: the display link runs until the transition rests.
        tick(until: .infinity)
        if session.nextTick == nil { checks.atRest() }
    }

    /// Fires every display-link tick due by `time` (within the execution's tick budget).
    mutating func tick(until time: Double) {
        while let next = session.nextTick, next <= time {
            guard ticks < Limits.allTicks, frameTicks < Limits.frameTicks else { return }
            // The simulated network's deliveries and the display link each keep their own order
            // (a delivery may be later than the link's next tick: a grab held the link).
            if let delivery = session.nextDelivery, delivery <= next {
                checks.delivery(at: next, after: lastDelivery)
                lastDelivery = next
            } else {
                checks.tick(at: next, after: lastTick)
                lastTick = next
            }
            ticks += 1
            let replies = session.tick()
            if !replies.isEmpty { frameTicks += 1 }
            checks.ticked(replies, at: session.now)
        }
    }
}

// MARK: - Invariants

struct Checks {
    /// The first frame, assembled (set once, by `Run.connected`): deltas build on it.
    nonisolated(unsafe) static var connectedFrames = FrameAssembler()
    /// The welcome's settings (set once, by `Run.connected`).
    nonisolated(unsafe) static var defaults = (duration: 1.0, speed: 1.0, fps: 60.0, stretch: 1.0)

    /// The session's settings that bound a completion (from `welcome` and each `configured`).
    var duration = Checks.defaults.duration
    var completionSpeed = Checks.defaults.speed
    var fps = Checks.defaults.fps
    /// The longest a release's completion may last, in durations (1/completionSpeed, at
    /// least 1 with the negative-speed pitfall, durationFactor with the property animator).
    var stretch = Checks.defaults.stretch
    /// The virtual time by which the running completion must have ended.
    var deadline: Double?
    /// The virtual time by which a rotation of the interface must have ended.
    var rotationDeadline: Double?
    /// A scene is set: its operations run for their kind's own duration (at most reveal's 2 s),
    /// not the configured one.
    var sceneActive = false
    var effectiveDuration: Double { sceneActive ? max(duration, TransitionKind.reveal.defaultDuration) : duration }
    /// The latest frame's `n`, `t` and `ack` (the first frame, sent on connecting, is 1 at 0).
    var lastFrame = 0
    /// The whole frame so far, as a client assembles deltas.
    var assembler = FrameAssembler()
    var lastFrameTime = -Double.infinity
    var lastAck = -Double.infinity
    /// The message being answered ("" for a tick).
    var input = ""
    /// A `link` came back: a simulated network (docs/PROTOCOL.md "The network lab") holds what
    /// the session sends and is sent, so a message may have no reply yet, and the session may
    /// do something (a delivery) with no completion running.
    var linked = false
    /// Some input so far carried U+FFFD (a repaired byte or the escape): a scene keeps client
    /// ids and titles, so later replies (frames on ticks too) may echo it legitimately.
    var sentReplacement = false

    init() {}

    /// Checks after `Run.connected`'s first frame.
    init(connected: Void) {
        _ = Run.connected
        (duration, completionSpeed, fps, stretch) = Checks.defaults
        assembler = Checks.connectedFrames
        lastFrame = 1
        lastFrameTime = 0
    }

    mutating func received(_ text: String, replies: [String], at now: Double) {
        input = text
        if text.unicodeScalars.contains("\u{FFFD}") || text.lowercased().contains("\\ufffd") { sentReplacement = true }
        // A link's own `link` answer already crosses it: a message naming a network may be
        // the one that starts holding replies.
        if text.contains(#""network""#) { linked = true }
        if replies.isEmpty && !linked { fail("answered", "a message got no reply", "") }
        for reply in replies {
            check(reply)
            noteRotation(reply, at: now)
            if reply.hasPrefix(#"{"type":"configured""#) {
                (duration, completionSpeed, fps, stretch) = Self.config(of: reply)
            } else if reply.hasPrefix(#"{"type":"scene-state""#) {
                sceneActive = !reply.hasPrefix(#"{"type":"scene-state","root":null"#)
            } else if reply.hasPrefix(#"{"type":"transition","event":"released""#) {
                deadline = now + effectiveDuration * stretch + Limits.completionSlack
            } else if reply.hasPrefix(#"{"type":"transition","event":"played""#) {
                deadline = now + effectiveDuration + Limits.completionSlack
            } else if reply.hasPrefix(#"{"type":"transition","event":"began""#) {
                deadline = nil
            } else {
                ended(reply)
            }
        }
    }

    /// Before a tick: the display link is finite and advancing, and the completion is not overdue.
    func tick(at time: Double, after last: Double) {
        if !time.isFinite || time <= last { fail("wedge", "nextTick \(time) after \(last)", "") }
        guard let deadline = [deadline, rotationDeadline].compactMap({ $0 }).max() else {
            if linked { return }  // the `released` that started it may still be on its way
            return fail("wedge", "animating (a tick at \(time)) with no completion started", "")
        }
        // The last tick of a completion may fall up to one frame after its end.
        if time > deadline + 1 / fps + 1e-9 {
            fail(
                "wedge",
                "still animating at \(time) s, past the bound \(deadline) s (duration \(duration), completionSpeed \(completionSpeed), fps \(fps))",
                "")
        }
    }

    /// Before a delivery of the simulated network: finite, and in order.
    func delivery(at time: Double, after last: Double) {
        // Equal times are fine: a link switched to 0 ms still delivers in order, at once.
        if !time.isFinite || time < last { fail("wedge", "delivery at \(time) after \(last)", "") }
    }

    mutating func ticked(_ replies: [String], at now: Double) {
        input = ""
        for reply in replies {
            check(reply)
            noteRotation(reply, at: now)
            ended(reply)
        }
    }

    /// A scene's interface turning runs the display link too, for at most a half
    /// turn (2 × 0.4 s) from the first frame that shows it.
    mutating func noteRotation(_ reply: String, at now: Double) {
        guard reply.hasPrefix(#"{"type":"frame""#) else { return }
        // The whole frame (a delta leaves out a scene or root that did not change).
        if case .object? = assembler.frame?["scene"]?["root"]?["rotating"] {
            if rotationDeadline == nil { rotationDeadline = now + 0.8 + Limits.completionSlack }
        } else {
            rotationDeadline = nil
        }
    }

    mutating func ended(_ reply: String) {
        if reply.hasPrefix(#"{"type":"link""#) { linked = true }
        if reply.hasPrefix(#"{"type":"transition","event":"finished""#)
            || reply.hasPrefix(#"{"type":"transition","event":"cancelled""#)
        {
            deadline = nil
        }
    }

    func atRest() {}

    // MARK: One server message

    mutating func check(_ reply: String) {
        var text = reply
        text.withUTF8 { bytes in
            guard bytes.starts(with: #"{"type":""#.utf8) else {
                return fail("json", "a message must start with {\"type\":", reply)
            }
            var scan = Scan(bytes: bytes)
            scan.kind = Scan.kind(of: bytes)
            do throws(Scan.Bad) {
                try scan.document()
            } catch {
                fail(error.check, error.reason, reply)
            }
            if scan.kind == .error, bytes.count > Limits.errorBytes {
                fail("error-size", "an error reply of \(bytes.count) bytes (input \(input.utf8.count) bytes)", reply)
            }
            if scan.kind == .frame { frame(scan, reply) }
            // U+FFFD in a reply that the input did not send: bytes were cut mid-character and
            // repaired by String(decoding:); the live server would send invalid UTF-8.
            if contains(bytes, [0xEF, 0xBF, 0xBD]), !sentReplacement {
                fail("utf8", "U+FFFD in a reply the input did not ask for", reply)
            }
        }
    }

    mutating func frame(_ scan: Scan, _ reply: String) {
        if scan.n != Double(lastFrame + 1) { fail("frame-order", "frame n \(scan.n) after \(lastFrame)", reply) }
        // Issue 15: every delta applies to the frame before it (the replay sends every frame).
        guard let parsed = try? JSONValue.decode(Data(reply.utf8)), assembler.apply(parsed) != nil else {
            return fail("delta", "a delta frame that does not apply to the frame before it", reply)
        }
        // Protocol 2: `sent` alone (`t` was the same value twice).
        if !(scan.sent >= lastFrameTime) || !scan.t.isNaN {
            fail("frame-order", "frame sent \(scan.sent) after \(lastFrameTime) (t \(scan.t))", reply)
        }
        if let ack = scan.ack, !(ack >= lastAck) { fail("frame-order", "ack \(ack) after \(lastAck)", reply) }
        lastFrame += 1
        lastFrameTime = scan.sent
        if let ack = scan.ack { lastAck = ack }
    }

    /// duration, completionSpeed and fps from a `welcome` or `configured` message.
    static func config(of text: String) -> (duration: Double, speed: Double, fps: Double, stretch: Double) {
        guard let value = try? JSONValue.decode(Data(text.utf8)), let config = value["config"],
            let duration = config["duration"]?.number, let speed = config["completionSpeed"]?.number,
            let fps = config["fps"]?.number, duration > 0, speed > 0, fps > 0
        else {
            fail("config", "no usable config", text)
            return (1, 1, 60, 1)
        }
        var stretch = 1 / speed
        if config["driver"] == .string("property-animator") {
            stretch = max(config["propertyAnimator"]?["durationFactor"]?.number ?? 0, 1)
        } else if case .array(let pitfalls)? = config["pitfalls"],
            pitfalls.contains(.string("negative-completion-speed"))
        {
            stretch = max(stretch, 1)  // the cancel lasts p × duration (+ 1/60 s, within the slack)
        }
        return (duration, speed, fps, stretch)
    }
}

private func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    var i = 0
    while i <= bytes.count - needle.count {
        if bytes[i] == needle[0], bytes[i + 1] == needle[1], bytes[i + 2] == needle[2] { return true }
        i += 1
    }
    return false
}

/// Names of the checks turned off by FUZZ_SKIP.
let skipped: Set<Substring> = {
    guard let value = getenv("FUZZ_SKIP") else { return [] }
    return Set(String(cString: value).split(separator: ","))
}()

/// A broken invariant: says which and why on stderr, then traps (libFuzzer saves the input).
func fail(_ check: String, _ reason: @autoclosure () -> String, _ reply: @autoclosure () -> String) {
    if skipped.contains(Substring(check)) { return }
    var shown = reply()
    if shown.utf8.count > 1500 { shown = String(shown.prefix(1500)) + "…" }
    fputs("\n=== fuzz-session: invariant '\(check)' broken: \(reason())\n\(shown)\n", stderr)
    fatalError("invariant '\(check)'")
}

// MARK: - A strict JSON scanner for replies

/// Checks one reply against RFC 8259 without building values (independent of the server's own
/// parser), and on the way: `null` only where the protocol allows it (a non-finite number is
/// written as null), `progress` and `opacity` within 0…1, and a frame's `n`, `t`, `sent`, `ack`.
struct Scan {
    enum Kind { case frame, error, transition, config, sceneState, prediction, other }
    struct Bad: Error {
        let check: String
        let reason: String
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var kind = Kind.other
    private var i = 0
    private var depth = 0
    private(set) var n = Double.nan
    private(set) var t = Double.nan
    private(set) var sent = Double.nan
    private(set) var ack: Double?

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        if bytes.starts(with: #"{"type":"frame""#.utf8) { return .frame }
        if bytes.starts(with: #"{"type":"error""#.utf8) { return .error }
        if bytes.starts(with: #"{"type":"transition""#.utf8) { return .transition }
        if bytes.starts(with: #"{"type":"welcome""#.utf8) || bytes.starts(with: #"{"type":"configured""#.utf8)
            || bytes.starts(with: #"{"type":"joined""#.utf8)
        {
            return .config
        }
        if bytes.starts(with: #"{"type":"scene-state""#.utf8) { return .sceneState }
        if bytes.starts(with: #"{"type":"prediction""#.utf8) { return .prediction }
        return .other
    }

    mutating func document() throws(Bad) {
        space()
        try value(key: nil)
        space()
        if i != bytes.count { throw json("bytes after the value") }
    }

    private func json(_ reason: String) -> Bad { Bad(check: "json", reason: "invalid JSON at byte \(i): \(reason)") }

    private mutating func space() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value(key: Range<Int>?) throws(Bad) {
        guard i < bytes.count else { throw json("a value is missing") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array(key: key)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
            try null(key)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(key)
        default: throw json("unexpected byte \(bytes[i])")
        }
    }

    private mutating func object() throws(Bad) {
        depth += 1
        guard depth <= 64 else { throw json("too deep") }
        i += 1
        space()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return
        }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw json("a name is missing") }
            let key = try string()
            space()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw json("':' is missing") }
            i += 1
            space()
            try value(key: key)
            space()
            guard i < bytes.count else { throw json("unterminated object") }
            let separator = bytes[i]
            i += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw json("',' or '}' expected") }
            space()
        }
        depth -= 1
    }

    /// Items are checked under the array's own name (`velocity`: `[null, 0]` is a non-finite vx).
    private mutating func array(key: Range<Int>?) throws(Bad) {
        depth += 1
        guard depth <= 64 else { throw json("too deep") }
        i += 1
        space()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return
        }
        while true {
            try value(key: key)
            space()
            guard i < bytes.count else { throw json("unterminated array") }
            let separator = bytes[i]
            i += 1
            if separator == UInt8(ascii: "]") { break }
            guard separator == UInt8(ascii: ",") else { throw json("',' or ']' expected") }
            space()
        }
        depth -= 1
    }

    /// The string's contents (between the quotes, escapes unresolved).
    private mutating func string() throws(Bad) -> Range<Int> {
        i += 1
        let start = i
        while true {
            guard i < bytes.count else { throw json("unterminated string") }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { break }
            if c < 0x20 { throw json("a control character in a string") }
            i += 1
            if c == UInt8(ascii: "\\") {
                guard i < bytes.count else { throw json("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        guard i < bytes.count, isHex(bytes[i]) else { throw json("a bad \\u escape") }
                        i += 1
                    }
                default: throw json("a bad escape")
                }
            }
        }
        let range = start..<i
        i += 1
        return range
    }

    private func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    private mutating func literal(_ word: StaticString) throws(Bad) {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw json("a bad literal") }
        let same = word.withUTF8Buffer { w in (0..<count).allSatisfy { bytes[i + $0] == w[$0] } }
        guard same else { throw json("a bad literal") }
        i += count
    }

    private func keyIs(_ key: Range<Int>?, _ name: StaticString) -> Bool {
        guard let key, key.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { w in key.indices.allSatisfy { bytes[$0] == w[$0 - key.lowerBound] } }
    }

    /// `null` stands for "none" in a few fields; anywhere else it is a non-finite number.
    private mutating func null(_ key: Range<Int>?) throws(Bad) {
        let allowed: Bool
        switch kind {
        case .frame:
            allowed =
                depth == 1 && (keyIs(key, "ack") || keyIs(key, "received")) || depth == 2 && keyIs(key, "transition")
                || depth == 3 && keyIs(key, "rotating")
                // Delta frames: a part the base had and this frame has not.
                || depth == 1 && (keyIs(key, "scene") || keyIs(key, "animator"))
                || depth > 1
                    && (keyIs(key, "mask") || keyIs(key, "transform3d") || keyIs(key, "corners")
                        || keyIs(key, "controller") || keyIs(key, "title"))
        case .sceneState: allowed = depth == 1 && (keyIs(key, "inFlight") || keyIs(key, "armed") || keyIs(key, "root"))
        case .config: allowed = keyIs(key, "flingVelocity") || keyIs(key, "rubberBand")
        case .prediction:
            // No table; the pan without a rubber band; a sample's layer patch removing a property.
            allowed =
                depth == 1 && keyIs(key, "table") || keyIs(key, "rubberBand")
                || depth > 2 && (keyIs(key, "mask") || keyIs(key, "transform3d") || keyIs(key, "corners"))
        default: allowed = false
        }
        if !allowed {
            let name =
                key.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } ?? "(no name)"
            throw Bad(check: "finite", reason: "null (a non-finite number) for '\(name)'")
        }
    }

    private mutating func number(_ key: Range<Int>?) throws(Bad) {
        let start = i
        func digits(_ s: inout Scan) -> Int {
            let first = s.i
            while s.i < s.bytes.count, s.bytes[s.i] >= 0x30, s.bytes[s.i] <= 0x39 { s.i += 1 }
            return s.i - first
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits(&self) == 0 {
            throw json("a number without digits")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw json("no digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw json("no digits in the exponent") }
        }
        let ranged = keyIs(key, "progress") || keyIs(key, "opacity")
        let framed = kind == .frame && depth == 1
        guard ranged || framed else { return }
        let value = decimal(start..<i)
        if ranged, !(value >= 0 && value <= 1) {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[key!]), as: UTF8.self)
            throw Bad(check: "range", reason: "'\(name)' \(value) outside 0…1")
        }
        if framed {
            if keyIs(key, "n") { n = value }
            if keyIs(key, "t") { t = value }
            if keyIs(key, "sent") { sent = value }
            if keyIs(key, "ack") { ack = value }
        }
    }

    private func decimal(_ range: Range<Int>) -> Double {
        guard range.count < 400 else { return .nan }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { text in
            for (k, index) in range.enumerated() { text[k] = CChar(bitPattern: bytes[index]) }
            text[range.count] = 0
            return strtod(text.baseAddress!, nil)
        }
    }
}
