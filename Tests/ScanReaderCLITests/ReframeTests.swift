import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A grid whose outline was found off its frame (a shadow's edge and the sheet below at
/// two sides, the far corner half a cell or more out): it is straightened again along the
/// frame (`Layout.reframed`, `FrameFit`).
@Suite("Grids straightened again along their frame")
struct ReframeTests {
    /// A 9×9 grid of 50 px cells from (60, 60) to (510, 510), heavy frame and box lines,
    /// thin cell lines; right of x = `shadowFrom` and below y = `shadowFrom` the paper is
    /// in shade (a darker strip a quad may take in).
    func puzzle(shadowFrom: Int = 530) -> GrayImage {
        var image = GrayImage(width: 640, height: 640, fill: 230)
        for y in 0..<640 { for x in 0..<640 where x >= shadowFrom || y >= shadowFrom { image[x, y] = 120 } }
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in max(0, y0)..<min(640, y1) { for x in max(0, x0)..<min(640, x1) { image[x, y] = 25 } }
        }
        for k in 0...9 {
            let p = 60 + 50 * k, half = k % 3 == 0 ? 3 : 1
            paint(p - half, 57, p + half, 513); paint(57, p - half, 513, p + half)
        }
        return image
    }

    func square(_ corners: [(Double, Double)]) -> Quadrilateral {
        Quadrilateral(topLeft: Point(corners[0].0, corners[0].1), topRight: Point(corners[1].0, corners[1].1),
                      bottomRight: Point(corners[2].0, corners[2].1), bottomLeft: Point(corners[3].0, corners[3].1))
    }

    func gridOutline(_ image: GrayImage, quad: Quadrilateral) throws -> Quadrilateral {
        let regions = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: true)])
        let grid = try #require(regions.first { $0.kind == .grid && $0.ruling?.cellCount == 81 },
                                "\(regions.map { "\($0.kind) \($0.ruling.map { "\($0.rowCount)x\($0.columnCount)" } ?? "")" })")
        return ReadRegion(region: grid, pieces: []).outline
    }

    @Test("An outline running out along the shade at two sides: the grid is read along its frame",
          arguments: [(far: 28.0, side: 14.0), (far: 24.0, side: 6.0), (far: 36.0, side: 10.0)])
    func outlineOffTheFrame(far: Double, side: Double) throws {
        let image = puzzle()
        // top-left at the frame; the other corners out into the shade, the far one most
        let quad = square([(58, 58), (512 + side, 57), (512 + far, 512 + far), (57, 512 + side)])
        let outline = try gridOutline(image, quad: quad)
        let truth = [Point(60, 60), Point(510, 60), Point(510, 510), Point(60, 510)]
        for (found, expected) in zip(outline.corners, truth) {
            #expect(Polygon.distance(found, expected) < 5, "\(outline.corners)")
        }
    }

    @Test("Control: an outline on the frame is left as it is")
    func outlineOnTheFrame() throws {
        let image = puzzle()
        let quad = square([(57, 57), (513, 57), (513, 513), (57, 513)])
        let g = try #require(Layout().straighten(quad, in: image))
        let lines = (0...9).map { 3 + Double($0) * 50 }
        #expect(Layout().reframed(quad, straightened: g, ruling: Ruling(rows: lines, columns: lines),
                                  in: image) == nil)
        let outline = try gridOutline(image, quad: quad)
        for (found, expected) in zip(outline.corners, [Point(60, 60), Point(510, 60), Point(510, 510), Point(60, 510)]) {
            #expect(Polygon.distance(found, expected) < 5, "\(outline.corners)")
        }
    }
}
