import ArgumentParser
import Foundation
import SandboxWebSockets

/// What was wrong with the data a command was given — a script, a file, a server that is not
/// there — as opposed to its command line: each line said on standard error ("Error: …"),
/// without the usage text ArgumentParser adds to a `ValidationError`, then exit `code`
/// (64 for input that cannot be used, as `pan` exits for a bad script; 1 for a failed run).
/// Held by `test_cli_errors.py`: no "Usage:" after a data error.
struct DataError: Error {
    let lines: [String]
    let code: Int32

    init(_ lines: [String], code: Int32) {
        self.lines = lines
        self.code = code
    }

    /// Says the lines and returns the exit to throw.
    func report() -> ExitCode {
        Self.say(lines)
        return ExitCode(code)
    }

    /// "Error: …" lines on standard error, each made visible (`LogText.visible`): a script's
    /// field name or a server's reason may hold a terminal escape, which is shown, not run.
    static func say(_ lines: [String]) {
        let text = lines.map { "Error: \(LogText.visible($0))\n" }.joined()
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Runs a command's body, turning a `DataError` into its lines on standard error and its exit code.
func reportingDataErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as DataError {
        throw error.report()
    }
}
