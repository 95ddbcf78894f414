import PropertyBased
import Testing
import TransitionCore

@testable import SandboxSession

/// The tracking table against the engine: for every kind, both operations and the settings that
/// bend the picture most, the interpolation rule's picture at random fractions is within 1 pt
/// per layer (and one opacity level) of the engine's, and the table stays within its byte budget.
@Suite("PredictionTable")
struct PredictionTableTests {
    static let kinds = Gen.int(in: 0...(TransitionKind.allCases.count - 1))
    static let variants = Gen.int(in: 0...4)
    static let fractions = Gen.double(in: 0...1)

    /// 0: defaults; 1: dismiss; 2: a property animator scrubbing on an ease-in curve; 3: the
    /// pop's spring at damping 0.2 (half the default: more oscillation); 4: the largest container.
    static func configuration(kind: Int, variant: Int) -> TransitionConfiguration {
        var c = TransitionConfiguration(kind: TransitionKind.allCases[kind])
        switch variant {
        case 1: c.operation = .dismiss
        case 2:
            c.driver = .propertyAnimator
            c.propertyAnimator.curve = .easeIn
            c.propertyAnimator.scrubsLinearly = false
        case 3: c.springDamping = 0.2
        case 4: c.container = Size(width: 4000, height: 4000)
        default: break
        }
        return c
    }

    /// One table per configuration, built once for the random checks.
    static let tables: [[(TrackingPicture, TrackingTable?)]] = TransitionKind.allCases.indices.map { kind in
        (0...4).map { variant in
            let picture = try! TrackingPicture(configuration: configuration(kind: kind, variant: variant))
            // A table over the message bound is never sent (`PredictionTables.maximumBytes`; the
            // flip in the 4000-pt container, whose sheet passes the eye): the page draws the
            // server's frames, so the rule is not held to it here.
            let table = TrackingTable(picture).flatMap { $0.encodedCount > PredictionTables.maximumBytes ? nil : $0 }
            return (picture, table)
        }
    }

    /// Every kind in every variant but one: the flip in the 4000-pt container, whose table is
    /// over the message bound (its sheet passes the eye: corners far out need dense samples).
    @Test func everyKindHasATable() {
        for (kind, row) in Self.tables.enumerated() {
            for (variant, (_, table)) in row.enumerated() {
                let overTheBound = TransitionKind.allCases[kind] == .flipHorizontal && variant == 4
                #expect((table == nil) == overTheBound, "kind \(kind) variant \(variant)")
                guard !overTheBound else { continue }
                #expect((table?.samples.count ?? 0) <= TrackingTable.maximumSamples)
                #expect(table?.samples.first?.fraction == 0 && table?.samples.last?.fraction == 1)
            }
        }
    }

    /// A picture that needs more than `maximumSamples` gets none: the pop's spring at damping
    /// 0.05 swings through a dozen half periods in the duration.
    @Test func aPictureBeyondTheSampleBoundHasNoTable() throws {
        var c = TransitionConfiguration(kind: .pop)
        c.springDamping = 0.05
        #expect(TrackingTable(try TrackingPicture(configuration: c)) == nil)
    }

    @Test func theRuleIsWithinOnePointOfTheEngine() async {
        await propertyCheck(count: 400, input: Self.fractions, Self.kinds, Self.variants) { fraction, kind, variant in
            let (picture, table) = Self.tables[kind][variant]
            guard let table else { return }
            // The stated exception: within an interval split down to the floor (a step, or a
            // corner going behind the flip's eye) the nearer sample may be the other side's.
            let after = table.samples.firstIndex { $0.fraction > fraction } ?? table.samples.count - 1
            let width = table.samples[after].fraction - table.samples[max(after - 1, 0)].fraction
            if width <= TrackingTable.minimumWidth { return }
            let deviation = TrackingTable.deviation(
                table.sample(atFraction: fraction).layers, picture.layers(atFraction: fraction))
            #expect(deviation.points <= 1, "kind \(kind) variant \(variant) at \(fraction)")
            #expect(deviation.opacity <= 2 * TrackingTable.opacityTolerance)
            let progress = table.sample(atFraction: fraction).progress
            #expect(abs(progress - picture.progress(atFraction: fraction)) <= 0.01)
        }
    }

    /// What a `prediction` message costs: at most `PredictionTables.maximumBytes` (a quarter of
    /// the reply queue's byte bound) for every configuration here but the flip in a 4000-pt
    /// container, whose sheet's corners pass behind the eye (the hub sends it no table:
    /// `PredictionSessionTests.aTableOverTheByteBoundIsNotSent`).
    @Test func tablesFitTheByteBound() {
        for (kind, row) in Self.tables.enumerated() {
            for (variant, (picture, _)) in row.enumerated() {
                let bytes = ServerMessages.encode(.prediction(TrackingTable(picture)), headroom: 0).payloadCount
                let flipLarge = TransitionKind.allCases[kind] == .flipHorizontal && variant == 4
                #expect((bytes <= PredictionTables.maximumBytes) != flipLarge, "kind \(kind) v\(variant): \(bytes)")
            }
        }
    }

    @Test func theRuleIsExactAtTheSamples() throws {
        let (picture, table) = Self.tables[TransitionKind.allCases.firstIndex(of: .flipHorizontal)!][0]
        let samples = try #require(table).samples
        for sample in samples.prefix(20) {
            let layers = try #require(table).sample(atFraction: sample.fraction).layers
            #expect(layers == picture.layers(atFraction: sample.fraction))
        }
    }

    /// Between samples that list different layers the nearer sample is taken, never a mix.
    @Test func differentLayerListsTakeTheNearerSample() {
        let a = LayerState(
            id: .from, content: .presenter, center: Point(x: 0, y: 0), bounds: Size(width: 10, height: 10), z: 0)
        var b = a
        b.center = Point(x: 100, y: 0)
        var c = b
        c.id = .to
        let mixed = TrackingTable(
            samples: [.init(fraction: 0, progress: 0, layers: [a]), .init(fraction: 1, progress: 1, layers: [b])],
            configuration: TransitionConfiguration())
        #expect(mixed.sample(atFraction: 0.25).layers[0].center.x == 25)
        let stepped = TrackingTable(
            samples: [.init(fraction: 0, progress: 0, layers: [a]), .init(fraction: 1, progress: 1, layers: [c])],
            configuration: TransitionConfiguration())
        #expect(stepped.sample(atFraction: 0.5).layers == [a])
        #expect(stepped.sample(atFraction: 0.51).layers == [c])
    }

    /// The measure can fail: a corner moved by 3 pt, a layer missing.
    @Test func theDeviationSeesAMovedCorner() {
        let a = LayerState(
            id: .from, content: .presenter, center: Point(x: 0, y: 0), bounds: Size(width: 10, height: 10), z: 0)
        var b = a
        b.transform = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 0)
        #expect(TrackingTable.deviation([a], [b]).points == 3)
        #expect(TrackingTable.deviation([a], []).points == .infinity)
    }
}
