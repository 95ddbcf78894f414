import Foundation
import Testing

@testable import TransitionCore

@Suite("Timing curves")
struct TimingCurveTests {
    // Reference values from a 50-digit bisection of the same control points (mpmath).
    static let references: [(TimingCurve, [Double])] = [
        (
            .easeIn,
            [0.01702660965156294, 0.09346465071882486, 0.3153568125725393, 0.6218618691748902, 0.8394278457624665]
        ),
        (
            .easeOut,
            [0.16057215423753346, 0.3781381308251098, 0.6846431874274607, 0.9065353492811752, 0.982973390348437]
        ),
        (.easeInEaseOut, [0.019722453548311196, 0.12916193104731982, 0.5, 0.8708380689526802, 0.9802775464516889]),
        (
            .default,
            [0.09479630571604325, 0.40851059135539586, 0.802403387584857, 0.9604589783489741, 0.9943164774845563]
        ),
    ]

    @Test("named curves match an independent high-precision solution", arguments: 0..<4)
    func pinnedValues(index: Int) {
        let (curve, values) = Self.references[index]
        for (x, want) in zip([0.1, 0.25, 0.5, 0.75, 0.9], values) {
            #expect(abs(curve.value(at: x) - want) < 1e-9, "\(curve) at \(x)")
        }
    }

    @Test("the solver's |error| in x is below 1e-6 everywhere")
    func solverAccuracy() {
        for bezier in [CubicBezier.easeIn, .easeOut, .easeInEaseOut, .default, CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)]
        {
            for i in 0...1000 {
                let x = Double(i) / 1000
                let s = bezier.solveParameter(forX: x)
                #expect(abs(bezier.sampleX(s) - x) < 1e-6)
            }
        }
    }

    @Test("end points are exact and outside 0…1 clamps")
    func endPoints() {
        for (_, curve) in TimingCurve.named {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
            #expect(curve.value(at: -1) == 0)
            #expect(curve.value(at: 2) == 1)
        }
    }

    @Test("names round-trip")
    func names() {
        for (name, curve) in TimingCurve.named {
            #expect(TimingCurve(name: name) == curve)
            #expect(curve.name == name)
        }
        #expect(TimingCurve(name: "bouncy") == nil)
        #expect(CompletionCurve(name: "spring") == .spring)
        #expect(CompletionCurve(name: "linear") == .timing(.linear))
    }
}
