import Foundation

/// Where a byte offset falls in a text, as an editor shows it: line and column, both from 1,
/// the column counted in characters (Unicode scalars) of that line, not bytes
/// (`PanScriptTests.badJSONIsPlacedByLineAndColumn`).
struct TextPosition: Equatable {
    let line: Int
    let column: Int

    init(of offset: Int, in data: Data) {
        var line = 1
        var column = 1
        for byte in data.prefix(max(0, offset)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new scalar
                column += 1
            }
        }
        self.line = line
        self.column = column
    }
}
