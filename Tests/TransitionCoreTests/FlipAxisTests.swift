import Testing

@testable import TransitionCore

/// Seed 003: the flip turns about the device's long axis — the screen's horizontal axis in a
/// landscape interface, the vertical one in portrait.
@Suite("Flip axis") struct FlipAxisTests {
    static func spans(longAxisHorizontal: Bool) throws -> (width: Double, height: Double) {
        var configuration = TransitionConfiguration(kind: .flipHorizontal)
        configuration.container = Size(width: 844, height: 390)
        configuration.longAxisHorizontal = longAxisHorizontal
        let animator = FlipHorizontalAnimator(configuration: configuration)
        let from = try #require(animator.layers(at: configuration.duration * 0.3).first { $0.id == .from })
        let corners = try #require(from.projectedCorners())
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return (xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    @Test func portraitTurnsAboutTheVerticalAxisLandscapeAboutTheHorizontal() throws {
        let vertical = try Self.spans(longAxisHorizontal: false)
        #expect(vertical.width < 844 * 0.9)  // the sheet narrows as it turns about y
        let horizontal = try Self.spans(longAxisHorizontal: true)
        #expect(horizontal.height < 390 * 0.9)  // it flattens as it turns about x
        #expect(horizontal.width >= 844 * 0.9)
    }
}
