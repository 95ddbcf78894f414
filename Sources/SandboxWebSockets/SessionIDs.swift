/// Session ids: 128 random bits from the system's CSPRNG, so a session cannot be guessed and
/// joined, after the node's prefix (`serve --node`).
enum SessionIDs {
    /// A new id that `isTaken` does not know.
    static func make(prefix: String, isTaken: (String) -> Bool) -> String {
        while true {
            var generator = SystemRandomNumberGenerator()
            let id =
                prefix
                + [generator.next(), generator.next()].map { (word: UInt64) in
                    let hex = String(word, radix: 16)
                    return String(repeating: "0", count: 16 - hex.count) + hex
                }.joined()
            if !isTaken(id) { return id }
        }
    }
}
