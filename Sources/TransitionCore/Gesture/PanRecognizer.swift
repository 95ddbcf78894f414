/// A `UIPanGestureRecognizer` for one pointer at a time, fed with `PointerEvent`s.
///
/// States follow UIKit: possible → began → changed… → ended | cancelled, or possible → failed
/// (a tap, or movement on the wrong axis/direction). The first pointer down is the one the pan
/// follows; other pointers are remembered (so their own up is valid) but otherwise ignored:
/// they neither start a pan nor move this one.
///
/// The translation is measured from the pointer-down point, so it already includes the slop
/// when the pan begins (UIKit reports the same non-zero translation at `.began`).
public struct PanRecognizer: Equatable, Hashable, Sendable {
    public enum State: String, Equatable, Hashable, Sendable {
        case possible, began, changed, ended, cancelled, failed
    }

    /// How many pointers may be down at once (a hand's worth; more is refused).
    public static let maximumPointers = 10

    public var settings: PanSettings
    public private(set) var state: State = .possible
    private var trackedPointer: Int?
    private var otherPointers: [Int] = []
    private var start: Point = .zero
    private var current: Point = .zero
    private var lastTime = -Double.infinity
    private var tracker = VelocityTracker()

    public init(settings: PanSettings = PanSettings()) {
        self.settings = settings
    }

    /// Translation from the pointer-down point, in points.
    public var translation: Point { current - start }
    /// Velocity of the followed pointer in points per second (see `VelocityTracker`).
    public var velocity: Point { tracker.velocity }
    /// True between began and ended/cancelled.
    public var isActive: Bool { state == .began || state == .changed }
    /// True while the followed pointer is down (recognized or not).
    public var hasPointerDown: Bool { trackedPointer != nil }

    /// Throws exactly when `handle` would; changes nothing.
    public func validate(_ event: PointerEvent) throws(InputError) {
        guard event.position.isFinite, event.time.isFinite else { throw .nonFiniteValue }
        guard event.isWithinCoordinateLimit else {
            throw .coordinateOutOfRange(x: event.position.x, y: event.position.y)
        }
        guard event.time >= lastTime else { throw .timeWentBackwards(previous: lastTime, got: event.time) }
        let isDown = event.pointerID == trackedPointer || otherPointers.contains(event.pointerID)
        switch event.phase {
        case .down:
            if isDown { throw .pointerAlreadyDown(event.pointerID) }
            let downCount = (trackedPointer == nil ? 0 : 1) + otherPointers.count
            if downCount >= PanRecognizer.maximumPointers {
                throw .tooManyPointers(limit: PanRecognizer.maximumPointers)
            }
        case .move, .up, .cancel:
            if !isDown { throw .pointerNotDown(event.pointerID) }
        }
    }

    /// Applies one event. Returns the new state when the pan began, changed, ended or was
    /// cancelled; nil when the event did not move the pan (slop not reached, another pointer,
    /// a tap). `beginImmediately` recognizes at pointer-down, with no slop: used to grab a
    /// running completion, as touching an interruptible UIKit animation does.
    @discardableResult
    public mutating func handle(_ event: PointerEvent, beginImmediately: Bool = false) throws(InputError) -> State? {
        try validate(event)
        lastTime = event.time
        let id = event.pointerID
        if id != trackedPointer {
            switch event.phase {
            case .down:
                if trackedPointer == nil { return startTracking(event, beginImmediately: beginImmediately) }
                otherPointers.append(id)
            case .up, .cancel:
                otherPointers.removeAll { $0 == id }
            case .move:
                break
            }
            return nil
        }
        current = event.position
        tracker.add(event.position, at: event.time)
        switch event.phase {
        case .down:
            return nil  // unreachable: validate refuses a second down of the tracked pointer
        case .move:
            switch state {
            case .possible:
                state = recognition()
                return state == .began ? .began : nil
            case .began, .changed:
                state = .changed
                return .changed
            case .ended, .cancelled, .failed:
                return nil
            }
        case .up, .cancel:
            trackedPointer = nil
            if isActive {
                state = event.phase == .up ? .ended : .cancelled
                return state
            }
            state = .failed
            return nil
        }
    }

    private mutating func startTracking(_ event: PointerEvent, beginImmediately: Bool) -> State? {
        trackedPointer = event.pointerID
        start = event.position
        current = event.position
        tracker.reset()
        tracker.add(event.position, at: event.time)
        state = beginImmediately ? .began : .possible
        return beginImmediately ? .began : nil
    }

    /// Decides, while possible, whether the movement so far begins the pan, fails it, or waits.
    private func recognition() -> State {
        let t = translation
        let slop = settings.slop
        let along: Double
        let across: Double
        switch settings.axis {
        case .free:
            return (t.x * t.x + t.y * t.y).squareRoot() >= slop ? .began : .possible
        case .x: (along, across) = (t.x, t.y)
        case .y: (along, across) = (t.y, t.x)
        }
        if abs(across) >= slop && abs(across) > abs(along) { return .failed }
        guard abs(along) >= slop && abs(along) >= abs(across) else { return .possible }
        switch settings.direction {
        case .both: return .began
        case .positive: return along > 0 ? .began : .failed
        case .negative: return along < 0 ? .began : .failed
        }
    }
}
