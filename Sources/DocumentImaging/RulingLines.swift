/// The ruling of a rectified region: where its horizontal and vertical lines run.
public struct Ruling: Sendable, Equatable {
    /// Positions of the horizontal lines (y, rectified pixels), top border and bottom
    /// border included: `rows + 1` values.
    public let rows: [Double]
    /// Positions of the vertical lines (x), borders included: `columns + 1` values.
    public let columns: [Double]

    /// Number of cell rows.
    public var rowCount: Int { rows.count - 1 }
    /// Number of cell columns.
    public var columnCount: Int { columns.count - 1 }
}

/// Finds evenly spaced ruling lines in a rectified region (a 9×9 puzzle, comb boxes,
/// a table): ink projection profiles after a short smear along the line direction, peaks
/// grouped into lines, then the largest cell count whose evenly spaced lines are all
/// present.
public enum RulingFinder {
    /// The ruling, or nil when the region holds no grid (a plain box or sheet).
    /// - Parameters:
    ///   - binary: the rectified region, ink = 1.
    ///   - maxCells: the most cells per direction considered.
    public static func ruling(in binary: BinaryImage, maxCells: Int = 30) -> Ruling? {
        let rowLines = lines(in: binary, horizontal: true)
        let columnLines = lines(in: binary, horizontal: false)
        let rows = evenDivision(rowLines, length: Double(binary.height), maxCells: maxCells)
        let columns = evenDivision(columnLines, length: Double(binary.width), maxCells: maxCells)
        guard let rows, let columns, rows.count - 1 >= 1, columns.count - 1 >= 1,
              (rows.count - 1) * (columns.count - 1) >= 2 else { return nil }
        return Ruling(rows: rows, columns: columns)
    }

    /// Centres of runs of rows (or columns) whose ink covers at least 40 % of the length,
    /// measured with a smear of ±1.5 % across the line direction to tolerate bending.
    static func lines(in b: BinaryImage, horizontal: Bool) -> [Double] {
        let length = horizontal ? b.width : b.height      // along the line
        let count = horizontal ? b.height : b.width       // across
        let smear = max(1, count * 15 / 1000)
        var coverage = [Double](repeating: 0, count: count)
        b.bits.withUnsafeBufferPointer { bits in
            // per position along the line: ink within ±smear across?
            var hit = [UInt8](repeating: 0, count: length)
            for i in 0..<count {
                for k in 0..<length { hit[k] = 0 }
                for j in max(0, i - smear)...min(count - 1, i + smear) {
                    for k in 0..<length where bits[horizontal ? j * b.width + k : k * b.width + j] != 0 {
                        hit[k] = 1
                    }
                }
                var n = 0
                for k in 0..<length { n += Int(hit[k]) }
                coverage[i] = Double(n) / Double(length)
            }
        }
        var result: [Double] = []
        var i = 0
        while i < count {
            guard coverage[i] >= 0.4 else { i += 1; continue }
            var j = i, best = i
            while j + 1 < count && coverage[j + 1] >= 0.4 { j += 1; if coverage[j] > coverage[best] { best = j } }
            result.append(Double(i + j) / 2)
            i = j + 1
        }
        return result
    }

    /// The lines at 0, L/n, 2L/n … L for the largest n ≤ maxCells such that every
    /// interior line is found within 20 % of a cell; each position snapped to the line
    /// found. nil when even n = 1 fails (only borders then: one cell).
    static func evenDivision(_ found: [Double], length: Double, maxCells: Int) -> [Double]? {
        for n in stride(from: maxCells, through: 1, by: -1) {
            let cell = length / Double(n)
            if cell < 8 { continue }
            var positions: [Double] = [0]
            var ok = true
            for k in 1..<max(1, n) where n > 1 {
                let expected = Double(k) * cell
                guard let nearest = found.min(by: { abs($0 - expected) < abs($1 - expected) }),
                      abs(nearest - expected) < 0.2 * cell else { ok = false; break }
                positions.append(nearest)
            }
            if !ok { continue }
            // lines the division does not explain, well inside the region, mean another grid
            let unexplained = found.filter { f in
                f > 0.1 * cell && f < length - 0.1 * cell
                    && !(0...n).contains { abs(Double($0) * cell - f) < 0.25 * cell }
            }
            if unexplained.count > max(1, n / 4) { continue }
            positions.append(length)
            return positions
        }
        return nil
    }
}
