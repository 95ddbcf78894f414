/// Which movement a pan recognizes.
public enum PanAxis: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Begins on horizontal movement; fails if the pointer first moves further vertically.
    case x
    /// Begins on vertical movement; fails if the pointer first moves further horizontally.
    case y
    /// Begins on movement in any direction.
    case free
}

/// Along the axis, which way the pan may start. Ignored for `PanAxis.free`.
public enum PanDirection: String, Equatable, Hashable, Sendable, CaseIterable {
    case both
    /// Rightwards (x) or downwards (y).
    case positive
    /// Leftwards (x) or upwards (y).
    case negative
}

/// The recognizer's settings: `UIPanGestureRecognizer`'s hysteresis plus axis/direction filters
/// (what `gestureRecognizerShouldBegin` usually hand-codes).
public struct PanSettings: Equatable, Hashable, Sendable {
    /// Distance in points the pointer must travel before the pan begins (UIKit: about 10 pt).
    public var slop: Double = 10
    public var axis: PanAxis = .x
    public var direction: PanDirection = .both

    public init(slop: Double = 10, axis: PanAxis = .x, direction: PanDirection = .both) {
        self.slop = slop
        self.axis = axis
        self.direction = direction
    }
}
