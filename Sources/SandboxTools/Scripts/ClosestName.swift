import SandboxSession

/// The valid name a misspelt one was most likely meant to be: the nearest by optimal string
/// alignment distance (insertions, deletions, substitutions and swaps of neighbours each cost
/// one), when it is near enough to be a slip — at most a third of the shorter name's length,
/// and at least one (`PanScriptTests.misspeltNamesAreNamedWithTheClosest`).
enum ClosestName {
    static func to(_ name: String, among candidates: [String]) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        // A name longer than any valid one by far is no slip (and bounds the work: 64 × 64).
        guard typed.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let valid = Array(candidate.lowercased().unicodeScalars)
            let distance = Self.distance(typed, valid)
            let allowed = max(1, min(typed.count, valid.count) / 3)
            guard distance <= allowed, distance < (best?.distance ?? .max) else { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}

extension PanScript {
    /// Refuses a field outside `known`, naming it, the closest valid name if it looks like a
    /// slip, and the valid ones: "unknown field 'expectt'; did you mean 'expect'? (script, …)".
    static func refuseUnknownFields(
        _ object: [String: JSONValue], known: [String], prefix: String = ""
    ) throws(ScriptError) {
        guard let unknown = object.keys.sorted().first(where: { !known.contains($0) }) else { return }
        throw ScriptError(unknownField: unknown, known: known, prefix: prefix)
    }
}

extension ScriptError {
    init(unknownField name: String, known: [String], prefix: String = "") {
        let shown = name.count > 64 ? String(name.prefix(64)) + "…" : name
        let guess = ClosestName.to(name, among: known).map { "; did you mean '\($0)'?" } ?? ""
        self.init("\(prefix)unknown field '\(shown)'\(guess) (\(known.joined(separator: ", ")))")
    }
}
