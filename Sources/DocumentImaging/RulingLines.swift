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
    /// Number of cells.
    public var cellCount: Int { rowCount * columnCount }

    /// A ruling with these line positions (borders included), each list ascending.
    public init(rows: [Double], columns: [Double]) {
        self.rows = rows
        self.columns = columns
    }
}

/// The ruling lines found in a region, and which of them run only partly across it: a
/// printed ruling inks 90–100 % of its length, a column of digits that happens to line
/// up 70–75 %. Faint lines fill a division like the others but are never taken for the
/// lines of another grid.
public struct FoundLines: Sendable {
    /// Horizontal lines (y), sorted.
    public var rows: [Double]
    /// Vertical lines (x), sorted.
    public var columns: [Double]
    /// The rows inking under `RulingFinder.strongCoverage` of the width.
    public var faintRows: [Double]
    /// The columns inking under `RulingFinder.strongCoverage` of the height.
    public var faintColumns: [Double]
    /// The rows at least `RulingFinder.heavyWidth` times as thick as the median row: a
    /// grid's frame or box lines where its other lines are thin.
    public var heavyRows: [Double]
    /// The columns at least `RulingFinder.heavyWidth` times as thick as the median column.
    public var heavyColumns: [Double]

    /// The lines of `binary` (ink = 1), see `RulingFinder.linesWithCoverage`.
    public init(in binary: BinaryImage) {
        let strong = RulingFinder.strongCoverage
        let r = RulingFinder.linesWithCoverage(in: binary, horizontal: true)
        let c = RulingFinder.linesWithCoverage(in: binary, horizontal: false)
        rows = r.map(\.position)
        faintRows = r.filter { $0.coverage < strong }.map(\.position)
        columns = c.map(\.position)
        faintColumns = c.filter { $0.coverage < strong }.map(\.position)
        heavyRows = RulingFinder.heavy(r.map { ($0.position, $0.width) })
        heavyColumns = RulingFinder.heavy(c.map { ($0.position, $0.width) })
    }
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
        ruling(FoundLines(in: binary), width: binary.width, height: binary.height, maxCells: maxCells)
    }

    /// Coverage from which a found line is a ruling beyond doubt (see `FoundLines`).
    public static let strongCoverage = 0.85

    /// The ruling `lines` describe in a width × height region (the largest even divisions,
    /// see `evenDivision`), or nil. Their faint lines never count against a division;
    /// `supportingRows` and `supportingColumns` (lines known from elsewhere, e.g. parts of
    /// the grid found on their own) may stand in for lines not found, but are never held
    /// against a division either.
    public static func ruling(_ lines: FoundLines, width: Int, height: Int,
                              supportingRows: [Double] = [], supportingColumns: [Double] = [],
                              maxCells: Int = 30) -> Ruling? {
        guard let rows = evenDivision(lines.rows, length: Double(height), maxCells: maxCells,
                                      supporting: supportingRows, faint: lines.faintRows, heavy: lines.heavyRows),
              let columns = evenDivision(lines.columns, length: Double(width), maxCells: maxCells,
                                         supporting: supportingColumns, faint: lines.faintColumns,
                                         heavy: lines.heavyColumns)
        else { return nil }
        // interior lines every one of which inks most of its length are rulings, not
        // digit strokes that line up
        func strong(_ positions: [Double], _ faint: [Double]) -> Bool {
            positions.dropFirst().dropLast().allSatisfy { p in !faint.contains { abs($0 - p) < 0.5 } }
        }
        let ruled = strong(rows, lines.faintRows) && strong(columns, lines.faintColumns)
        return plausible(Ruling(rows: rows, columns: columns), width: width, height: height, strongLines: ruled)
    }

    /// A grid of square cells whose lines one way are all found and, the other way, only
    /// in part (a puzzle's thin lines lost under a shadow or to a pale print, while its
    /// heavy box or region lines stand): the way found divides evenly into n cells
    /// (`evenDivision`); the other way is divided into as many, when the cells come out
    /// square (`squareCellSlack`), every strong line found that way lies on the division
    /// (`lineTolerance`), and at least `leastSquareLines` of its interior lines are found.
    /// nil when neither way so fills the other.
    public static func squareRuling(_ lines: FoundLines, width: Int, height: Int, maxCells: Int = 30) -> Ruling? {
        let rows = evenDivision(lines.rows, length: Double(height), maxCells: maxCells, faint: lines.faintRows,
                                heavy: lines.heavyRows)
        let columns = evenDivision(lines.columns, length: Double(width), maxCells: maxCells, faint: lines.faintColumns,
                                   heavy: lines.heavyColumns)
        func filled(_ other: [Double], faint: [Double], length: Double, cells n: Int, cell: Double) -> [Double]? {
            guard n >= fewestSquareCells else { return nil }
            let strong = other.filter { !faint.contains($0) }
            // the division spans the outermost lines found near the region's ends
            let a = strong.first(where: { $0 < lineTolerance * cell }) ?? 0
            let b = strong.last(where: { $0 > length - lineTolerance * cell }) ?? length
            let step = (b - a) / Double(n)
            guard step >= cell / squareCellSlack, step <= cell * squareCellSlack else { return nil }
            var positions = [a], found = 0
            for k in 1..<n {
                let expected = a + Double(k) * step
                if let near = other.min(by: { abs($0 - expected) < abs($1 - expected) }),
                   abs(near - expected) < lineTolerance * step {
                    positions.append(near); found += 1
                } else {
                    positions.append(expected)
                }
            }
            positions.append(b)
            let explained = strong.allSatisfy { f in
                f <= a || f >= b || positions.contains { abs($0 - f) < lineTolerance * step }
            }
            guard explained, Double(found) >= leastSquareLines * Double(n - 1) else { return nil }
            return positions
        }
        if let columns, rows == nil {
            let n = columns.count - 1
            guard let filledRows = filled(lines.rows, faint: lines.faintRows, length: Double(height), cells: n,
                                          cell: (columns[n] - columns[0]) / Double(n)) else { return nil }
            return plausible(Ruling(rows: filledRows, columns: columns), width: width, height: height)
        }
        if let rows, columns == nil {
            let n = rows.count - 1
            guard let filledColumns = filled(lines.columns, faint: lines.faintColumns, length: Double(width), cells: n,
                                             cell: (rows[n] - rows[0]) / Double(n)) else { return nil }
            return plausible(Ruling(rows: rows, columns: filledColumns), width: width, height: height)
        }
        return nil
    }

    /// See `squareRuling`: the cells the other way may be this much taller or wider than
    /// the way found (a square grid straightened from a quad a little off its frame).
    static let squareCellSlack = 1.25
    /// See `squareRuling`: the fewest cells the way found must divide into (fewer lines
    /// found whole say too little of a lattice: a comb of three, a box split once).
    static let fewestSquareCells = 4
    /// See `squareRuling`: the share of the other way's interior lines that must be found
    /// (half: a shadow or glare may hide the thin lines over up to half the grid).
    static let leastSquareLines = 0.5

    /// The ruling if it describes a grid: two cells or more, and cells no thinner than
    /// 0.6 of their height (a digit stroke mid-cell would halve every cell's width) —
    /// or, when every interior line is a strong one (`strongLines`: no digit strokes
    /// among them), than `narrowestRuledCell`: comb boxes taller than wide, narrowed
    /// further by the perspective the straightening does not take out.
    static func plausible(_ r: Ruling, width: Int, height: Int, strongLines: Bool = false) -> Ruling? {
        guard r.rowCount * r.columnCount >= 2 else { return nil }
        let aspect = (Double(width) / Double(r.columnCount)) / (Double(height) / Double(r.rowCount))
        let narrowest = strongLines ? narrowestRuledCell : narrowestCell
        return aspect >= narrowest && aspect <= widestCell ? r : nil
    }

    /// See `plausible`: a cell of strong lines may be this narrow (width over height).
    static let narrowestRuledCell = 0.4
    /// See `plausible`: the narrowest cell (width over height) otherwise — a digit's
    /// stroke mid-cell taken for a line would halve the cells' width.
    static let narrowestCell = 0.6
    /// See `plausible`: the widest cell (width over height); wider "cells" are a sheet's
    /// lines of text, not a grid's.
    static let widestCell = 6.0

    /// Centres of ruling lines across the region: runs of rows (or columns) whose ink,
    /// with a smear of ±1.5 % across the line direction to tolerate bending, covers at
    /// least 70 % of the length (the region's own frame, the outer 4 %, left out) and
    /// reaches both ends (the outer 12 % at each side), a run no wider than
    /// `widestLineShare` of the region. Measured on a low-threshold copy,
    /// real rulings cover 97–100 %; a column of digits crossing the rulings about 60 %;
    /// a lone stroke (a "1" in a box) reaches neither end.
    public static func lines(in b: BinaryImage, horizontal: Bool) -> [Double] {
        linesWithCoverage(in: b, horizontal: horizontal).map(\.position)
    }

    /// `lines(in:horizontal:)` with each line's coverage (the share of the region's
    /// length its best-covered row or column inks, 0.7 … 1) and width (pixels across).
    public static func linesWithCoverage(in b: BinaryImage, horizontal: Bool)
        -> [(position: Double, coverage: Double, width: Int)] {
        let length = horizontal ? b.width : b.height      // along the line
        let count = horizontal ? b.height : b.width       // across
        let smear = max(1, count * 15 / 1000)
        // the region's own frame lies in the outer few percent: leave it out, or its
        // edges would give every stroke ink "at both ends"
        let margin = max(1, length * 4 / 100)
        let end = max(1, (length - 2 * margin) * 12 / 100)
        var isLine = [Bool](repeating: false, count: count)
        var coverage = [Double](repeating: 0, count: count)
        // ink as rows along the line direction (the image itself for horizontal lines,
        // its transpose for vertical ones), so every loop below runs over contiguous memory
        let along: [UInt8] = horizontal ? b.bits : b.transposedBits()
        // cumulative ink count across the lines, per position along them
        var cumulative = [Int32](repeating: 0, count: (count + 1) * length)
        along.withUnsafeBufferPointer { rows in
            cumulative.withUnsafeMutableBufferPointer { cum in
                for i in 0..<count {
                    let previous = cum.baseAddress! + i * length, next = previous + length
                    let row = rows.baseAddress! + i * length
                    for k in 0..<length { next[k] = previous[k] &+ Int32(row[k]) }
                }
                let inner = length - 2 * margin
                for i in 0..<count {
                    let lo = cum.baseAddress! + max(0, i - smear) * length
                    let hi = cum.baseAddress! + min(count, i + smear + 1) * length
                    func inked(_ k: Int) -> Int { hi[k] &- lo[k] > 0 ? 1 : 0 }
                    var n = 0, head = 0, tail = 0
                    for k in margin..<(length - margin) { n &+= inked(k) }
                    for k in margin..<(margin + end) { head |= inked(k) }
                    for k in (length - margin - end)..<(length - margin) { tail |= inked(k) }
                    coverage[i] = Double(n) / Double(inner)
                    isLine[i] = coverage[i] >= lineCoverage && head != 0 && tail != 0
                }
            }
        }
        var result: [(position: Double, coverage: Double, width: Int)] = []
        var i = 0
        while i < count {
            guard isLine[i] else { i += 1; continue }
            var j = i
            while j + 1 < count && isLine[j + 1] { j += 1 }
            // a run across much of the region is ink everywhere (the paper's noise taken
            // for ink, a shade), no line
            guard Double(j - i + 1) <= widestLineShare * Double(count) else { i = j + 1; continue }
            // the run's centre, weighted towards the best-covered rows
            let top = coverage[i...j].max()!
            let core = (i...j).filter { coverage[$0] >= top - coreCoverageSlack }
            // the line's thickness: the run's length less the smear on either side
            result.append((Double(core.first! + core.last!) / 2, top, max(1, j - i + 1 - 2 * smear)))
            i = j + 1
        }
        return result
    }

    /// See `linesWithCoverage`: a run of covered rows wider than this share of the region
    /// is no line (a grid of two cells has lines far thinner than half of it).
    public static let widestLineShare = 0.25

    /// See `linesWithCoverage`: the share of the region's length a row (column) of a line
    /// inks at least. Measured on a low-threshold copy, real rulings cover 97–100 %, a
    /// column of digits crossing the rulings about 60 %.
    public static let lineCoverage = 0.7

    /// See `linesWithCoverage`: a line's centre is the middle of its rows (columns) within
    /// this much coverage of its best-covered one, not of its smeared run.
    static let coreCoverageSlack = 0.05

    /// How much thicker than the median line a line must be to be heavy (a frame or box
    /// line among thin ones).
    public static let heavyWidth = 1.5

    /// The positions of the lines at least `heavyWidth` times as thick as the median line.
    static func heavy(_ lines: [(position: Double, width: Int)]) -> [Double] {
        guard lines.count >= 3 else { return [] }
        let median = Double(lines.map(\.width).sorted()[lines.count / 2])
        return lines.filter { Double($0.width) >= heavyWidth * median }.map(\.position)
    }

    /// Lines found within the bands of a coarse ruling (the strips between its column
    /// lines, for horizontal lines; between its row lines, for vertical ones), each band
    /// searched on its own: a thin line that glare or a faint print hides along part of
    /// the grid still shows in the other bands. Positions in `b`'s coordinates, sorted,
    /// one per line however many bands found it.
    public static func linesInBands(of coarse: Ruling, in b: BinaryImage, horizontal: Bool) -> [Double] {
        let edges = horizontal ? coarse.columns : coarse.rows
        var found: [Double] = []
        for (lo, hi) in zip(edges, edges.dropFirst()) {
            let inset = (hi - lo) * bandInset
            let start = max(0, Int((lo + inset).rounded())), end = min(horizontal ? b.width : b.height,
                                                                       Int((hi - inset).rounded()))
            guard end - start >= 16 else { continue }
            let band = horizontal ? b.cropped(x: start, y: 0, width: end - start, height: b.height)
                                  : b.cropped(x: 0, y: start, width: b.width, height: end - start)
            // the band is cut along the lines, so positions across them carry over as they are
            for line in lines(in: band, horizontal: horizontal) where !found.contains(where: { abs($0 - line) < 3 }) {
                found.append(line)
            }
        }
        return found.sorted()
    }

    /// See `linesInBands`: each band is searched this share of its width in from the
    /// coarse lines around it, so that their own ink is not taken for a finer line.
    static let bandInset = 0.03

    /// See `evenDivision`: a grid's border may be the outermost line found within this
    /// share of the region's length from its end (a quad that took in a margin or a
    /// tinted panel around the grid).
    static let borderLineReach = 0.1
    /// See `evenDivision`: the outermost lines found at all are the grid's borders when
    /// they span at least this share of the region (a quad running past the grid).
    static let spanningBorderShare = 0.5
    /// See `evenDivision`: a line missing from a division is only believed when every
    /// line found lies within this share of a cell of its even place.
    static let gapFitTolerance = 0.08
    /// See `evenDivision`: found lines further than this share of a cell from every line
    /// of a division, and this share of a cell inside its borders
    /// (`unexplainedInset`), are lines it does not explain — another grid's.
    static let explainedTolerance = 0.25
    /// See `explainedTolerance`.
    static let unexplainedInset = 0.1

    /// The lines at a, a + d, a + 2d … b (d = (b − a)/n) for the largest n ≤ maxCells
    /// such that every interior line is found within 20 % of a cell (one in nine may be
    /// missing, not two adjacent, nor one beside a border without a line); each position
    /// snapped to the line found. The borders a, b are the region's edges, or else the
    /// outermost lines found within 10 % of them (a quad that took in a margin or a
    /// tinted panel around the grid), or else the outermost lines found at all when they
    /// span half the region (a quad that runs past the grid, along a shadow or off the
    /// photo); of these the division into the most cells, then the best fitting — except
    /// that a division ending at a region edge with no line there, whose last line before
    /// it is `heavy`, loses to one ending at that heavy line: it is the grid's frame, and
    /// the strip beyond it the paper or the sheet below that the quad took in. nil when
    /// even n = 1 fails.
    /// `unproven` lines (besides the faint ones) may fill a division but are not the one
    /// strong interior line it needs (see `evenDivision(_:from:to:…)`).
    static func evenDivision(_ found: [Double], length: Double, maxCells: Int,
                             supporting: [Double] = [], faint: [Double] = [], heavy: [Double] = [],
                             unproven: [Double] = []) -> [Double]? {
        let starts = [0.0] + found.filter { $0 > 0 && $0 < borderLineReach * length }.prefix(1)
        let ends = [length] + found.filter { $0 < length && $0 > (1 - borderLineReach) * length }.suffix(1)
        var borders = starts.flatMap { a in ends.map { (a, $0) } }
        if let first = found.first(where: { $0 > 0 }), let last = found.last(where: { $0 < length }),
           last - first >= spanningBorderShare * length, !borders.contains(where: { $0 == (first, last) }) {
            borders.append((first, last))
        }
        // past the frame: an unruled border whose neighbouring line is heavy
        func pastFrame(_ positions: [Double]) -> Int {
            let n = positions.count - 1
            guard n >= 2 else { return 0 }
            let cell = (positions[n] - positions[0]) / Double(n)
            func ruled(_ x: Double) -> Bool { found.contains { abs($0 - x) < lineTolerance * cell } }
            func isHeavy(_ x: Double) -> Bool { heavy.contains { abs($0 - x) < lineTolerance * cell } }
            return (!ruled(positions[0]) && isHeavy(positions[1]) ? 1 : 0)
                + (!ruled(positions[n]) && isHeavy(positions[n - 1]) ? 1 : 0)
        }
        // then the most cells wins; of equal counts, the division the lines fit best (a
        // quad a little larger than its grid divides evenly too, with every line a bit off)
        var best: (positions: [Double], pastFrame: Int, deviation: Double)?
        for (a, b) in borders {
            guard let positions = evenDivision(found, from: a, to: b, maxCells: maxCells, supporting: supporting,
                                               faint: faint, unproven: unproven) else { continue }
            let deviation = meanDeviation(positions), past = pastFrame(positions)
            if let best, (-best.pastFrame, best.positions.count, -best.deviation)
                >= (-past, positions.count, -deviation) { continue }
            best = (positions, past, deviation)
        }
        return best?.positions
    }

    /// Mean distance of a division's interior lines from even spacing.
    static func meanDeviation(_ positions: [Double]) -> Double {
        let n = positions.count - 1
        guard n > 1 else { return 0 }
        let a = positions[0], cell = (positions[n] - a) / Double(n)
        return (1..<n).map { abs(positions[$0] - a - Double($0) * cell) }.reduce(0, +) / Double(n - 1)
    }

    /// How far from its even place, as a share of the cell, a line may lie in a division
    /// (`evenDivision`, `subdivided`); lines nearer to each other than this are one.
    public static let lineTolerance = 0.2
    /// The smallest cell a division makes, pixels (`evenDivision`, `subdivided`).
    static let smallestCell = 8.0

    static func evenDivision(_ found: [Double], from a: Double, to b: Double, maxCells: Int,
                             supporting: [Double] = [], faint: [Double] = [], unproven: [Double] = []) -> [Double]? {
        let length = b - a
        let inside = found.filter { $0 > a && $0 < b }
        let candidates = (inside + supporting.filter { $0 > a && $0 < b }).sorted()
        for n in stride(from: maxCells, through: 1, by: -1) {
            let cell = length / Double(n)
            if cell < smallestCell { continue }
            // a border with no line (or only a faint one) found at it counts as missing
            // beside its neighbour
            func lineFound(at border: Double) -> Bool {
                found.contains { abs($0 - border) < lineTolerance * cell && !faint.contains($0) }
            }
            var positions: [Double] = [a]
            var missing = 0, previousMissing = !lineFound(at: a), worst = 0.0
            for k in 1..<max(1, n) where n > 1 {
                let expected = a + Double(k) * cell
                if let nearest = candidates.min(by: { abs($0 - expected) < abs($1 - expected) }),
                   abs(nearest - expected) < lineTolerance * cell {
                    positions.append(nearest)
                    worst = max(worst, abs(nearest - expected))
                    previousMissing = false
                } else {
                    // one faint line in nine (shadow, glare) may be missing, never two in a row
                    missing += 1
                    if previousMissing { missing = n }
                    previousMissing = true
                    positions.append(expected)
                }
            }
            if previousMissing && n > 1 && !lineFound(at: b) { missing = n }
            // a gap is only believed when every other line sits where it should
            if missing > n / 9 || (missing > 0 && worst > gapFitTolerance * cell) { continue }
            // lines the division does not explain, well inside the region, mean another grid
            let unexplained = inside.filter { f in
                !faint.contains(f) && f > a + unexplainedInset * cell && f < b - unexplainedInset * cell
                    && !(0...n).contains { abs(a + Double($0) * cell - f) < explainedTolerance * cell }
            }
            if unexplained.count > max(1, n / 4) { continue }
            // a lattice has at least one ruling beyond doubt inside it: interior lines
            // that are all faint are strokes that happen to line up (a large digit's
            // upright in a note, a column of "1"s), not ruling
            if n > 1, !positions.dropFirst().contains(where: { p in
                found.contains { abs($0 - p) < 0.5 && !faint.contains($0) && !unproven.contains($0) }
            }) { continue }
            positions.append(b)
            return positions
        }
        return nil
    }
}
