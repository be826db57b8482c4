import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A comb's boxes are divided by lines drawn from frame to frame; the uprights of digits
/// written in one long box come near its frame but stop short of it.
@Suite("Comb dividers against digits' uprights")
struct CombDividerTests {
    /// A 400 × 60 px box (3 px frame) at (50, 50) in a 500 × 160 photo, with 3 px
    /// uprights at `xs` running from `top` to `bottom` (rows of the photo).
    func box(uprights xs: [Int], top: Int = 50, bottom: Int = 110, broken: Int? = nil) -> GrayImage {
        var image = GrayImage(width: 500, height: 160, fill: 228)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = 30 } }
        }
        paint(50, 50, 450, 53); paint(50, 107, 450, 110); paint(50, 50, 53, 110); paint(447, 50, 450, 110)
        for x in xs {
            paint(x - 1, top, x + 2, bottom)
            if x == broken { for y in 75..<85 { for xx in (x - 1)..<(x + 2) { image[xx, y] = 228 } } }
        }
        return image
    }

    func kinds(_ image: GrayImage) -> [String] {
        let quad = Quadrilateral(topLeft: Point(50, 50), topRight: Point(449, 50), bottomRight: Point(449, 109),
                                 bottomLeft: Point(50, 109))
        return Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)]).map {
            $0.kind == .grid ? "grid \($0.ruling!.rowCount)x\($0.ruling!.columnCount)" : $0.kind.rawValue
        }
    }

    @Test("Uprights that stop short of the frame (digits written in the box) make no comb")
    func digitsInABox() {
        #expect(kinds(box(uprights: [130, 210, 290, 370], top: 58, bottom: 102)) == ["field"])
    }

    @Test("Kept (controls): dividers from frame to frame, and with one of them broken by a digit")
    func dividers() {
        #expect(kinds(box(uprights: [130, 210, 290, 370])) == ["grid 1x5"])
        #expect(kinds(box(uprights: [130, 210, 290, 370], broken: 210)) == ["grid 1x5"])
    }
}
