import Foundation
@testable import DocumentImaging
import ImagingCore
import Testing

/// Cells holding several digits side by side: a number in a table, a solver's candidates
/// in a puzzle. The grid decides which from how many of its cells hold them.
@Suite("Numbers in table cells")
struct NumberCellTests {
    /// A 3×3 ruled grid of 120-px cells; `digits[k]` glyphs (rings 56 px tall, 26 px wide)
    /// side by side in cell k, row by row.
    static func grid(_ digits: [Int]) -> (GrayImage, BinaryImage, Ruling) {
        let side = 360, cell = 120
        var g = GrayImage(width: side, height: side, fill: 235)
        func ink(_ x: Int, _ y: Int) { if x >= 0, y >= 0, x < side, y < side { g[x, y] = 25 } }
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
                        if e <= 1 && e >= 0.45 { ink(x, y) }
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

    @Test("Control: in a grid of single digits, the one cell with two side by side (candidates) reads empty")
    func candidatesInPuzzle() {
        let counts = [1, 1, 2, 1, 0, 1, 1, 1, 1]
        let (g, b, ruling) = Self.grid(counts)
        let cells = DigitSegmenter().gridCellDigits(gray: g, binary: b, ruling: ruling)
        #expect(cells.map(\.count) == [1, 1, 0, 1, 0, 1, 1, 1, 1])
    }
}
