/// Decimal places of each quantity in a frame (docs/PROTOCOL.md, "Delta frames"): what a
/// person or a canvas can tell apart, no more. Fixed precision rather than the shortest
/// round-trip form: a 17-digit `156.6875547964885` becomes `156.69`, frames get shorter, and
/// a value that moved by less than what is sent encodes the same — the delta leaves it out.
enum FramePrecision {
    /// Positions and lengths in points (and velocities in pt/s): 0.01 pt is a thirtieth of a
    /// pixel on a 3× screen.
    static let points = 2
    /// Multipliers of a length (the transforms' a–d, a scene layer's scale): times the largest
    /// container, 1,366 pt, 1e-6 stays below 0.01 pt.
    static let multiplier = 6
    /// Progress and an animator's fractionComplete: 1e-6 of the largest container, as above.
    static let progress = 6
    /// Opacity: a channel has 255 levels (0.004 each).
    static let opacity = 4
    /// A CATransform3D's perspective column (m14, m24, m34), about 1/eyeDistance (1e-3) times
    /// a sine: multiplied by coordinates of hundreds of points, 1e-8 stays far below 0.01 pt
    /// (the other components are multipliers).
    static let perspective = 8
    /// Server times in ms: 1 µs, the resolution the latency tools report in.
    static let milliseconds = 3
}
