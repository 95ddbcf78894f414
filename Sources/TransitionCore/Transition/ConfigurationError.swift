/// An invalid configuration value: which field, what is allowed, what was given.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The wire name of the field (`duration`, `clamp`, `spring.damping`, …).
    public let field: String
    /// What the field accepts, e.g. "a number in (0, 60] seconds".
    public let allowed: String
    /// The value that was refused, as text.
    public let got: String

    public init(field: String, allowed: String, got: String) {
        self.field = field
        self.allowed = allowed
        self.got = got
    }

    public var description: String { "\(field) must be \(allowed); got \(got)" }
}
