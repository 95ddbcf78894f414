import Foundation

/// Where `serve` finds the page when `--web-root` is not given, whatever folder it is started
/// from: beside the binary as installed (`BIN/../share/transition-sandbox/web`), else the source
/// tree's `web/` above the binary (a `swift build` binary lives in `.build/…/debug/`). The
/// first folder holding an `index.html` wins (`test_cli_errors.py`:
/// `test_serve_finds_its_page_from_another_folder`).
enum WebRoot {
    static let searchOrder = "BIN/../share/transition-sandbox/web, then the source tree's web/ above BIN"

    /// The folders looked in, in order, for the binary at `executable`.
    static func candidates(executable: String) -> [String] {
        let bin = URL(fileURLWithPath: executable).deletingLastPathComponent()
        var folders = [bin.deletingLastPathComponent().appendingPathComponent("share/transition-sandbox/web").path]
        // The source tree: the nearest folder above the binary with Package.swift and web/.
        var folder = bin
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                folders.append(folder.appendingPathComponent("web").path)
                break
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// The page's folder, or the folders looked in when there is none.
    static func find() -> Result<String, DataError> {
        let folders = candidates(executable: executablePath())
        if let found = folders.first(where: { FileManager.default.fileExists(atPath: $0 + "/index.html") }) {
            return .success(found)
        }
        let looked = folders.joined(separator: ", ")
        let why = "no page found beside the binary (looked in \(looked)); give --web-root FOLDER"
        return .failure(DataError([why], code: 64))
    }

    /// This process's binary, symbolic links resolved (`/proc/self/exe`), else argv[0].
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
