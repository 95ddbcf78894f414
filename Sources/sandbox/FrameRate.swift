import ArgumentParser
import SandboxSession

/// `--fps` of every command: checked against `SessionSettings.fpsRange`, where the range is written.
enum FrameRate {
    /// "1…240", for help and errors.
    static let rangeText = "\(SessionSettings.fpsRange.lowerBound)…\(SessionSettings.fpsRange.upperBound)"

    static func validate(_ fps: Int) throws {
        guard SessionSettings.fpsRange.contains(fps) else { throw ValidationError("--fps must be in \(rangeText)") }
    }
}
