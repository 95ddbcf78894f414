import Foundation

/// A one-line progress bar on standard error, redrawn in place: only where a person watches
/// (standard error a terminal), so a pipe or a CI log gets no carriage returns.
final class ProgressBar {
    /// A bar if `wanted` and standard error is a terminal, else nil.
    static func onTerminal(_ wanted: Bool) -> ProgressBar? {
        wanted && isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    func show(_ label: String, _ fraction: Double) {
        let width = 30
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        let line = "\r\(label) [\(bar)] \(Int(min(max(fraction, 0), 1) * 100))%"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
