import TransitionCore

/// One to three random edits of a message — a byte removed, inserted or replaced from
/// `alphabet` — for the parsers' differential tests (JSONParserTests, PointerFastPathTests).
func mutated(_ base: [UInt8], alphabet: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
    var bytes = base
    for _ in 0...(generator.next() % 3) {
        let position = Int(generator.next() % UInt64(bytes.count + 1))
        switch generator.next() % 3 {
        case 0 where position < bytes.count: bytes.remove(at: position)
        case 1: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
        default:
            if position < bytes.count { bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        }
    }
    return bytes
}
