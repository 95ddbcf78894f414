import PropertyBased
import Testing

@testable import TransitionCore

/// The projection release rule (WWDC 2018 "Designing Fluid Interfaces").
@Suite("Release rules")
struct ReleaseRuleTests {
    static func engine(_ change: (inout TransitionConfiguration) -> Void = { _ in }) throws -> InteractiveTransition {
        var configuration = TransitionConfiguration(kind: .push)
        change(&configuration)
        return try InteractiveTransition(configuration: configuration)
    }

    /// 60 pt in 150 ms, released moving: progress 60/200 = 0.3, velocity 400 pt/s = 2 progress/s.
    static let quickShortPan = Gesture.pan(dx: 60, over: 0.15)

    @Test("the WWDC projection: (v/1000)·r/(1 − r), worked numbers")
    func projectedDistance() {
        // r = 0.998: r/(1 − r) = 499, so 1000 pt/s projects 499 pt (v × 0.499 s).
        #expect(abs(ReleaseRule.projectedDistance(velocity: 1000, decelerationRate: 0.998) - 499) < 1e-9)
        // r = 0.99: r/(1 − r) = 99, so 1000 pt/s projects 99 pt (v × 0.099 s).
        #expect(abs(ReleaseRule.projectedDistance(velocity: 1000, decelerationRate: 0.99) - 99) < 1e-9)
        // In progress per second: 2/s at 0.998 projects 0.998 of a transition.
        #expect(abs(ReleaseRule.projectedDistance(velocity: 2, decelerationRate: 0.998) - 0.998) < 1e-12)
        // Linear in v and signed: a motion toward the start projects backwards.
        #expect(abs(ReleaseRule.projectedDistance(velocity: -2, decelerationRate: 0.99) + 0.198) < 1e-12)
        #expect(ReleaseRule.projectedDistance(velocity: 0, decelerationRate: 0.998) == 0)
        // The sum it closes: r + r² + … over milliseconds, checked against the series.
        var series = 0.0
        var kept = 1.0
        for _ in 0..<200_000 { kept *= 0.99; series += kept }
        #expect(abs(series - 0.99 / (1 - 0.99)) < 1e-9)
    }

    @Test("normal deceleration finishes a quick short pan the threshold cancels; fast cancels it")
    func projectionDecides() throws {
        let g = Self.quickShortPan
        var threshold = try Self.engine()
        _ = try threshold.apply(g.events)
        let byThreshold = try #require(threshold.lastRelease)
        #expect(byThreshold.outcome == .cancel && byThreshold.reason == .threshold && byThreshold.projected == nil)
        #expect(abs(byThreshold.progress - 0.3) < 1e-12 && abs(byThreshold.velocity - 2) < 1e-9)

        var normal = try Self.engine { $0.releaseRule = .projection }
        let events = try normal.apply(g.events)
        let projected = try #require(normal.lastRelease)
        #expect(projected.reason == .projection && projected.outcome == .finish)
        // 0.3 + (2/1000)·0.998/0.002 = 0.3 + 0.998
        #expect(abs(try #require(projected.projected) - 1.298) < 1e-9)
        #expect(events.last == .released(projected))
        #expect(normal.phase == .finishing)

        var fast = try Self.engine {
            $0.releaseRule = .projection; $0.decelerationRate = ReleaseRule.fastDecelerationRate
        }
        _ = try fast.apply(g.events)
        let short = try #require(fast.lastRelease)
        // 0.3 + 0.002 · 99 = 0.498 < 0.5
        #expect(short.reason == .projection && short.outcome == .cancel)
        #expect(abs(try #require(short.projected) - 0.498) < 1e-9)
    }

    @Test("a finger that stops before lifting projects to where it is")
    func stillRelease() throws {
        var engine = try Self.engine { $0.releaseRule = .projection }
        _ = try engine.apply(Gesture.pan(dx: 110, over: 0.3, hold: 0.2).events)
        let release = try #require(engine.lastRelease)
        #expect(release.velocity == 0 && release.projected == release.progress)
        #expect(release.outcome == .finish)  // 0.55 ≥ 0.5
    }

    @Test("a fling still decides first; the projection is reported beside it")
    func flingFirst() throws {
        var engine = try Self.engine {
            $0.releaseRule = .projection; $0.flingVelocity = 300
        }
        // Back toward the start at 400 pt/s from 0.6: the fling cancels.
        var g = Gesture()
        g.move(dx: 120, over: 0.4, steps: 24)
        g.move(dx: -60, over: 0.15, steps: 9)
        g.up()
        _ = try engine.apply(g.events)
        let release = try #require(engine.lastRelease)
        #expect(release.reason == .fling && release.outcome == .cancel)
        #expect(abs(try #require(release.projected) - (0.3 - 0.998)) < 1e-9)
    }

    @Test("the threshold moves the boundary the projection is compared with")
    func thresholdIsTheBoundary() throws {
        var engine = try Self.engine {
            $0.releaseRule = .projection; $0.threshold = 0.9
        }
        _ = try engine.apply(Self.quickShortPan.events)  // projects to 1.298
        #expect(engine.lastRelease?.outcome == .finish)
        var fast = try Self.engine {
            $0.releaseRule = .projection; $0.threshold = 0.4; $0.decelerationRate = 0.99
        }
        _ = try fast.apply(Self.quickShortPan.events)  // 0.498 ≥ 0.4
        #expect(fast.lastRelease?.outcome == .finish)
    }

    @Test("the deceleration rate is refused outside (0, 1)", arguments: [0, 1, -0.5, 1.5, .nan, .infinity, 1e308])
    func rateRange(rate: Double) {
        var configuration = TransitionConfiguration()
        configuration.decelerationRate = rate
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do {
            try configuration.validate()
        } catch {
            #expect(error.field == "decelerationRate")
        }
    }

    @Test(
        "rates at the open interval's edges keep the projection finite",
        arguments: [Double.leastNonzeroMagnitude, 1e-300, 0.5, 1 - Double.ulpOfOne / 2])
    func rateEdges(rate: Double) throws {
        var engine = try Self.engine {
            $0.releaseRule = .projection; $0.decelerationRate = rate; $0.distance = 1; $0.pan.slop = 0
        }
        // The fastest velocity the estimate allows, over the smallest distance.
        let events = [
            PointerEvent(.down, x: 0, y: 0, time: 0), PointerEvent(.move, x: 1_000_000, y: 0, time: 1e-6),
            PointerEvent(.up, x: 1_000_000, y: 0, time: 1e-6),
        ]
        _ = try engine.apply(events)
        let release = try #require(engine.lastRelease)
        #expect(try #require(release.projected).isFinite)
    }

    /// Random releases: the projection is progress + the WWDC distance, and the outcome is
    /// its side of the threshold (no fling configured).
    @Test func projectionIsProgressPlusTheDistanceAndDecidesBySide() async {
        await propertyCheck(
            count: 200, input: PropertyTests.steps, Gen.double(in: 0...0.2), Gen.double(in: 0.5...0.9999)
        ) { steps, hold, rate in
            var engine = try! Self.engine {
                $0.releaseRule = .projection; $0.decelerationRate = rate
            }
            for event in PropertyTests.gesture(steps, hold: hold) { _ = try! engine.handle(event) }
            guard let release = engine.lastRelease else { return }
            let projected = release.progress + (release.velocity / 1000) * rate / (1 - rate)
            #expect(release.projected == projected)
            #expect(release.reason == .projection)
            #expect(release.outcome == (projected < 0.5 ? .cancel : .finish))
        }
    }
}
