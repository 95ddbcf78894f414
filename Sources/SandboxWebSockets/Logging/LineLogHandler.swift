import Glibc
import Logging

/// The server's swift-log handler: one line per event, as text (`TextLogLine`, the default) or
/// as a JSON object (`JSONLogLine`, `--log-format json`). The handler is the same for both: only
/// how a line is written differs.
///
/// Each line is queued whole on the process's `LogWriter` (a bounded queue written by a thread
/// of its own: a reader of stderr that stops never stalls a service thread), so lines from
/// several threads never interleave.
public struct LineLogHandler: LogHandler {
    public enum Format: Sendable {
        case text, json

        /// One line, "\n" included.
        public func line(time: timespec, level: Logger.Level, label: String, message: String, fields: Logger.Metadata)
            -> [UInt8]
        {
            switch self {
            case .text: TextLogLine.line(time: time, level: level, label: label, message: message, fields: fields)
            case .json: JSONLogLine.line(time: time, level: level, label: label, message: message, fields: fields)
            }
        }
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let format: Format
    private let label: String
    private let write: @Sendable ([UInt8]) -> Void
    /// The clock, injected so tests get a fixed timestamp: seconds and nanoseconds since the epoch.
    private let now: @Sendable () -> timespec

    /// Writes through the process's standard-error `LogWriter` (directly, before one is started).
    public static func standardError(_ format: Format, label: String) -> LineLogHandler {
        LineLogHandler(format, label: label, write: writeToStandardError)
    }

    public init(
        _ format: Format, label: String, now: @escaping @Sendable () -> timespec = LineLogHandler.realTime,
        write: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.format = format
        self.label = label
        self.now = now
        self.write = write
    }

    /// Queues `line` on `StandardErrorLog`'s writer; without one (a tool that never started it),
    /// writes it at once.
    @Sendable public static func writeToStandardError(_ line: [UInt8]) {
        if let writer = StandardErrorLog.writer {
            writer.enqueue(line)
            return
        }
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }

    @Sendable public static func realTime() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The handler's own metadata, then the provider's, then the event's (later ones win), and
    /// its error.
    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let explicit = event.metadata { fields.merge(explicit) { _, new in new } }
        if let error = event.error { fields["error"] = .string("\(error)") }
        write(
            format.line(
                time: now(), level: event.level, label: label, message: event.message.description, fields: fields))
    }
}
