import Foundation
@testable import DocumentImaging
import ImagingCore
import Testing

/// Cells holding several digits side by side: a number in a table, a solver's candidates
/// in a puzzle. The grid decides which from how many of its cells hold them.
@Suite("Numbers in table cells")
struct NumberCellTests {
    /// A 3×3 ruled grid of 120-px cells; `digits[k]` glyphs (rings 56 px tall, 26 px wide)
    /// side by side in cell k, row by row. `dashes`: cell 0's first glyph drawn in that many dashes round its ring, a third of
    /// each pale (grey 190: a pen skipping on a thin stroke).
    static func grid(_ digits: [Int], dashes: Int? = nil) -> (GrayImage, BinaryImage, Ruling) {
        let side = 360, cell = 120
        var g = GrayImage(width: side, height: side, fill: 235)
        func ink(_ x: Int, _ y: Int, _ level: UInt8 = 25) { if x >= 0, y >= 0, x < side, y < side { g[x, y] = level } }
        for k in 0...3 {
            for t in 0..<3 { for p in 0..<side { ink(min(side - 1, k * cell + t - 1), p); ink(p, min(side - 1, k * cell + t - 1)) } }
        }
        for (k, n) in digits.enumerated() where n > 0 {
            let cx0 = (k % 3) * cell + cell / 2 - (n * 34) / 2 + 17, cy = (k / 3) * cell + cell / 2
            for d in 0..<n {
                let cx = cx0 + d * 34
                for y in (cy - 28)...(cy + 28) {
                    for x in (cx - 13)...(cx + 13) {
                        let e = pow(Double(x - cx) / 13, 2) + pow(Double(y - cy) / 28, 2)
                        guard e <= 1 && e >= 0.45 else { continue }
                        if k == 0, d == 0, let dashes {
                            let turn = (atan2(Double(y - cy) / 28, Double(x - cx) / 13) / (2 * .pi) + 1) * Double(dashes)
                            if turn - turn.rounded(.down) > 2.0 / 3 { ink(x, y, 190); continue }
                        }
                        ink(x, y)
                    }
                }
            }
        }
        let lines = [0.0, 120, 240, 360]
        return (g, g.binarized(), Ruling(rows: lines, columns: lines))
    }

    @Test("A table whose cells hold numbers reads every digit of each, left to right")
    func tableOfNumbers() {
        let counts = [3, 1, 2, 2, 0, 3, 1, 2, 1]
        let (g, b, ruling) = Self.grid(counts)
        let cells = DigitSegmenter().gridCellDigits(gray: g, binary: b, ruling: ruling)
        #expect(cells.map(\.count) == counts)
        for crops in cells where crops.count > 1 {
            #expect(zip(crops, crops.dropFirst()).allSatisfy { $0.box.maxX <= $1.box.x })
        }
    }

    /// The cell's one-digit cut keeps the solid digit and drops the dashes as specks; read
    /// as a number, its dashes are joined by the faint ink into the digit they make.
    @Test("In a table of numbers, a number whose first digit the pen broke into dashes reads both digits",
          arguments: [4, 6, 8])
    func brokenDigitOfANumber(dashes: Int) {
        let counts = [2, 1, 2, 2, 0, 3, 1, 2, 1]
        let (g, _, ruling) = Self.grid(counts, dashes: dashes)
        let planes = g.binarizedByCells(ruling, contrastShares: [1, 0.5])
        let cells = DigitSegmenter().gridCellDigits(gray: g, binary: planes[0], faint: planes[1], ruling: ruling)
        #expect(cells.map(\.count) == counts, "\(dashes) dashes")
    }

    @Test("Control: in a grid of single digits, the one cell with two side by side (candidates) reads empty")
    func candidatesInPuzzle() {
        let counts = [1, 1, 2, 1, 0, 1, 1, 1, 1]
        let (g, b, ruling) = Self.grid(counts)
        let cells = DigitSegmenter().gridCellDigits(gray: g, binary: b, ruling: ruling)
        #expect(cells.map(\.count) == [1, 1, 0, 1, 0, 1, 1, 1, 1])
    }
}
