import Dispatch
import Glibc
import Synchronization

/// The one place log lines are written: a bounded queue of bytes and a writer thread of its own.
///
/// Why: a handler that writes to standard error from the service
/// thread blocks that thread as soon as the reader of stderr stops reading (a paused `| less`,
/// Ctrl-S in a terminal, a hung log shipper): the pipe's 64 KiB fill after a few hundred lines,
/// `write(2)` blocks, and with it the whole service loop — `GET /` times out and SIGTERM is never
/// handled. So service threads only *enqueue* (a mutex, a copy of the line, at most one semaphore
/// signal; never a system call that can block), and only this writer thread calls `write(2)`.
/// When the queue holds `capacity` bytes a line is dropped and counted; once the writer catches
/// up it writes "dropped N log lines" (formatted by `dropNote`, in the log's own format), and the
/// count goes to `sandbox_log_lines_dropped_total`. At exit `flush(within:)` waits a short
/// deadline for the queue to drain, never longer: a stuck reader must not hold up exit.
/// Held by `LogSafetyTests.aWriterBlockedOnAPipeNobodyReadsNeverBlocksEnqueue` and
/// `aReadWriterDeliversEveryLineInOrder`.
public final class LogWriter: @unchecked Sendable {  // the state is behind `state`'s mutex; `wake` is a semaphore
    /// The queue's bound, in bytes.
    public static let defaultCapacity = 1 << 20

    /// Every line dropped by any writer of this process (for the metric: `LogStats`).
    static let droppedTotal = Atomic<Int>(0)

    public let capacity: Int
    private let fd: Int32
    private let dropNote: @Sendable (Int) -> [UInt8]
    private let state = Mutex(LogWriterState())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the writer thread. `fd` is written with blocking `write(2)` calls from that thread
    /// only; `dropNote(n)` is the line that says n lines were dropped.
    public init(fd: Int32, capacity: Int = LogWriter.defaultCapacity, dropNote: @escaping @Sendable (Int) -> [UInt8]) {
        self.fd = fd
        self.capacity = capacity
        self.dropNote = dropNote
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread, nil,
            { argument in
                let writer = Unmanaged<LogWriter>.fromOpaque(argument!).takeRetainedValue()
                writer.run()
                return nil
            }, retained)
        precondition(created == 0, "cannot start the log writer thread: \(created)")
        pthread_detach(thread)
    }

    /// Queues one line (it should end with "\n"). Never blocks on I/O: returns false, and counts
    /// the line as dropped, when the queue has no room for it.
    @discardableResult
    public func enqueue(_ line: [UInt8]) -> Bool {
        let (accepted, signal) = state.withLock { (state: inout LogWriterState) -> (Bool, Bool) in
            guard !state.closing, state.pending.count + line.count <= capacity else {
                state.dropped += 1
                return (false, false)
            }
            state.pending.append(contentsOf: line)
            let signal = state.asleep
            state.asleep = false
            return (true, signal)
        }
        if !accepted { Self.droppedTotal.add(1, ordering: .relaxed) }
        if signal { wake.signal() }
        return accepted
    }

    /// Bytes queued and not yet handed to `write(2)`.
    public var queuedBytes: Int { state.withLock { (state: inout LogWriterState) in state.pending.count } }

    /// Lines dropped and not yet reported by a note.
    public var unreportedDrops: Int { state.withLock { (state: inout LogWriterState) in state.dropped } }

    /// Waits until everything queued is written, or `seconds` passed. True when it drained.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        while true {
            let idle = state.withLock { (state: inout LogWriterState) in
                state.pending.isEmpty && !state.busy && state.dropped == 0
            }
            if idle { return true }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            if Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9 >= seconds { return false }
            usleep(2_000)
        }
    }

    /// Stops accepting lines; the thread ends once it has written what was queued (tests).
    public func close() {
        let signal = state.withLock { (state: inout LogWriterState) -> Bool in
            state.closing = true
            defer { state.asleep = false }
            return state.asleep
        }
        if signal { wake.signal() }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            var dropped = 0
            let next = state.withLock { (state: inout LogWriterState) -> Bool? in
                state.busy = false
                if state.pending.isEmpty && state.dropped == 0 {
                    if state.closing { return nil }
                    state.asleep = true
                    return false
                }
                swap(&batch, &state.pending)
                dropped = state.dropped
                state.dropped = 0
                state.busy = true
                return true
            }
            guard let next else { return }
            guard next else {
                wake.wait()
                continue
            }
            writeAll(batch)
            batch.removeAll(keepingCapacity: batch.capacity <= capacity)
            if dropped > 0 { writeAll(dropNote(dropped)) }
        }
    }

    /// Blocking writes until all of `bytes` is written or the descriptor fails (then the rest is lost).
    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && errno == EAGAIN {
                    var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&pfd, 1, 1000)
                } else {
                    return
                }
            }
        }
    }
}

/// `LogWriter`'s queue, under its mutex (a type of its own so the TSan suppression can name it:
/// Tests/tsan.supp).
struct LogWriterState {
    var pending: [UInt8] = []
    var dropped = 0  // since the last note
    var asleep = false  // the writer waits on `wake`
    var busy = false  // the writer holds a batch it has not finished writing
    var closing = false
}

/// The process's log writer for standard error, once `LoggingSystem` is bootstrapped with one
/// (`sandbox serve`); lines logged before that are written directly.
public enum StandardErrorLog {
    private static let shared = Mutex(StandardErrorLogSlot())

    /// Starts the writer for standard error (the first call wins).
    @discardableResult
    public static func start(capacity: Int = LogWriter.defaultCapacity, dropNote: @escaping @Sendable (Int) -> [UInt8])
        -> LogWriter
    {
        shared.withLock { (slot: inout StandardErrorLogSlot) in
            if let writer = slot.writer { return writer }
            let started = LogWriter(fd: STDERR_FILENO, capacity: capacity, dropNote: dropNote)
            slot.writer = started
            return started
        }
    }

    public static var writer: LogWriter? { shared.withLock { (slot: inout StandardErrorLogSlot) in slot.writer } }
}

/// `StandardErrorLog`'s writer, under its mutex (named for Tests/tsan.supp).
struct StandardErrorLogSlot {
    var writer: LogWriter?
}
