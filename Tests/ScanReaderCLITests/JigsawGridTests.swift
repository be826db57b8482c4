import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A jigsaw puzzle: heavy frame and region lines, thin lines a blur left several times
/// fainter. Its regions' outlines are quads inside it; the grid is found whole from its
/// thin lines standing out of their profiles' background, not read as the regions it is
/// cut into.
@Suite("A jigsaw puzzle read as one grid")
struct JigsawGridTests {
    /// A 450 px puzzle of 50 px cells at (75, 75) on a 600 px sheet at grey 230: frame
    /// 10 px at grey 30, thin lines 2 px `thin` levels darker than the paper, heavy region
    /// lines (6 px) down x = 3 cells over rows 0–5, x = 4 cells over rows 5–9 and along
    /// y = 5 cells between them, and a printed-digit-sized blob in a few cells.
    func sheet(thin: Int) -> GrayImage {
        var image = GrayImage(width: 600, height: 600, fill: 230)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ grey: UInt8) {
            for y in (75 + y0)..<(75 + y1) { for x in (75 + x0)..<(75 + x1) { image[x, y] = grey } }
        }
        for k in 1..<9 {
            paint(50 * k - 1, 0, 50 * k + 1, 450, UInt8(230 - thin))
            paint(0, 50 * k - 1, 450, 50 * k + 1, UInt8(230 - thin))
        }
        paint(147, 0, 153, 253, 30); paint(197, 247, 203, 450, 30); paint(147, 247, 203, 253, 30)
        for (r, c) in [(0, 0), (1, 4), (3, 7), (5, 2), (8, 8)] { paint(c * 50 + 18, r * 50 + 12, c * 50 + 32, r * 50 + 38, 40) }
        paint(0, 0, 450, 10, 30); paint(0, 440, 450, 450, 30); paint(0, 0, 10, 450, 30); paint(440, 0, 450, 450, 30)
        return image
    }

    func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(75 + x0, 75 + y0), topRight: Point(75 + x1, 75 + y0),
                      bottomRight: Point(75 + x1, 75 + y1), bottomLeft: Point(75 + x0, 75 + y1))
    }

    @Test("The puzzle's outline is one 9×9 grid; its regions' outlines are no fields", arguments: [25, 30])
    func jigsawIsOneGrid(thin: Int) {
        // the puzzle's outline, and the inner outlines of its left region (columns 0–2,
        // rows 0–4) and of the right region's top (columns 4–8, rows 0–1)
        let quads = [DetectedQuad(quad: quad(0, 0, 450, 450), parent: nil, isHole: false),
                     DetectedQuad(quad: quad(10, 10, 147, 247), parent: 0, isHole: true),
                     DetectedQuad(quad: quad(203, 10, 440, 97), parent: 0, isHole: true)]
        let regions = Layout().regions(in: sheet(thin: thin), quads: quads)
        let found = regions.map { r in r.kind == .grid ? r.ruling.map { "\($0.rowCount)x\($0.columnCount)" } ?? "grid" : "\(r.kind)" }
        #expect(found == ["9x9"], "\(found)")
    }
}
