/// The display link's pacing, like `CADisplayLink`: ticks at absolute targets start + k/fps, so
/// they do not drift; after a stall, missed ticks are skipped rather than burst. The live display
/// link and the virtual one both follow it.
public struct TickSchedule: Equatable, Sendable {
    public let fps: Int
    public let start: Double
    public private(set) var index = 0

    public init(fps: Int, start: Double) {
        self.fps = fps
        self.start = start
    }

    /// The next tick's time: the first target after the last tick that is not before `now`
    /// (a live link asks with the clock's time; a virtual one with -infinity: never late).
    public mutating func next(notBefore now: Double) -> Double {
        index += 1
        var target = start + Double(index) / Double(fps)
        if target < now {
            index += Int(((now - target) * Double(fps)).rounded(.up))
            target = start + Double(index) / Double(fps)
        }
        return target
    }

    /// The next target if the tick is on time.
    public var upcoming: Double { start + Double(index + 1) / Double(fps) }
}
