import ArgumentParser
import SandboxSession

/// `serve --prebuilt-frames` and `bench --server-prebuilt-frames`: checked against
/// `FrameEncoding.paddingBytes`, where the sizes are written.
enum PrebuiltFrames {
    /// "25…65536", for help and errors.
    static let rangeText = "\(FrameEncoding.paddingBytes.lowerBound)…\(FrameEncoding.paddingBytes.upperBound)"

    static func validate(_ bytes: Int, option: String) throws {
        guard FrameEncoding.paddingBytes.contains(bytes) else {
            throw ValidationError("\(option) must be in \(rangeText) bytes, got \(bytes)")
        }
    }
}
