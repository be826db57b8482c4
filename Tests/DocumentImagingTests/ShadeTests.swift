@testable import DocumentImaging
import ImagingCore
import Testing

/// The paper level around each pixel, and cells thresholded against it where a shadow's
/// edge crosses them.
@Suite("Shade: the paper level around a pixel, and a shadow's edge across a cell")
struct ShadeTests {
    @Test("The paper level follows a shadow's edge and ignores thin strokes",
          arguments: [18, 36, 54])
    func paperLevelFollowsAnEdge(window: Int) {
        // left of x = 150 paper at 210, right of it shade at 110; thin dark strokes on both
        var g = GrayImage(width: 300, height: 120, fill: 210)
        for y in 0..<120 { for x in 150..<300 { g[x, y] = 110 } }
        for y in 20..<100 { for x in [60, 61, 62, 230, 231, 232] { g[x, y] = 30 } }
        let level = PaperLevel(of: g, window: window)
        let precision = max(1, window / PaperLevel.reducedWindow)
        // nothing in a box reads lower than its darkest
        #expect(level.darkest(in: PixelBox(x: 0, y: 0, width: 140, height: 120)) >= 208)
        #expect(level.darkest(in: PixelBox(x: 140, y: 0, width: 20, height: 120)) <= 112)
        for y in stride(from: 10, to: 110, by: 10) {
            for x in 0..<300 where abs(x - 150) > precision {
                let want = x < 150 ? 210 : 110
                #expect(abs(level[x, y] - want) <= 2, "x \(x) y \(y): \(level[x, y])")
            }
        }
    }

    /// A 3 × 3 grid of 60 px cells (paper 210, ruling 2 px at 40) with a 5 px upright
    /// stroke in the middle cell, and everything right of x = `edge` (the middle cell's
    /// right third and the cells beyond) in shade at `shade`.
    func shadedCell(shade: UInt8?, edge: Int = 100) -> (GrayImage, Ruling) {
        var g = GrayImage(width: 180, height: 180, fill: 210)
        if let shade { for y in 0..<180 { for x in edge..<180 { g[x, y] = shade } } }
        for v in 0..<180 { for k in [0, 60, 120, 178] { for d in 0..<2 { g[k + d, v] = 40; g[v, k + d] = 40 } } }
        for y in 72..<108 { for x in 86..<91 { g[x, y] = 40 } }
        let lines = [0.0, 60, 120, 180]
        return (g, Ruling(rows: lines, columns: lines))
    }

    func inkInMiddleCell(_ b: BinaryImage, x: Range<Int>) -> Int {
        var n = 0
        for y in 66..<114 { for xx in x where b.bits[y * b.width + xx] != 0 { n += 1 } }
        return n
    }

    @Test("A shadow's edge across a cell leaves the shade as paper and the digit's stroke as ink",
          arguments: [UInt8(120), 140])
    func shadeIsNoInk(shade: UInt8) {
        let (g, ruling) = shadedCell(shade: shade)
        let b = g.binarizedByCells(ruling)
        // the shade (well inside the cell, away from the stroke) is paper
        #expect(inkInMiddleCell(b, x: 104..<114) == 0)
        // the stroke is ink, whole
        #expect(inkInMiddleCell(b, x: 86..<91) == 36 * 5)
    }

    @Test("Control: an unshaded cell's stroke, and a bold digit filling much of its cell, stay whole")
    func boldInkStaysInk() {
        let (plain, ruling) = shadedCell(shade: nil)
        #expect(inkInMiddleCell(plain.binarizedByCells(ruling), x: 66..<114) == 36 * 5)
        // a bold block 30 × 40 px (a third of the cell) in the middle cell
        var bold = plain
        for y in 70..<110 { for x in 75..<105 { bold[x, y] = 40 } }
        #expect(inkInMiddleCell(bold.binarizedByCells(ruling), x: 75..<105) == 30 * 40)
    }
}
