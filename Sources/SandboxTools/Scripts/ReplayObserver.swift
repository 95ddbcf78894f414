import Foundation
import Histogram
import SandboxSession

/// Watches what the server sends during a replay, whichever way it is run: the phase and
/// progress, transition events, the frames and their acknowledgements, the input → frame
/// latency, and the frame trace.
final class ReplayObserver {
    private(set) var phase = "idle"
    /// The latest frame showed the interface turning.
    private(set) var rotating = false
    private(set) var progress = 0.0
    private(set) var outcome: PanScript.Outcome = .none
    /// Frames received since `startCounting()`.
    private(set) var frames = 0
    /// Turns delta frames into whole ones.
    private var assembler = FrameAssembler()
    private var counting = false
    /// The progress of the first frame acknowledging each pointer seq, in seq order.
    private(set) var samples: [(seq: Int, progress: Double)] = []
    private(set) var errors: [String] = []
    private(set) var configured = false
    /// A `link` arrived: the server applied the simulated network the transport asked for.
    private(set) var linked = false
    private(set) var framesSinceConfigured = 0
    /// Events since the last `wait` was met.
    private var events: Set<String> = []
    /// Pointer seqs sent and not yet acknowledged, with their send times (s).
    private var pending: [Int: Double] = [:]
    private var playsOutstanding = 0
    /// Scene messages sent and not yet answered (by a `scene-state` or an error).
    private var sceneOutstanding = 0
    /// Every lifecycle callback, as `LifecycleEvent.description` writes it.
    private(set) var lifecycle: [String] = []
    /// Every error's code, in order.
    private(set) var errorCodes: [String] = []
    /// The latest `scene-state`.
    private(set) var sceneState: JSONValue?
    /// The last `released` event.
    private(set) var release: ReplayReport.Release?
    private(set) var latency = Histogram<UInt64>(
        highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private(set) var serverTime = Histogram<UInt64>(
        highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    /// Every frame's text, in order, when a trace is wanted.
    var collectsTrace = false
    private(set) var trace: [String] = []
    /// Over a socket the latency is the round trip; in-process it is timed around the call.
    var timesRoundTrips = true

    func startCounting() { counting = true }

    /// The first pointer seq sent while a completion was running (a grab), if any: from there
    /// on the progress depends on when the touch arrived, which real time cannot repeat exactly.
    private(set) var firstGrabSeq: Int?

    func sentPointer(seq: Int, at time: Double) {
        pending[seq] = time
        if firstGrabSeq == nil, phase == "finishing" || phase == "cancelling" { firstGrabSeq = seq }
    }
    func sentPlay() { playsOutstanding += 1 }
    func sentSceneMessage() { sceneOutstanding += 1 }

    /// Everything sent has been answered (a frame acknowledged each pointer, each play started
    /// or was refused), so the phase seen is the phase after the inputs.
    var isSettled: Bool { pending.isEmpty && playsOutstanding == 0 && sceneOutstanding == 0 }

    func satisfies(_ condition: PanScript.WaitCondition) -> Bool {
        guard isSettled else { return false }
        if condition == .rest {
            // paused: a property animator that pauses on completion rests there.
            // A sheet between its detents rests when its settle is over (`scene-state`'s sheets).
            return (phase == "idle" || phase == "finished" || phase == "cancelled" || phase == "paused") && !rotating
                && !sheetMoving
        }
        return events.contains(condition.rawValue)
    }

    func waitMet() { events.removeAll() }

    /// One message from the server, arrived at `time` (s, the transport's clock).
    func received(_ text: String, at time: Double) {
        guard let message = try? JSONValue.decode(Data(text.utf8)), let type = message["type"]?.string else {
            errors.append("not a JSON message: \(text.prefix(80))")
            return
        }
        switch type {
        case "frame":
            // Deltas (docs/PROTOCOL.md, "Delta frames") assembled into whole frames; the trace
            // keeps the wire's text.
            guard let whole = assembler.apply(message) else {
                errors.append("a delta frame whose base was not the frame before: \(text.prefix(80))")
                return
            }
            frame(whole, text: text, at: time)
        case "welcome", "joined":
            assembler.reset()
        case "transition":
            let event = message["event"]?.string ?? ""
            events.insert(event)
            if event == "finished" { outcome = .finished }
            if event == "cancelled" { outcome = .cancelled }
            if event == "played" { playsOutstanding = max(playsOutstanding - 1, 0) }
            if event == "released" {
                release = ReplayReport.Release(
                    decision: message["decision"]?.string ?? "?", reason: message["reason"]?.string ?? "?",
                    progress: message["progress"]?.number ?? .nan, projected: message["projected"]?.number)
            }
        case "lifecycle":
            let controller = message["controller"]?.string ?? "?"
            let callback = message["callback"]?.string ?? "?"
            if let didComplete = message["didComplete"], case .bool(let value) = didComplete {
                lifecycle.append("\(controller).\(callback)(\(value))")
            } else if callback == "viewDidLoad" || callback.hasPrefix("presentationController")
                || callback.hasPrefix("sheetPresentationController")
            {
                // The sheet's delegate calls take no `animated` argument.
                lifecycle.append("\(controller).\(callback)")
            } else {
                let animated = message["animated"] == .bool(true)
                lifecycle.append("\(controller).\(callback)(\(animated))")
            }
        case "scene-state":
            sceneState = message
            sceneOutstanding = max(sceneOutstanding - 1, 0)
        case "link":
            linked = true
        case "configured":
            configured = true
            framesSinceConfigured = 0
        case "error":
            let code = message["code"]?.string ?? "?"
            errors.append("\(code): \(message["message"]?.string ?? "")")
            errorCodes.append(code)
            if let seq = message["seq"]?.number {
                pending[Int(seq)] = nil
            } else if sceneOutstanding > 0 {
                sceneOutstanding -= 1  // a refused scene message (or a refused play in a scene)
            } else if playsOutstanding > 0, code == "busy" || code == "nothing-armed" {
                playsOutstanding -= 1
            }
        default:
            break
        }
    }

    private func frame(_ message: JSONValue, text: String, at time: Double) {
        framesSinceConfigured += 1
        if counting { frames += 1 }
        if collectsTrace { trace.append(text) }
        phase = message["phase"]?.string ?? phase
        // A scene's interface turning is a transition too: rest waits for it.
        if case .object? = message["scene"]?["root"]?["rotating"] { rotating = true } else { rotating = false }
        progress = message["progress"]?.number ?? progress
        guard let ack = message["ack"]?.number.map(Int.init) else { return }
        if samples.last.map({ ack > $0.seq }) ?? true { samples.append((ack, progress)) }
        for (seq, sent) in pending where seq <= ack {
            pending[seq] = nil
            if timesRoundTrips { _ = latency.record(UInt64(max(time - sent, 0) * 1e6)) }
            if timesRoundTrips, seq == ack, let sentAt = message["sent"]?.number,
                let receivedAt = message["received"]?.number
            {
                _ = serverTime.record(UInt64(max(sentAt - receivedAt, 0) * 1000))
            }
        }
    }

    /// Whether the latest `scene-state` has a sheet moving between its detents.
    var sheetMoving: Bool {
        guard case .array(let sheets)? = sceneState?["sheets"] else { return false }
        return sheets.contains { $0["moving"] == .bool(true) }
    }

    /// The latest `scene-state` as the scene expectation reads it; nil without a scene.
    var sceneSummary: PanScript.SceneExpectation? {
        guard let state = sceneState, state["root"] != .null, state["root"] != nil else { return nil }
        let presented: [String] = {
            guard case .array(let items)? = state["presentations"] else { return [] }
            return items.compactMap { $0["presented"]?.string }
        }()
        var stacks: [String: [String]] = [:]
        if case .array(let items)? = state["navigationStacks"] {
            for item in items {
                guard let navigation = item["navigation"]?.string, case .array(let ids)? = item["stack"] else {
                    continue
                }
                stacks[navigation] = ids.compactMap(\.string)
            }
        }
        let orientation = state["orientation"]
        var bounds: [Double]?
        if case .array(let rect)? = orientation?["bounds"], rect.count == 4, let w = rect[2].number,
            let h = rect[3].number
        {
            bounds = [w, h]
        }
        var detent: [String: String] = [:]
        if case .array(let sheets)? = state["sheets"] {
            for sheet in sheets {
                if let id = sheet["controller"]?.string, let at = sheet["detent"]?.string { detent[id] = at }
            }
        }
        return PanScript.SceneExpectation(
            topMost: state["topMost"]?.string, presented: presented, stacks: stacks,
            interface: orientation?["interface"]?.string, bounds: bounds, detent: detent)
    }

    /// Local replays time the engine in-process instead of a round trip.
    func recordLatency(seconds: Double) {
        _ = latency.record(UInt64(max(seconds, 0) * 1e6))
    }
}
