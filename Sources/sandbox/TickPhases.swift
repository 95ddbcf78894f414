import ArgumentParser
import SandboxWebSockets

/// `serve --tick-phases` and `bench --server-tick-phases`: checked against
/// `ServerOptions.tickPhaseRange`, where the range is written.
enum TickPhases {
    /// "1…32", for help and errors.
    static let rangeText = "\(ServerOptions.tickPhaseRange.lowerBound)…\(ServerOptions.tickPhaseRange.upperBound)"

    static func validate(_ phases: Int, option: String) throws {
        guard ServerOptions.tickPhaseRange.contains(phases) else {
            throw ValidationError("\(option) must be in \(rangeText)")
        }
    }
}
