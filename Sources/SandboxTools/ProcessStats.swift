import Foundation

/// CPU time and resident memory of a local process, from /proc (Linux).
public enum ProcessStats {
    public static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        return nil
    }

    public static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
