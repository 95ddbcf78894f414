import TransitionCore

/// The tracked picture sampled along the tracked fraction, for a client that draws the pan
/// before the server's frame arrives (docs/ENGINE.md "Prediction"). Built from the engine's own
/// `TrackingPicture`, so every kind and every setting is covered by one source of truth.
///
/// The interpolation rule (the page's `web/js/prediction.js` follows it): for a fraction p
/// between samples i and i + 1, when the two samples list the same layers (ids in order, and
/// for each the same content, shape, z, mask and 2-D/3-D kind), every number is interpolated
/// linearly; otherwise the nearer sample is taken (the earlier one at the midpoint).
///
/// The samples are chosen adaptively: an interval is split at its midpoint while the rule's
/// picture at its quarter points differs from the engine's by more than `tolerance` points
/// (any corner of any layer, its corner radius) or `opacityTolerance`, or while its ends list
/// different layers, down to `minimumWidth`.
/// `PredictionTableTests` holds the bound at random fractions of every kind.
public struct TrackingTable: Equatable, Sendable {
    public struct Sample: Equatable, Sendable {
        public let fraction: Double
        /// What a frame's `progress` shows at this fraction.
        public let progress: Double
        public let layers: [LayerState]
    }

    public let samples: [Sample]
    /// The engine's configuration the table was sampled from: the pan's rule goes on the wire
    /// with it (`TrackingTable+Encoding`).
    public let configuration: TransitionConfiguration
    /// The table as the `prediction` message's `table` holds it, encoded once
    /// (`TrackingTable+Encoding`).
    let body: [UInt8]
    /// The bytes of `body`.
    public var encodedCount: Int { body.count }

    /// Points: a third of a point under the 1-pt goal, leaving room for the wire's rounding.
    public static let tolerance = 0.25
    /// One level of an 8-bit channel.
    public static let opacityTolerance = 1.0 / 255
    /// Below this an interval is not split: a step (a layer appearing, a one-sided face turning)
    /// is within 2⁻¹⁶ of a fraction, 0.003 pt of the finger at the default 200-pt distance.
    public static let minimumWidth = 1.0 / 65536
    /// The most samples a table may have; a picture that needs more gets none (its client
    /// draws the server's frames).
    public static let maximumSamples = 600
    static let initialIntervals = 8

    public init(samples: [Sample], configuration: TransitionConfiguration) {
        self.samples = samples
        self.configuration = configuration
        body = Self.encodedBody(samples, configuration)
    }

    /// The table of `picture`, or nil when it needs more than `maximumSamples`: sampling stops
    /// as soon as the count passes it, so a picture that needs more costs no more than one that
    /// needs exactly that many.
    public init?(_ picture: TrackingPicture) {
        func sample(_ fraction: Double) -> Sample {
            Sample(
                fraction: fraction, progress: picture.progress(atFraction: fraction),
                layers: picture.layers(atFraction: fraction))
        }
        var found: [Double: Sample] = [:]
        var pending: [(Double, Double)] = []
        let n = Self.initialIntervals
        for i in 0...n { found[Double(i) / Double(n)] = sample(Double(i) / Double(n)) }
        for i in 0..<n { pending.append((Double(i) / Double(n), Double(i + 1) / Double(n))) }
        while let (a, b) = pending.popLast() {
            guard b - a > Self.minimumWidth else { continue }
            let left = found[a]!, right = found[b]!
            // Ends that list different layers hold a step between them: split down to the floor,
            // so that the nearer sample is wrong over at most `minimumWidth` (PredictionTableTests,
            // a seed that found a step in an interval whose quarter points all fitted).
            let fits =
                Self.sameStructure(left.layers, right.layers)
                && [0.25, 0.5, 0.75].allSatisfy { (q: Double) -> Bool in
                    let p = a + (b - a) * q
                    let truth = picture.layers(atFraction: p)
                    return Self.deviation(Self.interpolate(left, right, at: p).layers, truth).fits
                }
            if fits { continue }
            let middle = (a + b) / 2
            found[middle] = sample(middle)
            if found.count > Self.maximumSamples { return nil }
            pending.append((a, middle))
            pending.append((middle, b))
        }
        self.init(samples: found.keys.sorted().map { found[$0]! }, configuration: picture.configuration)
    }

    /// The rule's sample at `fraction` (clamped to 0…1): `fraction`, its progress and layers.
    public func sample(atFraction fraction: Double) -> Sample {
        let p = min(max(fraction.isNaN ? 0 : fraction, 0), 1)
        var low = 0, high = samples.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if samples[mid].fraction <= p { low = mid } else { high = mid }
        }
        return Self.interpolate(samples[low], samples[high], at: p)
    }

    /// The rule between two samples.
    static func interpolate(_ a: Sample, _ b: Sample, at p: Double) -> Sample {
        let width = b.fraction - a.fraction
        let alpha = width > 0 ? min(max((p - a.fraction) / width, 0), 1) : 0
        guard sameStructure(a.layers, b.layers) else { return alpha <= 0.5 ? a : b }
        let layers = zip(a.layers, b.layers).map { mix($0, $1, alpha) }
        return Sample(fraction: p, progress: lerp(a.progress, b.progress, alpha), layers: layers)
    }

    static func sameStructure(_ a: [LayerState], _ b: [LayerState]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy {
                $0.id == $1.id && $0.content == $1.content && $0.shape == $1.shape && $0.z == $1.z
                    && $0.mask == $1.mask && ($0.transform3D == nil) == ($1.transform3D == nil)
            }
    }

    private static func lerp(_ a: Double, _ b: Double, _ alpha: Double) -> Double { a + (b - a) * alpha }

    private static func mix(_ a: LayerState, _ b: LayerState, _ alpha: Double) -> LayerState {
        func l(_ x: Double, _ y: Double) -> Double { lerp(x, y, alpha) }
        var out = a
        out.center = Point(x: l(a.center.x, b.center.x), y: l(a.center.y, b.center.y))
        out.bounds = Size(width: l(a.bounds.width, b.bounds.width), height: l(a.bounds.height, b.bounds.height))
        out.transform = AffineTransform(
            a: l(a.transform.a, b.transform.a), b: l(a.transform.b, b.transform.b),
            c: l(a.transform.c, b.transform.c), d: l(a.transform.d, b.transform.d),
            tx: l(a.transform.tx, b.transform.tx), ty: l(a.transform.ty, b.transform.ty))
        if let m = a.transform3D, let n = b.transform3D {
            let c = zip(m.components, n.components).map { l($0, $1) }
            out.transform3D = Transform3D(
                m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
        }
        out.cornerRadius = l(a.cornerRadius, b.cornerRadius)
        out.opacity = l(a.opacity, b.opacity)
        return out
    }
}
