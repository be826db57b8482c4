@testable import DocumentImaging
import ImagingCore
import Testing

/// A puzzle found by its heavy box lines alone (3 × 3, or 9 × 3 when only one direction's
/// thin lines were lost) is divided as finely as its grey levels show lines
/// (`RulingFinder.subdivided`); strokes, digits and grain that do not run the whole grid
/// never make a line.
@Suite("Rulings divided finer where the grey levels show the lines")
struct RulingSubdivisionTests {
    /// A straightened 9 × 9 puzzle of `cell` px cells on paper at grey 220 (± `noise`,
    /// fixed): box lines every third cell 3 px wide at grey 40, thin lines 1 px wide
    /// `thin` levels darker than the paper where `thinRows` / `thinColumns`; `blobs` puts
    /// a digit-sized blob in the middle of every cell, `strokes` an upright stroke
    /// `strokeShare` of the cell high down the middle of every cell instead.
    func puzzle(cell: Int, thin: Int, noise: Int, thinRows: Bool = true, thinColumns: Bool = true,
                blobs: Bool = false, strokes: Bool = false, strokeShare: Double = 0.8) -> GrayImage {
        let side = 9 * cell + 1
        var image = TestImages.grainyPaper(width: side, height: side, level: 220, noise: noise, seed: 77)
        func darken(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, by amount: Int) {
            for y in max(0, y0)..<min(side, y1) {
                for x in max(0, x0)..<min(side, x1) { image[x, y] = UInt8(max(0, Int(image[x, y]) - amount)) }
            }
        }
        for k in 0...9 where k % 3 != 0 {
            if thinRows { darken(0, k * cell, side, k * cell + 1, by: thin) }
            if thinColumns { darken(k * cell, 0, k * cell + 1, side, by: thin) }
        }
        for r in 0..<9 {
            for c in 0..<9 {
                let (x, y) = (c * cell, r * cell)
                if blobs { darken(x + cell * 3 / 10, y + cell / 5, x + cell * 7 / 10, y + cell * 4 / 5, by: 160) }
                if strokes {
                    let reach = Int(strokeShare * Double(cell)) / 2
                    darken(x + cell / 2 - 1, y + cell / 2 - reach, x + cell / 2 + 2, y + cell / 2 + reach, by: 160)
                }
            }
        }
        for k in stride(from: 0, through: 9, by: 3) {
            darken(k * cell - 1, 0, k * cell + 2, side, by: 180)
            darken(0, k * cell - 1, side, k * cell + 2, by: 180)
        }
        return image
    }

    /// The lines at every `step`th cell of a 9-cell side of `cell` px.
    func lines(every step: Int, cell: Int) -> [Double] {
        stride(from: 0, through: 9, by: step).map { Double($0 * cell) }
    }

    @Test("A puzzle ruled by its box lines is divided into its 9 × 9 cells",
          arguments: [(14, 30, 3), (24, 30, 3), (40, 30, 3), (24, 60, 3), (24, 40, 12), (40, 25, 3)])
    func boxLinesDividedIntoCells(cell: Int, thin: Int, noise: Int) {
        for blobs in [false, true] {
            let g = puzzle(cell: cell, thin: thin, noise: noise, blobs: blobs)
            let coarse = Ruling(rows: lines(every: 3, cell: cell), columns: lines(every: 3, cell: cell))
            let finer = RulingFinder.subdivided(coarse, in: g)
            #expect(finer.rowCount == 9 && finer.columnCount == 9,
                    "cell \(cell), thin \(thin), noise \(noise), blobs \(blobs): \(finer.rowCount)x\(finer.columnCount)")
            guard finer.rowCount == 9, finer.columnCount == 9 else { continue }
            for k in 0...9 {
                #expect(abs(finer.rows[k] - Double(k * cell)) <= 1.5 && abs(finer.columns[k] - Double(k * cell)) <= 1.5,
                        "line \(k): row \(finer.rows[k]), column \(finer.columns[k])")
            }
        }
    }

    @Test("Rows found, columns only at the box lines: the columns are divided, the rows kept")
    func oneDirectionDivided() {
        let cell = 30
        let g = puzzle(cell: cell, thin: 30, noise: 3, blobs: true)
        let found = Ruling(rows: lines(every: 1, cell: cell), columns: lines(every: 3, cell: cell))
        let finer = RulingFinder.subdivided(found, in: g)
        #expect(finer.rows == found.rows)
        #expect(finer.columnCount == 9)
    }

    @Test("Control: no thin lines, with digits, strokes down the cells' middles or grain, stays as ruled",
          arguments: [(false, false, 3), (true, false, 3), (false, true, 3), (false, false, 30)])
    func noThinLinesNoDivision(blobs: Bool, strokes: Bool, noise: Int) {
        for cell in [14, 30] {
            let g = puzzle(cell: cell, thin: 0, noise: noise, thinRows: false, thinColumns: false,
                           blobs: blobs, strokes: strokes)
            let coarse = Ruling(rows: lines(every: 3, cell: cell), columns: lines(every: 3, cell: cell))
            let finer = RulingFinder.subdivided(coarse, in: g)
            #expect(finer == coarse, "cell \(cell): \(finer.rowCount)x\(finer.columnCount)")
        }
    }

    @Test("Control: strokes dark along most of each cell, a column of 1s, are no line however dark")
    func tallStrokesAreNoLine() {
        // 80 % of each cell's height: dark over more than 70 % of the column, under 90 %
        let cell = 30
        let g = puzzle(cell: cell, thin: 0, noise: 3, thinRows: false, thinColumns: false, strokes: true, strokeShare: 0.8)
        let coarse = Ruling(rows: lines(every: 1, cell: cell), columns: lines(every: 1, cell: cell))
        let finer = RulingFinder.subdivided(coarse, in: g)
        #expect(finer.columnCount == 9, "\(finer.columnCount) columns")
    }
}
