/// A script that cannot be run, with where and why.
public struct ScriptError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
