@testable import DocumentImaging
import ImagingCore
import Testing

/// A puzzle whose frame and region lines are heavy and whose thin lines a blur has left
/// several times fainter: each thin line's grey-level profile falls under a quarter of the
/// frame's (`RulingFinder.strongestLineShare`), so no ruling was found and the grid was read
/// as the pieces its heavy lines bound. The same in a noisy photo: the paper's grain sets a
/// floor (`GrayImage.paperNoiseFloor`) above the thin lines. Against the profile's own
/// background (`ProfileLevels.Direction.linesAboveBackground`) the thin lines are there.
@Suite("Thin lines beside a heavy frame")
struct FaintRulingTests {
    /// A straightened 9×9 puzzle of 50 px cells on paper at grey 230 (±`noise`, fixed):
    /// a frame `frame` px wide at grey 30, thin lines 2 px wide `thin` levels darker than
    /// the paper, and heavy jigsaw region lines (6 px) along some cell edges, irregular.
    /// `thinLines: false` leaves the thin lines out; `digitRows` puts a row of blobs (the
    /// size of printed digits) in the middle of each cell of those rows.
    func puzzle(frame: Int = 10, thin: Int = 35, noise: Int = 4, thinLines: Bool = true, digitRows: [Int] = []) -> GrayImage {
        let side = 450, cell = 50
        var image = TestImages.grainyPaper(width: side, height: side, level: 230, noise: noise, seed: 2024)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ grey: UInt8) {
            for y in max(0, y0)..<min(side, y1) {
                for x in max(0, x0)..<min(side, x1) { image[x, y] = grey < 200 ? grey : min(image[x, y], grey) }
            }
        }
        if thinLines {
            for k in 1..<9 {
                // the thin lines keep the paper's grain: darker by `thin` pixel by pixel
                for a in 0..<side {
                    for b in (k * cell - 1)...(k * cell) {
                        image[b, a] = UInt8(max(0, Int(image[b, a]) - thin))
                        if a < k * cell - 1 || a > k * cell { image[a, b] = UInt8(max(0, Int(image[a, b]) - thin)) }
                    }
                }
            }
        }
        // region lines: down x = 3 cells over rows 0–5, x = 4 cells over rows 5–9, joined
        // along y = 5 cells; across y = 2 cells over columns 4–9
        paint(3 * cell - 3, 0, 3 * cell + 3, 5 * cell + 3, 30)
        paint(4 * cell - 3, 5 * cell - 3, 4 * cell + 3, side, 30)
        paint(3 * cell - 3, 5 * cell - 3, 4 * cell + 3, 5 * cell + 3, 30)
        paint(4 * cell - 3, 2 * cell - 3, side, 2 * cell + 3, 30)
        for r in digitRows {
            for c in 0..<9 { paint(c * cell + 18, r * cell + 12, c * cell + 32, r * cell + 38, 40) }
        }
        paint(0, 0, side, frame, 30); paint(0, side - frame, side, side, 30)
        paint(0, 0, frame, side, 30); paint(side - frame, 0, side, side, 30)
        return image
    }

    @Test("Lines against the profile's background find the 9×9 the quarter-of-the-strongest level misses",
          arguments: [(10, 35, 4), (6, 30, 4), (10, 45, 4), (14, 40, 4), (10, 20, 15), (10, 25, 20)])
    func thinLinesBesideHeavyFrame(frame: Int, thin: Int, noise: Int) throws {
        let g = puzzle(frame: frame, thin: thin, noise: noise)
        let missed = RulingFinder.ruling(in: g)
        #expect(missed == nil, "found \(missed.map { "\($0.rowCount)x\($0.columnCount)" } ?? "")")
        let found = RulingFinder.ruling(in: g, againstBackground: true)
        let ruling = try #require(found)
        #expect(ruling.rowCount == 9 && ruling.columnCount == 9)
        for (k, x) in ruling.columns.enumerated() { #expect(abs(x - Double(50 * k)) <= 6, "column line \(k) at \(x)") }
        for (k, y) in ruling.rows.enumerated() { #expect(abs(y - Double(50 * k)) <= 6, "row line \(k) at \(y)") }
    }

    @Test("Control: heavy lines alone, even with rows of digits or grain, are no ruling against the background",
          arguments: [([Int](), 4), ([1, 4, 7], 4), ([0, 1, 2, 3, 4, 5, 6, 7, 8], 4), ([0, 1, 2, 3, 4, 5, 6, 7, 8], 30)])
    func heavyLinesAloneAreNoGrid(digitRows: [Int], noise: Int) {
        let g = puzzle(noise: noise, thinLines: false, digitRows: digitRows)
        let found = RulingFinder.ruling(in: g, againstBackground: true)
        #expect(found == nil, "found \(found.map { "\($0.rowCount)x\($0.columnCount)" } ?? "")")
    }
}
