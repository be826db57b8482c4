@testable import DocumentImaging
import ImagingCore
import Testing

/// On a noisy blank sheet the paper's own noise, measured against the paper, is ink
/// nearly everywhere: every row "covers" the region, and one run of them spanning it
/// all was taken for a line through its middle — a sheet holding one large digit read
/// as a 2 × 2 grid of empty cells.
@Suite("Noise taken for ink makes no ruling line")
struct NoiseRulingTests {
    /// A 300 × 420 sheet at grey 200 with noise of about ±30 levels (a fixed sequence),
    /// with the pixels where `ink` holds at grey 40.
    func sheet(_ ink: (Int, Int) -> Bool) -> GrayImage {
        var image = GrayImage(width: 300, height: 420, fill: 200)
        var state: UInt32 = 12345
        for y in 0..<420 {
            for x in 0..<300 {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 24) % 61 - 30
                image[x, y] = ink(x, y) ? 40 : UInt8(200 + noise)
            }
        }
        return image
    }

    @Test("A large stroke on a noisy blank sheet is no grid, by ink coverage or by grey levels")
    func noisyBlankSheet() {
        // a "1": a stroke 4 px wide down the middle third
        let g = sheet { x, y in abs(x - 150) < 2 && y > 140 && y < 280 }
        let lines = FoundLines(in: g.binarizedAgainstPaper())
        #expect(lines.rows.isEmpty && lines.columns.isEmpty, "rows \(lines.rows), columns \(lines.columns)")
        #expect(RulingFinder.ruling(lines, width: g.width, height: g.height) == nil)
        #expect(RulingFinder.ruling(in: g) == nil)
    }

    @Test("Control: a 2 × 2 ruling on the same noisy sheet is found by its grey levels")
    func noisyRuledSheet() throws {
        let g = sheet { x, y in abs(x - 150) < 3 || abs(y - 210) < 3 || x < 5 || x >= 295 || y < 5 || y >= 415 }
        let ruling = try #require(RulingFinder.ruling(in: g))
        #expect(ruling.rowCount == 2 && ruling.columnCount == 2)
    }
}
