/// A small table for a terminal: a header row and rows of cells, each column as wide as its
/// widest cell, the first left-aligned and the rest right-aligned (figures line up on their
/// last digit), two spaces between. Widths count characters, so "µs" and "—" take one.
public struct TextTable {
    public let header: [String]
    public private(set) var rows: [[String]] = []

    public init(header: [String]) { self.header = header }

    /// A row of as many cells as the header (missing cells are empty, extra ones dropped).
    public mutating func add(_ cells: [String]) {
        rows.append((0..<header.count).map { $0 < cells.count ? cells[$0] : "" })
    }

    public var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { cells in
            var line = cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }
            .joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
