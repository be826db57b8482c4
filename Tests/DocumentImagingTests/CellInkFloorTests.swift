@testable import DocumentImaging
import ImagingCore
import Testing

/// The least contrast a grid cell's ink needs scales with the cell's paper
/// (`GrayImage.inkFloorShare`): ink is so many per cent darker than the paper whatever
/// the light, so a dim photo's faint digit is ink and a bright photo's faint smudge is not.
@Suite("A cell's ink floor follows its paper's light")
struct CellInkFloorTests {
    /// A 3 × 3 grid of 60 px cells, paper at `paper` with grain ±2, ruling 2 px at a third
    /// of the paper; the middle cell holds a 6 × 30 px stroke `strokeShare` darker than
    /// the paper, and the top-left cell (when `smudgeShare` is given) a 20 × 20 px smudge.
    static func grid(paper: Int, strokeShare: Double, smudgeShare: Double? = nil) -> (GrayImage, Ruling) {
        var g = GrayImage(width: 182, height: 182, fill: UInt8(paper))
        var state: UInt32 = 5
        for i in g.pixels.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            g.pixels[i] = UInt8(paper + Int(state >> 29) % 5 - 2)
        }
        let lines = [0.0, 60, 120, 180]
        for k in lines.map(Int.init) {
            for a in 0..<182 { for t in k..<(k + 2) { g[a, t] = UInt8(paper / 3); g[t, a] = UInt8(paper / 3) } }
        }
        for y in 76..<106 { for x in 88..<94 { g[x, y] = UInt8(Double(paper) * (1 - strokeShare)) } }
        if let smudgeShare {
            for y in 20..<40 { for x in 20..<40 { g[x, y] = UInt8(Double(paper) * (1 - smudgeShare)) } }
        }
        return (g, Ruling(rows: lines, columns: lines))
    }

    static func inkCount(_ b: BinaryImage, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x where b.bits[yy * b.width + xx] != 0 { n += 1 } }
        return n
    }

    @Test("A stroke 16 % darker than dim paper (16 levels at 100) is ink", arguments: [100, 130])
    func dimStroke(paper: Int) {
        let (g, ruling) = Self.grid(paper: paper, strokeShare: 0.16)
        let ink = g.binarizedByCells(ruling)
        #expect(Self.inkCount(ink, x: 88..<94, y: 76..<106) >= 170, "paper \(paper)")
        // the empty cells stay paper
        #expect(Self.inkCount(ink, x: 66..<114, y: 6..<54) == 0)
    }

    @Test("On bright paper a smudge 9 % darker (22 levels at 240) stays paper; the stroke is ink")
    func brightSmudge() {
        let (g, ruling) = Self.grid(paper: 240, strokeShare: 0.16, smudgeShare: 0.09)
        let ink = g.binarizedByCells(ruling)
        #expect(Self.inkCount(ink, x: 20..<40, y: 20..<40) == 0)
        #expect(Self.inkCount(ink, x: 88..<94, y: 76..<106) >= 170)
    }
}
