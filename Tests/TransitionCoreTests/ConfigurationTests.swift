import Testing

@testable import TransitionCore

@Suite("Configuration")
struct ConfigurationTests {
    static let invalid: [(String, @Sendable (inout TransitionConfiguration) -> Void)] = [
        ("duration", { $0.duration = 0 }),
        ("duration", { $0.duration = .infinity }),
        ("distance", { $0.distance = -5 }),
        ("slop", { $0.pan.slop = 1000 }),
        (
            "clamp",
            {
                $0.clampLower = 0.6; $0.clampUpper = 0.4
            }
        ),
        ("clamp", { $0.clampUpper = 1.5 }),
        ("threshold", { $0.threshold = 1 }),
        ("threshold", { $0.threshold = .nan }),
        ("completionSpeed", { $0.completionSpeed = 0 }),
        ("spring.damping", { $0.springDamping = 0 }),
        ("spring.initialVelocity", { $0.springInitialVelocity = 1e9 }),
        ("flingVelocity", { $0.flingVelocity = 0 }),
        ("container.width", { $0.container.width = 10 }),
        ("originFrame", { $0.originFrame = .zero }),
        ("originFrame", { $0.originFrame = Rect(x: 300, y: 0, width: 200, height: 100) }),
    ]

    @Test("every invalid value is an error naming its field", arguments: 0..<15)
    func invalidValues(index: Int) {
        let (field, change) = Self.invalid[index]
        var configuration = TransitionConfiguration()
        change(&configuration)
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do {
            try configuration.validate()
        } catch {
            #expect(error.field == field)
            #expect(error.description.hasPrefix("\(field) must be"))
        }
    }

    @Test("every kind's defaults are valid; the pop's origin is a real thumbnail, never .zero")
    func defaults() throws {
        for kind in TransitionKind.allCases {
            let configuration = TransitionConfiguration(kind: kind)
            try configuration.validate()
            #expect(configuration.duration == kind.defaultDuration)
        }
        let origin = TransitionConfiguration().effectiveOriginFrame
        #expect(origin == Rect(x: 148, y: 644, width: 120, height: 160))
        #expect(TransitionKind.reveal.defaultDuration == 2.0)
        #expect(TransitionKind(rawValue: "cover-vertical") == .coverVertical)
    }
}
