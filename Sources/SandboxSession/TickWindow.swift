/// Which of a phase's animating sessions a tick advances: `count` of them (nil: all) from the
/// `start`th in the phase's order, wrapping around.
public struct TickWindow: Equatable, Sendable {
    public var start: Int
    public var count: Int?

    public init(start: Int, count: Int?) {
        self.start = start
        self.count = count
    }

    public static let all = TickWindow(start: 0, count: nil)
}
