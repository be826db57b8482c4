@testable import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// A box drawn in a thin line with a gap (a pale line aslant breaks between rows of
/// pixels): its border runs out through the gap and back along the inside, enclosing
/// little, and is still taken as the box when no pass traced it closed.
@Suite("Drawn frames with a gap")
struct BrokenFrameTests {
    /// A `length` × `length / 5` box turned by `degrees` about the middle of a sheet, its
    /// line `thickness` wide, with paper painted over a `gap`-pixel stretch of its top
    /// side at `gapAt` of the way along, and three strokes inside standing for digits (the
    /// first touching the top from inside); the image and the box's drawn corners.
    func brokenBox(length: Double, thickness: Double, gap: Double, gapAt: Double,
                   degrees: Double) -> (image: GrayImage, corners: [Point]) {
        let width = Int(length) + 120, height = Int(length / 5) + 160
        let cx = Double(width) / 2, cy = Double(height) / 2
        let corners = TestImages.rotatedRectangle(cx: cx, cy: cy, w: length, h: length / 5, degrees: degrees)
        var image = TestImages.strokedOutline(corners, thickness: thickness, width: width, height: height)
        let a = degrees * .pi / 180
        let along = Point(cos(a), sin(a)), down = Point(-sin(a), cos(a))
        func at(_ u: Double, _ v: Double) -> Point {   // u along the box from its middle, v down
            Point(cx + u * along.x + v * down.x, cy + u * along.y + v * down.y)
        }
        // digits: strokes a third of the box high, the first hanging from the top side
        let h = length / 5
        for (u, v0, v1) in [(-0.3, -0.5, -0.1), (0.0, -0.25, 0.25), (0.25, -0.2, 0.3)] {
            let stroke = [at(u * length, v0 * h), at(u * length, v1 * h)]
            for y in 0..<height {
                for x in 0..<width where TestImages.distance(Point(Double(x), Double(y)), toSegment: stroke[0], stroke[1])
                    <= max(1, thickness) { image[x, y] = 20 }
            }
        }
        // the gap: paper over the top side's stretch
        let middle = at((gapAt - 0.5) * length, -h / 2)
        for y in 0..<height {
            for x in 0..<width {
                let d = Point(Double(x) - middle.x, Double(y) - middle.y)
                if abs(d.x * along.x + d.y * along.y) <= gap / 2, abs(d.x * down.x + d.y * down.y) <= 2 * thickness {
                    image[x, y] = 235
                }
            }
        }
        return (image, corners)
    }

    func quadNear(_ corners: [Point], in image: GrayImage, within tolerance: Double) -> Quadrilateral? {
        QuadDetector().detect(in: image).map(\.quad).first { quad in
            zip(quad.corners, corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
        }
    }

    @Test("A box with a gap in its line is found at its corners",
          arguments: [(240.0, 1.5, 6.0, 0.7, 0.0), (320, 2, 6, 0.3, 4), (320, 2, 12, 0.3, 4), (480, 2, 10, 0.55, -6), (480, 2, 20, 0.55, -6), (640, 3, 14, 0.8, 2)])
    func brokenBoxFound(length: Double, thickness: Double, gap: Double, gapAt: Double, degrees: Double) {
        let box = brokenBox(length: length, thickness: thickness, gap: gap, gapAt: gapAt, degrees: degrees)
        let quad = quadNear(box.corners, in: box.image, within: 0.02 * length + thickness)
        #expect(quad != nil, "\(QuadDetector().detect(in: box.image).map(\.quad.corners))")
    }

    @Test("A bracket of three sides (the fourth missing) is no box", arguments: [240.0, 480])
    func bracketIgnored(length: Double) {
        let h = length / 5
        let open = [Point(60 + length, 80), Point(60, 80), Point(60, 80 + h), Point(60 + length, 80 + h)]
        var image = GrayImage(width: Int(length) + 120, height: Int(h) + 160, fill: 235)
        let lines = TestImages.strokedOutline(open, thickness: 2, width: image.width, height: image.height)
        // the polyline closes back to its start: keep the three sides, not the closing one
        for y in 0..<image.height {
            for x in 0..<image.width where lines[x, y] < 128 && Double(x) < 58 + length { image[x, y] = 20 }
        }
        #expect(quadNear([open[1], open[0], open[3], open[2]], in: image, within: 0.1 * length) == nil,
                "\(QuadDetector().detect(in: image).map(\.quad.corners))")
    }

    @Test("A strip of table cells whose outer line broke is no box: ruling crosses it", arguments: [3, 5])
    func dividedStripIgnored(cells: Int) {
        let cell = 60.0, x0 = 60.0, y0 = 80.0
        let length = cell * Double(cells)
        let corners = [Point(x0, y0), Point(x0 + length, y0), Point(x0 + length, y0 + cell), Point(x0, y0 + cell)]
        var image = TestImages.strokedOutline(corners, thickness: 2, width: Int(length) + 120, height: Int(cell) + 160)
        for k in 1..<cells {   // the lines between the cells
            let x = Int(x0 + cell * Double(k))
            for y in Int(y0)...Int(y0 + cell) { image[x, y] = 20; image[x + 1, y] = 20 }
        }
        // a gap in the top line over each cell but the last, so no cell but the last is closed
        for k in 0..<(cells - 1) {
            let gx = Int(x0 + cell * (Double(k) + 0.5))
            for y in Int(y0) - 3...Int(y0) + 3 { for x in gx - 4...gx + 4 { image[x, y] = 235 } }
        }
        let quads = QuadDetector().detect(in: image).map(\.quad)
        // the strip's outline would hold the middle of its first two cells
        let strip = quads.filter { $0.contains(Point(x0 + 0.5 * cell, y0 + 0.5 * cell)) && $0.contains(Point(x0 + 1.5 * cell, y0 + 0.5 * cell)) }
        #expect(strip.isEmpty, "\(strip.map(\.corners))")
    }

    @Test("A ruling line across a quad divides it; glyphs standing clear of one side do not")
    func dividedAcross() {
        var binary = BinaryImage(width: 200, height: 60, bits: [UInt8](repeating: 0, count: 200 * 60))
        let quad = Quadrilateral(topLeft: Point(10, 10), topRight: Point(190, 10), bottomRight: Point(190, 50),
                                 bottomLeft: Point(10, 50))
        // a glyph from the top down to 8 px above the bottom
        for y in 10...42 { binary.bits[y * 200 + 60] = 1 }
        let byGlyph = QuadDetector.isDividedAcross(quad, in: binary)
        #expect(!byGlyph)
        // a ruling line, two pixels aslant over its height, with a one-pixel break
        for y in 10...50 where y != 30 { binary.bits[y * 200 + 120 + (y - 10) / 20] = 1 }
        let byLine = QuadDetector.isDividedAcross(quad, in: binary)
        #expect(byLine)
    }
}
