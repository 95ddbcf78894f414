import Foundation
import SandboxSession

/// A pan script (docs/SCRIPTS.md): the transition's settings, timed steps, expectations.
public struct PanScript: Sendable {
    public var name: String
    public var description: String?
    /// A `configure` message's fields, sent as they are (the server validates them).
    public var configJSON: String?
    public var steps: [Step]
    public var expect: Expectations

    public enum Step: Equatable, Sendable {
        case down(x: Double, y: Double, pointer: Int)
        /// A straight line to (x, y), or by (x, y) when `relative`, over `ms` at `hz`.
        case move(x: Double, y: Double, relative: Bool, ms: Double, hz: Double, pointer: Int)
        /// Recorded moves: [ms from the step's start, x, y].
        case samples([[Double]], pointer: Int)
        case hold(ms: Double)
        case up(pointer: Int)
        case cancel(pointer: Int)
        case play
        case wait(WaitCondition, timeoutMs: Double)
        /// A scene message (`scene`, `present`, `dismiss`, `push`, `pop`): its fields, sent as
        /// they are with their `type` (the server validates them).
        case sceneMessage(type: String, json: String)
    }

    public enum WaitCondition: String, CaseIterable, Sendable {
        case began, released, played, finished, cancelled
        /// A property animator with pausesOnCompletion stopped at its end.
        case paused
        /// Finished, cancelled or paused — or nothing running at all (a pan that never began).
        case rest
    }

    public enum Outcome: String, Sendable {
        case finished, cancelled, none
    }

    public struct Expectations: Equatable, Sendable {
        public var outcome: Outcome?
        public var progress: Double?
        public var frames: ClosedRange<Int>?
        public var latencyP99Ms: Double?
        /// Every lifecycle callback received, in order, as `LifecycleEvent.description` writes
        /// them: `list.viewDidLoad`, `sheet.viewWillAppear(true)`, `sheet.completeTransition(false)`.
        public var lifecycle: [String]?
        /// Every error code received, in order (an empty list: none).
        public var errors: [String]?
        /// The final scene: the top-most controller, the presented ones in order, the stacks.
        public var scene: SceneExpectation?
        /// The last `released` event: its decision, reason and projected progress.
        public var release: ReleaseExpectation?
    }

    public struct ReleaseExpectation: Equatable, Sendable {
        /// `finish` or `cancel`.
        public var decision: String?
        /// `threshold`, `fling` or `projection`.
        public var reason: String?
        /// The projection's rest point lies within [min, max].
        public var projected: ClosedRange<Double>?
        /// The progress at release lies within [min, max].
        public var progress: ClosedRange<Double>?
    }

    public struct SceneExpectation: Equatable, Sendable {
        public var topMost: String?
        public var presented: [String]?
        public var stacks: [String: [String]]?
        /// The interface orientation and the window's size.
        public var interface: String?
        public var bounds: [Double]?
        /// Each phone sheet's detent by controller id (`scene-state`'s `sheets`).
        public var detent: [String: String]?
    }

    /// Steps at `hz` when a move does not say.
    public static let defaultRate = 60.0
    /// How long a `wait` waits when it does not say.
    public static let defaultTimeoutMs = 10_000.0
}
