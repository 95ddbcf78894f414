/// A pan on a sheet's card that moves it between its detents: no transition, no appearance
/// callbacks — the card follows the finger (a rubber band past the largest and the smallest
/// detent) and, released, settles on a spring into the detent `SheetDetentRelease` chooses.
/// A state machine: `undecided` (down at the smallest detent: the first move decides whether
/// this is the swipe-down dismissal or a drag up), `tracking`, `settling`. Pure: time is an
/// argument. SheetDetentDragTests.
public enum SheetDetentDrag: Equatable, Sendable {
    /// What every state knows: the sheet, its detents' tops and the pictures at each.
    public struct Sheet: Equatable, Sendable {
        public var controller: String
        /// Card tops, smallest detent (largest y) first, with their identifiers.
        public var tops: [Double]
        public var ids: [String]
        /// The picture at rest at each detent, same order.
        public var pictures: [[SceneLayer]]
        /// The container's height (the rubber band's dimension below the smallest detent).
        public var dimension: Double
        /// How far the card may stretch above its largest detent (pt, ≥ 0): `stretchLimit`.
        public var stretch: Double

        /// `safeAreaTop`: the window's top safe-area inset (pt).
        public init(state: SheetDetentState, pictures: [[SceneLayer]], dimension: Double, safeAreaTop: Double) {
            controller = state.controller
            tops = state.detents.map(\.top)
            ids = state.detents.map(\.id)
            self.pictures = pictures
            self.dimension = dimension
            stretch = SheetDetentDrag.stretchLimit(largestTop: tops.last ?? 0, safeAreaTop: safeAreaTop)
        }
    }

    public struct Tracking: Equatable, Sendable {
        public var sheet: Sheet
        public var pointerID: Int
        public var fingerStart: Double
        public var cardStart: Double
        /// The card's top now.
        public var top: Double
        /// The detent the drag began at (a change is reported against it).
        public var startDetent: String
        public var velocity = VelocityTracker()
    }

    public struct Settling: Equatable, Sendable {
        public var sheet: Sheet
        public var from: Double
        public var to: Double
        public var spring: Spring
        public var start: Double
        /// The card's top as of the latest tick (frames read it, so a frame is the same bytes
        /// whenever it is encoded).
        public var top: Double
    }

    /// Down on the card at the smallest detent, not yet moved: `down` is kept to hand to the
    /// swipe-down's engine if the first move goes down.
    case undecided(Tracking, down: PointerEvent)
    case tracking(Tracking)
    case settling(Settling)

    /// UIScrollView's rubber band constant (`RubberBand.scrollViewConstant`): the card past its
    /// end detents stretches like a scroll view past its edge (inferred: UIKit's sheet
    /// stretches, its constant is not published).
    public static let band = RubberBand(constant: RubberBand.scrollViewConstant)
    /// The most the card stretches above its largest detent (pt).
    public static let maximumStretch = 100.0

    /// The stretch above the largest detent tends to the gap between the card's top there and
    /// the safe area's top, at most 100 pt (10 pt on the 844 pt phone). UIKit limits it
    /// (`_rubberBandExtentBeyondMinimumOffset`, read in the decompile's `_UISheetInteraction`
    /// init blocks, github.com/EthanArbuckle/iPhone18-3_26.1_23B85_Restore); the value is a
    /// third-party reading (the Charon port), not Apple's. Chosen over OpenUIKit's measurement of no
    /// stretch at all on iOS 26.1 because it follows the decompile's extent; the two differ by
    /// at most 10 pt on a phone in portrait. SheetDetentReleaseTests.theStretchAboveTheLargestIsLimited.
    public static func stretchLimit(largestTop: Double, safeAreaTop: Double) -> Double {
        let gap = largestTop - safeAreaTop
        return gap.isFinite ? min(max(gap, 0), maximumStretch) : 0
    }

    /// A drag that begins on `sheet` with the card at `top` (at rest or caught mid-settle).
    public static func begin(
        _ event: PointerEvent, sheet: Sheet, top: Double, detent: String
    ) -> SheetDetentDrag {
        var tracking = Tracking(
            sheet: sheet, pointerID: event.pointerID, fingerStart: event.position.y, cardStart: top, top: top,
            startDetent: detent)
        tracking.velocity.add(Point(x: event.position.x, y: event.position.y), at: event.time)
        let atSmallest = abs(top - sheet.tops[0]) < 0.5
        return atSmallest ? .undecided(tracking, down: event) : .tracking(tracking)
    }

    public var sheet: Sheet {
        switch self {
        case .undecided(let t, _), .tracking(let t): t.sheet
        case .settling(let s): s.sheet
        }
    }

    /// The card's top now.
    public var top: Double {
        switch self {
        case .undecided(let t, _), .tracking(let t): t.top
        case .settling(let s): s.top
        }
    }

    public var pointerID: Int? {
        switch self {
        case .undecided(let t, _), .tracking(let t): t.pointerID
        case .settling: nil
        }
    }

    /// A settle from `from` to `to` begun at `now` at rest (a programmatic change inside
    /// `animateChanges`; the same spring as a release's, *chosen*).
    public static func settle(sheet: Sheet, from: Double, to: Double, at now: Double) -> SheetDetentDrag {
        .settling(
            Settling(
                sheet: sheet, from: from, to: to, spring: SheetDetentRelease.spring(from: from, to: to, velocity: 0),
                start: now, top: from))
    }

    /// The card's top for a finger `dy` from where it came down: 1:1 between the detents,
    /// rubber-banded past the largest (up, tending to `stretch`) and the smallest (down).
    static func top(raw: Double, sheet: Sheet) -> Double {
        let smallest = sheet.tops[0]
        let largest = sheet.tops[sheet.tops.count - 1]
        if raw < largest { return largest - band.offset(overshoot: largest - raw, dimension: sheet.stretch) }
        if raw > smallest { return smallest + band.offset(overshoot: raw - smallest, dimension: sheet.dimension) }
        return raw
    }

    /// A move of the tracked pointer.
    public mutating func move(_ event: PointerEvent) {
        guard case .tracking(var t) = self else { return }
        t.velocity.add(Point(x: event.position.x, y: event.position.y), at: event.time)
        t.top = Self.top(raw: t.cardStart + event.position.y - t.fingerStart, sheet: t.sheet)
        self = .tracking(t)
    }

    /// The down the sheet's swipe-down dismissal starts from when `event` (a move of the tracked
    /// pointer) takes the card below its smallest detent: where the finger was as the card
    /// crossed it, so the dismissal's translation is the card's travel past the detent. Nil while
    /// the card stays at or above it. In UIKit the dismissal is one of the drag's stops
    /// (`_UISheetLayoutInfo _indexOfCurrentActiveOrDismissDetent`, `__draggingAndDismissing`, the
    /// decompile of iOS 26.1's UIKitCore): one drag runs from a higher detent into it.
    /// SheetDetentReleaseTests.aDragBelowTheSmallestDetentStartsTheDismissal.
    public func dismissalDown(_ event: PointerEvent) -> PointerEvent? {
        guard case .tracking(let t) = self, event.position.y.isFinite else { return nil }
        let past = t.cardStart + event.position.y - t.fingerStart - t.sheet.tops[0]
        guard past > 0 else { return nil }
        return PointerEvent(
            .down, x: event.position.x, y: event.position.y - past, time: event.time, pointerID: t.pointerID)
    }

    /// The first move of an undecided drag going up: tracking from here.
    public mutating func decideUp(_ event: PointerEvent) {
        guard case .undecided(let t, _) = self else { return }
        self = .tracking(t)
        move(event)
    }

    /// The finger lifted (or was cancelled: back to the detent it began at). Returns the
    /// detent the card settles into; the drag is then `settling` from `now`.
    public mutating func release(_ event: PointerEvent, cancelled: Bool) -> String {
        let t: Tracking
        switch self {
        case .undecided(let tracking, _), .tracking(let tracking): t = tracking
        case .settling(let s): return s.sheet.ids[s.sheet.tops.firstIndex(of: s.to) ?? 0]
        }
        var velocity = t.velocity
        velocity.add(Point(x: event.position.x, y: event.position.y), at: event.time)
        let vy = cancelled ? 0 : velocity.velocity.y
        let index =
            cancelled
            ? t.sheet.ids.firstIndex(of: t.startDetent) ?? 0
            : SheetDetentRelease.target(top: t.top, velocity: vy, tops: t.sheet.tops)
        let to = t.sheet.tops[index]
        self = .settling(
            Settling(
                sheet: t.sheet, from: t.top, to: to,
                spring: SheetDetentRelease.spring(from: t.top, to: to, velocity: vy), start: event.time, top: t.top))
        return t.sheet.ids[index]
    }

    /// Advances a settle to `now`; false once it is over (the card rests on its detent).
    public mutating func advance(to now: Double) -> Bool {
        guard case .settling(var s) = self else { return true }
        let elapsed = max(now - s.start, 0)
        let displacement = s.spring.displacement(at: elapsed)
        s.top = s.to + (s.from - s.to) * displacement
        let over =
            elapsed >= s.spring.settlingDuration()
            || abs(s.top - s.to) < SheetDetentRelease.restDistance && abs(s.spring.velocity(at: elapsed)) < 0.05
        self = .settling(s)
        return !over
    }

    /// The still views with the card at `top`: the pictures of the two detents around it,
    /// blended (the presenter's push-back and the dimming follow the card), or, past the end
    /// detents, the end picture with the sheet's views moved by the overshoot (above the largest
    /// the card grows: its bottom stays on the container's).
    public var layers: [SceneLayer] {
        let sheet = sheet
        let y = top
        let tops = sheet.tops
        for index in 0..<(tops.count - 1) where y <= tops[index] && y >= tops[index + 1] {
            let span = tops[index] - tops[index + 1]
            let fraction = span > 0 ? (tops[index] - y) / span : 0
            return ScenePicture.still(
                before: sheet.pictures[index], after: sheet.pictures[index + 1], progress: fraction)
        }
        let end = y < tops[tops.count - 1] ? tops.count - 1 : 0
        let dy = y - tops[end]
        return sheet.pictures[end].map { layer in
            guard layer.group == sheet.controller, layer.role != .dimming else { return layer }
            var moved = layer
            moved.frame.origin.y += dy
            if dy < 0, layer.role != .grabber, layer.role != .navigationBar { moved.frame.size.height -= dy }
            return moved
        }
    }
}
