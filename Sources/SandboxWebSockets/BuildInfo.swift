import CLibWebSockets

/// The one place the version is written: `sandbox --version` prints it and `/metrics` reports it
/// as `sandbox_build_info{version="…"} 1.0` (`ServerMetricsTests.buildInfoNamesTheVersion`).
/// Written by hand at a release: SwiftPM has no build-time `git describe` without a build-tool
/// plugin, and a plugin that runs git on every build is a cost this package does not take.
public enum BuildInfo {
    public static let version = "0.30.0"

    /// The libwebsockets the binary runs on (from the shared library, not the headers). lws writes
    /// it as "VERSION-GITHASH", and a release build has no hash: "4.1.6-" is said "4.1.6"
    /// (`test_cli_errors.py`: `test_version_is_one_string_and_metrics_report_it`).
    public static var libwebsocketsVersion: String {
        var version = String(cString: lws_get_library_version())
        while version.hasSuffix("-") || version.hasSuffix(" ") { version.removeLast() }
        return version
    }
}
