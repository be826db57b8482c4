import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A hard shadow's edge across a sheet is no ruling line: the sheet is no grid of two
/// cells, and the boxes on it are read.
@Suite("A shadow's edge does not divide a sheet into a grid")
struct ShadowStepGridTests {
    /// A 400 × 300 sheet at (50, 50) on a dark desk with two boxes (lines 3 px, three
    /// upright strokes in each) and, from y = `edge` down, everything in shade.
    func sheet(edge: Int, shade: Double) -> GrayImage {
        var image = GrayImage(width: 500, height: 400, fill: 50)
        for y in 50..<350 { for x in 50..<450 { image[x, y] = 225 } }
        for top in [90, 240] {
            for y in top..<(top + 60) { for x in 100..<400 where y < top + 3 || y >= top + 57 || x < 103 || x >= 397 {
                image[x, y] = 30
            } }
            for k in 0..<3 { for y in (top + 12)..<(top + 48) { for x in (150 + k * 60)..<(156 + k * 60) { image[x, y] = 30 } } }
        }
        for y in edge..<400 { for x in 0..<500 { image[x, y] = UInt8(Double(image[x, y]) * shade) } }
        return image
    }

    func regions(edge: Int, shade: Double) -> [LaidOutRegion] {
        func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
            Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
        }
        let quads = [DetectedQuad(quad: quad(50, 50, 449, 349), parent: nil, isHole: false),
                     DetectedQuad(quad: quad(100, 90, 399, 149), parent: 0, isHole: false),
                     DetectedQuad(quad: quad(100, 240, 399, 299), parent: 0, isHole: false)]
        return Layout().regions(in: sheet(edge: edge, shade: shade), quads: quads)
    }

    @Test("Shade across the sheet between its boxes: the two boxes are its fields, no grid",
          arguments: [(200, 0.5), (195, 0.6), (210, 0.45)])
    func shadeIsNoDivider(edge: Int, shade: Double) {
        let found = regions(edge: edge, shade: shade)
        #expect(!found.contains { $0.kind == .grid })
        #expect(found.filter { $0.kind == .field }.count == 2)
    }

    @Test("Control: the same sheet in even light also reads its two boxes")
    func evenLight() {
        let found = regions(edge: 400, shade: 1)
        #expect(!found.contains { $0.kind == .grid })
        #expect(found.filter { $0.kind == .field }.count == 2)
    }
}
