@testable import DocumentImaging
import Testing

/// Rulings whose quad is not the grid's frame, whose cells hold columns of digits, or
/// whose thin lines are faint along part of the grid.
@Suite("Ruling lines: quads past the grid, digit columns, lines faint in places")
struct RulingTests {
    /// A 450 × 450 binary region with `lines` drawn (2 px thick) as the closure says.
    func region(_ ink: (Int, Int) -> Bool) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: 450 * 450)
        for y in 0..<450 { for x in 0..<450 where ink(x, y) { bits[y * 450 + x] = 1 } }
        return BinaryImage(width: 450, height: 450, bits: bits)
    }

    func near(_ v: Int, _ lines: [Int]) -> Bool { lines.contains { abs(v - $0) <= 1 } }

    @Test("A quad running past the grid: the grid ends at its last line, no margin column")
    func quadPastTheGrid() throws {
        // 9 cells of 46 px from 5 to 419 in a 516 px quad: beyond 419 plain paper or shadow
        let found = (0...9).map { 5 + Double($0) * 46 }
        let positions = try #require(RulingFinder.evenDivision(found, length: 516, maxCells: 30))
        #expect(positions.count == 10 && positions.first == 5 && positions.last == 419)
    }

    @Test("A quad a little larger than its grid: the division the lines fit, not the quad's edges")
    func slightlyLargerQuad() throws {
        // 9 cells of 50 px from 10 to 460 in a 470 px region: 0 … 470 in nine is every line a bit off
        let found = (0...9).map { 10 + Double($0) * 50 }
        let positions = try #require(RulingFinder.evenDivision(found, length: 470, maxCells: 30))
        #expect(positions.count == 10 && positions.first == 10 && positions.last == 460)
    }

    @Test("A missing line beside a border with no line of its own is not filled in")
    func missingBesideBareBorder() {
        // lines at 100 … 700 of 900, none at 0, 800 or 900: 9 cells would need two guesses
        let found = (1...7).map { Double($0) * 100 }
        #expect(RulingFinder.evenDivision(found, from: 0, to: 900, maxCells: 30)?.count != 10)
        // with lines at the borders, the one gap (800) is believed
        let framed = [0.0] + found + [900]
        #expect(RulingFinder.evenDivision(framed, from: 0, to: 900, maxCells: 9)?.count == 10)
    }

    @Test("Columns of digits that happen to line up are faint lines, not another grid")
    func digitColumns() throws {
        let rules = (0...9).map { min(449, $0 * 50) }
        let digitColumns = [75, 175, 325]
        let b = region { x, y in
            near(x, rules) || near(y, rules)
                || (near(x, digitColumns) && y % 50 >= 8 && y % 50 < 44)   // a "1" in every cell
        }
        let lines = FoundLines(in: b)
        #expect(digitColumns.allSatisfy { c in lines.faintColumns.contains { abs($0 - Double(c)) < 2 } })
        // held against the division, the three would have sunk it
        #expect(RulingFinder.evenDivision(lines.columns, length: 450, maxCells: 30)?.count != 10)
        let ruling = try #require(RulingFinder.ruling(lines, width: 450, height: 450))
        #expect(ruling.rowCount == 9 && ruling.columnCount == 9)
    }

    @Test("Thin lines missing from one box are found in the other boxes' bands")
    func linesInBands() throws {
        let thick = [0, 150, 300, 449], thin = [50, 100, 200, 250, 350, 400]
        let b = region { x, y in
            near(x, thick) || near(y, thick) || near(x, thin) || (x > 150 && near(y, thin))
        }
        let lines = FoundLines(in: b)
        #expect(!lines.rows.contains { abs($0 - 50) < 3 })          // 2/3 of the width: not a line
        let coarse = Ruling(rows: thick.map(Double.init), columns: (0...9).map { Double(min(449, $0 * 50)) })
        let bandRows = RulingFinder.linesInBands(of: coarse, in: b, horizontal: true)
        #expect(thin.allSatisfy { t in bandRows.contains { abs($0 - Double(t)) < 2 } })
        let ruling = try #require(RulingFinder.ruling(lines, width: 450, height: 450, supportingRows: bandRows))
        #expect(ruling.rowCount == 9 && ruling.columnCount == 9)
    }
}
