import Foundation
import Glibc
import Synchronization
import Testing

@testable import SandboxWebSockets

/// The log's defences: client text escaped, a bounded queue that never blocks a service thread,
/// a budget for client-caused lines.
@Suite struct LogSafetyTests {
    // MARK: - LogText

    @Test(arguments: [
        ("plain host:8080", "plain host:8080"),
        ("evil\u{1B}[2J\u{1B}[31mFAKE", "evilU+001B[2JU+001B[31mFAKE"),
        ("x\u{1B}]0;pwned\u{07}", "xU+001B]0;pwnedU+0007"),
        ("ev\u{0}il\r\n", "evU+0000ilU+000DU+000A"),
        ("del\u{7F} c1\u{85}\u{9B}", "delU+007F c1U+0085U+009B"),
        ("a\u{202E}gnp.exe", "aU+202Egnp.exe"),
        ("line\u{2028}para\u{2029}", "lineU+2028paraU+2029"),
        ("zw\u{200B}\u{200D}\u{FEFF}\u{2066}", "zwU+200BU+200DU+FEFFU+2066"),
        ("é ✓ 🙂 日本", "é ✓ 🙂 日本"),
    ])
    func visibleShowsHiddenCharactersAsCodePoints(_ pair: (String, String)) {
        #expect(LogText.visible(pair.0) == pair.1)
        // What it writes is printable: no scalar it leaves is hidden.
        #expect(!LogText.visible(pair.0).unicodeScalars.contains(where: LogText.isHidden))
    }

    @Test func textValuesAreQuotedWhenTheyCouldPassForSeveralFields() {
        #expect(LogText.textValue("127.0.0.1") == "127.0.0.1")
        #expect(LogText.textValue("http://a.b/c?d") == "http://a.b/c?d")
        #expect(LogText.textValue("") == #""""#)
        #expect(LogText.textValue(#"a" why=fake status=200 x=""#) == #""a\" why=fake status=200 x=\"""#)
        #expect(LogText.textValue("a=b") == #""a=b""#)
        #expect(LogText.textValue("two words") == #""two words""#)
        #expect(LogText.textValue("nbsp\u{A0}why=x") == "\"nbsp\u{A0}why=x\"")
        #expect(LogText.textValue(#"back\slash "q""#) == #""back\\slash \"q\"""#)
        #expect(LogText.textValue("new\nline") == "newU+000Aline")
    }

    // MARK: - LogWriter

    /// A pipe nobody reads: the writer thread blocks in write(2) once 64 KiB are in the pipe, and
    /// enqueueing still never blocks — past `capacity` lines are dropped and counted.
    @Test func aWriterBlockedOnAPipeNobodyReadsNeverBlocksEnqueue() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { Glibc.close(fds[0]); Glibc.close(fds[1]) }
        let writer = LogWriter(fd: fds[1], capacity: 64 * 1024) { Array("dropped \($0) log lines\n".utf8) }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 999) + [10]
        let before = LogWriter.droppedTotal.load(ordering: .relaxed)
        // First fill the pipe (64 KiB) so the writer is blocked in write(2)…
        var accepted = 0
        for _ in 0..<200 {
            if writer.enqueue(line) { accepted += 1 }
            usleep(500)
        }
        usleep(100_000)
        // …then 20,000 more: each one O(1), none waits for the writer.
        var slowest = 0.0
        let start = Date()
        for _ in 0..<20_000 {
            let t = Date()
            if writer.enqueue(line) { accepted += 1 }
            slowest = max(slowest, Date().timeIntervalSince(t))
        }
        let total = Date().timeIntervalSince(start)
        let dropped = 20_200 - accepted
        // 64 KiB in the pipe, one batch of at most 64 KiB in the writer's hands, 64 KiB queued.
        #expect(accepted <= 3 * 66)
        #expect(writer.queuedBytes <= 64 * 1024)
        #expect(writer.unreportedDrops >= 20_000 - 3 * 66)
        #expect(LogWriter.droppedTotal.load(ordering: .relaxed) - before >= dropped)
        #expect(total < 2.0, "20,000 enqueues took \(total) s")
        #expect(slowest < 0.1, "one enqueue took \(slowest) s")
        // A flush with a stuck reader returns at its deadline.
        let flushStart = Date()
        #expect(!writer.flush(within: 0.2))
        #expect(Date().timeIntervalSince(flushStart) < 1.0)

        // The reader comes back: everything accepted arrives, and notes for everything dropped.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !writer.flush(within: 0) {
            let n = read(fds[0], &buffer, buffer.count)
            if n > 0 { received += buffer[0..<n] } else { usleep(2000) }
        }
        usleep(20_000)
        while case let n = read(fds[0], &buffer, buffer.count), n > 0 { received += buffer[0..<n] }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("xxx") }.count == accepted)
        let notes = lines.compactMap { $0.wholeMatch(of: #/dropped (\d+) log lines/#).map { Int($0.output.1)! } }
        #expect(notes.reduce(0, +) == dropped)
        #expect(lines.count == accepted + notes.count)
        #expect(writer.flush(within: 1))
        writer.close()
    }

    @Test func aReadWriterDeliversEveryLineInOrder() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { Glibc.close(fds[0]) }
        let writer = LogWriter(fd: fds[1]) { _ in [] }
        let lines = (0..<2_000).map { "line \($0)\n" }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        for line in lines { #expect(writer.enqueue(Array(line.utf8))) }
        #expect(writer.flush(within: 5))
        writer.close()
        // The writer ends after its queue; then no one writes, and the pipe holds everything
        // (2,000 short lines are under 64 KiB).
        usleep(50_000)
        Glibc.close(fds[1])
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        #expect(String(decoding: received, as: UTF8.self) == lines.joined())
    }

    // MARK: - LogBudget

    final class FakeClock: Sendable {
        let time = Mutex(0.0)
    }

    /// Each line from a peer of its own with one reason seen before: the process's bucket alone decides.
    @Test func theBudgetAdmitsABurstThenItsRateAndCountsTheRest() {
        let clock = FakeClock()
        let budget = LogBudget(rate: 20, burst: 100, peerRate: 1e9, peerBurst: 1e9) { clock.time.withLock { $0 } }
        _ = budget.admit(peer: "p", reason: "r")  // its first line: kept outside the buckets
        let burst = (0..<1_000).filter { _ in budget.admit(peer: "p", reason: "r") }.count
        #expect(burst == 100)
        #expect(budget.takeSuppressed().lines == 900)
        #expect(budget.takeSuppressed().lines == 0)
        clock.time.withLock { $0 = 1.0 }  // a second later: 20 more
        let next = (0..<1_000).filter { _ in budget.admit(peer: "p", reason: "r") }.count
        #expect(next == 20)
        #expect(budget.takeSuppressed().lines == 980)
        clock.time.withLock { $0 = 1_000 }  // a long quiet: the burst again, never more
        #expect((0..<1_000).filter { _ in budget.admit(peer: "p", reason: "r") }.count == 100)
    }

    /// One address floods refusals; another's lines still get through, and the summary names the flooder.
    @Test func onePeersFloodLeavesAnotherPeersLines() {
        let clock = FakeClock()
        let budget = LogBudget(rate: 20, burst: 100, peerRate: 5, peerBurst: 20) { clock.time.withLock { $0 } }
        let flood = (0..<1_735).filter { _ in budget.admit(peer: "10.0.0.1", reason: "host") }.count
        #expect(flood == 1 + 20)  // its first line, then its own burst
        // The victim's lines, of a reason it has had before too: its own bucket and the shared one's rest.
        let victim = (0..<10).filter { _ in budget.admit(peer: "10.0.0.2", reason: "origin") }.count
        #expect(victim == 10)
        #expect(budget.admit(peer: "10.0.0.3", reason: "host"))  // a new address's first line
        let summary = budget.takeSuppressed()
        #expect(summary.lines == 1_735 - 21)
        #expect(summary.top.map(\.peer) == ["10.0.0.1"])
        #expect(summary.top.first?.lines == 1_735 - 21)
    }

    /// With every bucket empty, a (peer, reason) not seen before is still logged — within the
    /// bucket of first lines, which thousands of addresses cannot use to flood.
    @Test func theFirstLinePerPeerAndReasonIsKept() {
        let budget = LogBudget(rate: 20, burst: 100, peerRate: 5, peerBurst: 20) { 0 }
        for peer in 0..<50 { _ = (0..<200).map { _ in budget.admit(peer: "10.0.1.\(peer)", reason: "host") } }
        #expect(!budget.admit(peer: "10.0.1.0", reason: "host"))
        #expect(budget.admit(peer: "10.0.2.1", reason: "host"))  // a rebinding attempt from a new address
        #expect(budget.admit(peer: "10.0.1.0", reason: "origin"))  // a new reason from a known one
        let firsts = (0..<2_000).filter { budget.admit(peer: "10.1.\($0 / 256).\($0 % 256)", reason: "host") }.count
        #expect(firsts <= 100)
    }

    /// An attacker showing a new address for every line grows the peer table to its bound, no further.
    @Test func thePeerTableIsBounded() {
        let clock = FakeClock()
        let budget = LogBudget(peerCapacity: 64) { clock.time.withLock { $0 } }
        for index in 0..<5_000 {
            clock.time.withLock { $0 = Double(index) / 1_000 }
            _ = budget.admit(peer: "10.\(index / 65_536).\(index / 256 % 256).\(index % 256)", reason: "host")
        }
        #expect(budget.peersRemembered == 64)
        #expect(budget.takeSuppressed().top.count <= LogBudget.summaryPeers)
    }

    @Test func logCountersReachTheMetrics() {
        let metrics = ServerMetrics()
        let budget = LogBudget(rate: 1, burst: 1) { 0 }
        _ = (0..<11).map { _ in budget.admit(peer: "-", reason: "lws") }
        LogStats.publish(to: metrics)
        let text = String(decoding: metrics.render(), as: UTF8.self)
        #expect(text.contains("sandbox_log_lines_suppressed_total"))
        #expect(text.contains("sandbox_log_lines_dropped_total"))
    }
}
