@testable import DocumentImaging
import ImagingCore
import Testing

/// A puzzle's thin lines lost one way over part of the grid (a shadow, a pale print) while
/// its heavy lines stand: the way whose lines are all found gives the cell count, and the
/// other way is filled with as many square cells (`RulingFinder.squareRuling`).
@Suite("Square cells filled in from the lines found the other way")
struct SquareRulingTests {
    /// A 450 × 450 region ruled 9 × 9 (2-px thin lines, 6-px lines every third), the
    /// horizontal thin lines left out at `missingRows` (cell indices 1…8), and extra
    /// horizontal strokes at `strayRows` (y).
    static func lines(missingRows: Set<Int>, strayRows: [Int] = [], cells: Int = 9) -> FoundLines {
        let side = 450, pitch = Double(side - 1) / Double(cells)
        var bits = [UInt8](repeating: 0, count: side * side)
        func line(_ k: Int, horizontal: Bool) {
            let heavy = k % 3 == 0
            let centre = Int((Double(k) * pitch).rounded())
            let half = heavy ? 3 : 1
            for d in -half..<half {
                let at = min(side - 1, max(0, centre + d))
                for p in 0..<side { bits[horizontal ? at * side + p : p * side + at] = 1 }
            }
        }
        for k in 0...cells {
            line(k, horizontal: false)
            if !missingRows.contains(k) { line(k, horizontal: true) }
        }
        for y in strayRows { for x in 0..<side { bits[y * side + x] = 1 } }
        return FoundLines(in: BinaryImage(width: side, height: side, bits: bits))
    }

    @Test("Three thin lines in a row lost: the rows are filled to 9", arguments: [[4, 5, 7], [1, 2, 4], [5, 7, 8]])
    func filled(missing: [Int]) {
        let found = Self.lines(missingRows: Set(missing))
        // the premise: the plain ruling does not find the grid
        #expect(RulingFinder.ruling(found, width: 450, height: 450) == nil)
        let ruling = RulingFinder.squareRuling(found, width: 450, height: 450)
        #expect(ruling?.rowCount == 9 && ruling?.columnCount == 9)
        if let rows = ruling?.rows {
            for (k, y) in rows.enumerated() { #expect(abs(y - Double(k) * 449 / 9) < 5, "row \(k) at \(y)") }   // a tenth of a cell
        }
    }

    @Test("Controls: under half the lines found, or a stroke off the division, or no way found whole: no ruling")
    func notFilled() {
        // five of eight interior rows lost
        #expect(RulingFinder.squareRuling(Self.lines(missingRows: [1, 2, 4, 5, 7]), width: 450, height: 450) == nil)
        // a strong stroke between two rows' places
        #expect(RulingFinder.squareRuling(Self.lines(missingRows: [4, 5, 7], strayRows: [420]), width: 450, height: 450) == nil)
        // the cells would not be square: a region twice as tall
        let tall = Self.lines(missingRows: [4, 5, 7])
        #expect(RulingFinder.squareRuling(tall, width: 450, height: 900) == nil)
    }
}
