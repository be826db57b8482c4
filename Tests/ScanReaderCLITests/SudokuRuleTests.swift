@testable import DigitClassifier
@testable import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A sudoku's cells are read with the digits the givens (sure digits) of their row and
/// column, and the cells read surely before them, are ruled out (`SudokuRule`); nothing
/// else is.
@Suite("A sudoku's rule for its doubted digits")
struct SudokuRuleTests {
    /// A grid of `rows` × `columns` cells of 20 px.
    func grid(rows: Int = 9, columns: Int = 9) -> LaidOutRegion {
        let gray = GrayImage(width: 20 * columns, height: 20 * rows, fill: 230)
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(Double(20 * columns), 0),
                                 bottomRight: Point(Double(20 * columns), Double(20 * rows)),
                                 bottomLeft: Point(0, Double(20 * rows)))
        let ruling = Ruling(rows: (0...rows).map { Double(20 * $0) }, columns: (0...columns).map { Double(20 * $0) })
        return LaidOutRegion(kind: .grid, quad: quad, gray: gray, binary: gray.binarized(), ruling: ruling)
    }

    /// A piece in cell (row, col) read with `probabilities` (digit → probability, the rest
    /// to the reject class).
    func piece(_ row: Int, _ col: Int, _ probabilities: [Int: Float]) -> ReadRegion.Piece {
        var p = [Float](repeating: 0, count: 11)
        for (d, v) in probabilities { p[d] = v }
        p[10] = max(0, 1 - probabilities.values.reduce(0, +))
        let crop = InkCrop(box: PixelBox(x: 20 * col + 5, y: 20 * row + 3, width: 8, height: 14),
                           ink: [UInt8](repeating: 200, count: 8 * 14))
        return ReadRegion.Piece(crop: crop, row: row, col: col, input: nil,
                                prediction: DigitPrediction(probabilities: p, label: p.indices.max { p[$0] < p[$1] }!))
    }

    /// Sure digits 7 at (0, 4), 3 at (5, 0), 5 at (8, 8); `doubted` added.
    func reading(_ doubted: [ReadRegion.Piece]) -> [ReadRegion.Piece] {
        [piece(0, 4, [7: 0.999]), piece(5, 0, [3: 0.995]), piece(8, 8, [5: 1])] + doubted
    }

    func read(_ pieces: [ReadRegion.Piece], in region: LaidOutRegion? = nil) -> [DigitPrediction?] {
        SudokuRule.reading([pieces], of: [region ?? grid()])[0].map(\.prediction)
    }

    @Test("A doubted 7 in the row of a sure 7 reads as its likeliest other class")
    func doubtedDigitBreakingTheRule() throws {
        let cells = read(reading([piece(0, 1, [7: 0.6, 1: 0.35, 4: 0.02])]))   // 0.03 no digit
        let cell = try #require(cells[3])
        #expect(cell.label == 1 && abs(cell.confidence - 0.35 / 0.4) < 1e-5)
        #expect(cells[0]?.label == 7)   // the sure 7 stays
        // in its column too
        let column = try #require(read(reading([piece(2, 0, [3: 0.7, 8: 0.2, 9: 0.05])]))[3])
        #expect(column.label == 8 && abs(column.confidence - 0.2 / 0.3) < 1e-5)
        // the model's doubt that it is a digit at all stays: no digit is likelier than a 1
        let blot = try #require(read(reading([piece(0, 1, [7: 0.5, 1: 0.05])]))[3])
        #expect(blot.isRejected)
        // a digit the model reads over its doubt bar but under the givens' is no given
        let unsure = try #require(read(reading([piece(0, 6, [7: 0.95, 1: 0.04])]))[3])
        #expect(unsure.label == 1)
    }

    @Test("A 1 the model half took for a 7 is read surely a 1 beside a sure 7; a 0 is ruled out in any cell")
    func competitorRuledOut() throws {
        let one = try #require(read(reading([piece(0, 1, [1: 0.55, 7: 0.4])]))[3])
        #expect(one.label == 1 && one.confidence > 0.9)
        let notZero = try #require(read(reading([piece(4, 4, [0: 0.5, 6: 0.45])]))[3])
        #expect(notZero.label == 6)
    }

    @Test("A cell read surely once its row's givens are ruled out rules its digit out for the cells less sure than it")
    func surelyReReadRulesOut() throws {
        // (0, 1) reads 7 beside the sure 7, and so surely 8 (0.3995 of 0.4); (3, 1), below
        // it and less sure of its 8, then reads 2
        let first = piece(0, 1, [7: 0.6, 8: 0.3995])
        let cells = read(reading([first, piece(3, 1, [8: 0.55, 2: 0.44])]))
        let eight = try #require(cells[3]), two = try #require(cells[4])
        #expect(eight.label == 8 && eight.confidence >= SudokuRule.sureConfidence)
        #expect(two.label == 2 && abs(two.confidence - 0.44 / 0.45) < 1e-5)
        // controls: a cell surer than the re-read one is read before it and keeps its 8; a
        // re-read short of sure (8 at 0.75) rules out nothing
        #expect(read(reading([first, piece(3, 1, [8: 0.65, 2: 0.34])]))[4]?.label == 8)
        #expect(read(reading([piece(0, 1, [7: 0.6, 8: 0.3]), piece(3, 1, [8: 0.55, 2: 0.44])]))[4]?.label == 8)
    }

    @Test("Controls: no clash, grids whose givens break the rule, another size, a table's cell, a rejected piece")
    func controls() {
        let unchanged: [([ReadRegion.Piece], LaidOutRegion)] = [
            (reading([piece(1, 1, [7: 0.6, 1: 0.35])]), grid()),               // no sure 7 in its row or column
            (reading([piece(0, 6, [7: 0.995, 1: 0.004])]), grid()),            // two given 7s in a row: no sudoku
            (reading([piece(0, 1, [7: 0.6, 1: 0.35]), piece(4, 4, [5: 1]), piece(4, 7, [5: 1])]), grid()),   // two sure 5s in a row: no sudoku
            (reading([piece(0, 1, [7: 0.6, 1: 0.35])]), grid(rows: 9, columns: 8)),
            (reading([piece(0, 1, [7: 0.6, 1: 0.35]), piece(0, 1, [2: 0.99])]), grid()),   // two pieces in a cell: a number
            (reading([piece(0, 1, [7: 0.3, 1: 0.1])]), grid()),               // rejected
        ]
        for (pieces, region) in unchanged {
            #expect(read(pieces, in: region) == pieces.map(\.prediction))
        }
    }

    @Test("The rule: digits 1–9, none twice in a row or a column (cells row by row)")
    func rule() {
        #expect(SudokuRule.keepsRule([0: 1, 10: 1, 20: 1]))        // a diagonal
        #expect(!SudokuRule.keepsRule([0: 4, 8: 4]))               // one row
        #expect(!SudokuRule.keepsRule([3: 6, 75: 6]))              // one column
        #expect(!SudokuRule.keepsRule([40: 0]))                    // no sudoku holds a 0
    }
}
