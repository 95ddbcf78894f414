/// Decimal places of each quantity in a frame (docs/PROTOCOL.md, "Delta frames"): what a
/// person or a canvas can tell apart, no more. Fixed precision rather than the shortest
/// round-trip form: a 16-digit `156.6875547964885` becomes `156.69`, frames get shorter, and
/// a value that moved by less than what is sent encodes the same — the delta leaves it out.
enum FramePrecision {
    /// Positions and lengths in points (and velocities in pt/s): 0.01 pt is a thirty-third of a
    /// pixel on a 3× screen (the largest error, half that). `bounds` and `cornerRadius` are in
    /// the layer's own units, multiplied on screen by its transform: the reveal's ×150 logo and
    /// mask have exact bounds (67 × 66.97), so nothing is magnified.
    static let points = 2
    /// Multipliers of a length (the transforms' a–d, a scene layer's scale, a CATransform3D's
    /// rotation part): the error is at most 5e-7 × the distance from the layer's centre, under
    /// 0.01 pt for layers up to 40,000 pt across (the partial curl's fold mask reaches 16,000 pt
    /// in a 4,000-pt container, the largest allowed).
    static let multiplier = 6
    /// Progress and an animator's fractionComplete: a unit of progress is at most `distance`
    /// (10,000 pt) of finger travel, or the reveal's ~8,600 pt of travel at ×150: 5e-7 × 10,000
    /// = 0.005 pt.
    static let progress = 6
    /// Opacity: a channel has 255 levels (0.004 each); values below 5e-5 are sent as 0.
    static let opacity = 4
    /// A CATransform3D's perspective column (m14, m24, m34), about 1e-3 times a sine: its error
    /// x·5e-10 in the divisor w is magnified by 1/w near edge-on; 1e-9 keeps the projected
    /// points within 0.001 pt in a 4,000-pt container (1e-8 gave 0.019 pt).
    static let perspective = 9
    /// Server times in ms: 1 µs, the resolution the latency tools report in.
    static let milliseconds = 3
}
