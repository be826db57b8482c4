@testable import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// Frames spoiled the way real photos spoil them: ink touching them, a corner too faint
/// to trace, ruling with a margin or a faint line.
@Suite("Quads and rulings despite touching ink, lost corners and faint lines")
struct RobustQuadTests {
    let corners = [Point(60, 50), Point(340, 60), Point(330, 250), Point(70, 240)]

    func darken(_ image: inout GrayImage, where test: (Int, Int) -> Bool) {
        for y in 0..<image.height { for x in 0..<image.width where test(x, y) { image[x, y] = 20 } }
    }

    func expectCorners(_ image: GrayImage, within tolerance: Double) throws {
        let quad = try #require(QuadDetector().detect(in: image).first).quad
        for (found, truth) in zip(quad.corners, corners) {
            #expect(Polygon.distance(found, truth) < tolerance, "\(quad.corners)")
        }
    }

    @Test("A fold line running from the frame to the photo's edge does not move the corners")
    func foldLine() throws {
        var image = TestImages.outlinedPolygon(corners, thickness: 4, width: 400, height: 300)
        darken(&image) { x, y in x >= 330 && abs(Double(y) - 150) < 1.5 }        // to the right edge
        try expectCorners(image, within: 2.5)
    }

    @Test("A caption touching a corner does not move it")
    func captionAtCorner() throws {
        var image = TestImages.outlinedPolygon(corners, thickness: 4, width: 400, height: 300)
        darken(&image) { x, y in x >= 40 && x < 110 && y >= 238 && y < 262 }       // a blob below-left
        try expectCorners(image, within: 2.5)
    }

    @Test("A shadow swallowing a corner does not pull the quad out to it")
    func shadowOverCorner() throws {
        var image = TestImages.outlinedPolygon(corners, thickness: 4, width: 400, height: 300)
        // a round dark blob over the bottom-right corner, running off the photo
        darken(&image) { x, y in
            let dx = Double(x) - 375, dy = Double(y) - 285
            return dx * dx + dy * dy < 60 * 60
        }
        try expectCorners(image, within: 2.5)
    }

    @Test("A frame bowed outward (lens distortion, a curled page) keeps its corners")
    func bowedFrame() throws {
        // each side bulges 5 px outward at its middle, as a parabola through the corners
        var outline: [Point] = []
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let len = Polygon.distance(a, b), normal = Point((b.y - a.y) / len, -(b.x - a.x) / len)
            for k in 0..<24 {
                let t = Double(k) / 24, bulge = 5 * 4 * t * (1 - t)
                outline.append(Point(a.x + (b.x - a.x) * t + normal.x * bulge, a.y + (b.y - a.y) * t + normal.y * bulge))
            }
        }
        let image = TestImages.outlinedPolygon(outline, thickness: 4, width: 400, height: 300)
        try expectCorners(image, within: 2.5)   // sides fitted whole and extended: 5–7 px out
    }

    @Test("Print a pixel or two beside a frame (joined to it when gaps are closed) does not hide it")
    func printBesideFrame() throws {
        var image = TestImages.outlinedPolygon(corners, thickness: 4, width: 400, height: 300)
        // a block of letters 2 px outside the right side, along its middle half
        darken(&image) { x, y in
            let edge = 340 - Double(y - 60) / 19
            let dx = Double(x) - edge
            return y >= 100 && y < 200 && dx >= 2 && dx < 42 && Int(dx) % 5 < 3 && y % 12 < 10
        }
        // the frame with the block may be a quad too; the frame alone must be one
        let quads = QuadDetector().detect(in: image).map(\.quad.corners)
        #expect(quads.contains { found in zip(found, corners).allSatisfy { Polygon.distance($0, $1) < 2.5 } }, "\(quads)")
    }

    @Test("A grid corner too faint to trace is restored where its sides meet")
    func cutCorner() throws {
        var image = TestImages.outlinedPolygon(corners, thickness: 4, width: 400, height: 300)
        // 3×3 ruling inside, so the frame stays one piece when its corner goes
        func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        for t in [1.0 / 3, 2.0 / 3] {
            for (a, b) in [(lerp(corners[0], corners[1], t), lerp(corners[3], corners[2], t)),
                           (lerp(corners[0], corners[3], t), lerp(corners[1], corners[2], t))] {
                darken(&image) { x, y in
                    let p = Point(Double(x), Double(y))
                    let along = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / pow(Polygon.distance(a, b), 2)
                    return along >= 0 && along <= 1 && Polygon.distance(p, lerp(a, b, along)) < 1.5
                }
            }
        }
        for y in 0..<95 { for x in 0..<120 where Double(x - 60) + Double(y - 50) < 70 { image[x, y] = 235 } }
        try expectCorners(image, within: 3)
    }

    @Test("Removing spikes cuts an out-and-back detour and keeps the shape")
    func spikes() {
        // a 100×100 square traced clockwise with a 2-px-wide spike out of its right side
        var points: [Point] = []
        for x in 0..<100 { points.append(Point(Double(x), 0)) }
        for y in 0..<50 { points.append(Point(100, Double(y))) }
        for x in 100..<160 { points.append(Point(Double(x), 50)) }
        for x in stride(from: 160, to: 100, by: -1) { points.append(Point(Double(x), 52)) }
        for y in 52..<100 { points.append(Point(100, Double(y))) }
        for x in stride(from: 100, to: 0, by: -1) { points.append(Point(Double(x), 100)) }
        for y in stride(from: 100, to: 0, by: -1) { points.append(Point(0, Double(y))) }
        let trimmed = Polygon.removingSpikes(points, neck: 3)
        #expect(trimmed.map(\.x).max()! <= 100.5)
        #expect(trimmed.count > 380 && trimmed.count < points.count)
    }

    @Test("Ruling inside a margin: the outermost lines become the borders")
    func rulingWithMargin() throws {
        let found = (0...9).map { 30 + Double($0) * 100 }     // 30 … 930 in a 1000 px region
        let positions = try #require(RulingFinder.evenDivision(found, length: 1000, maxCells: 30))
        #expect(positions.count == 10)
        #expect(positions.first == 30 && positions.last == 930)
    }

    @Test("One faint line in nine is filled in; two adjacent, or sloppy neighbours, are not")
    func missingLine() throws {
        var found = (1...8).map { Double($0) * 100 }         // 9 cells of 100 px in 900
        found.remove(at: 6)
        let positions = try #require(RulingFinder.evenDivision(found, length: 900, maxCells: 30))
        #expect(positions.count == 10 && positions[7] == 700)
        var twoMissing = (1...8).map { Double($0) * 100 }
        twoMissing.removeSubrange(5...6)
        #expect(RulingFinder.evenDivision(twoMissing, length: 900, maxCells: 30)?.count != 10)
        let sloppy = found.enumerated().map { $0.element + ($0.offset % 2 == 0 ? 12 : -12) }
        #expect(RulingFinder.evenDivision(sloppy, length: 900, maxCells: 30)?.count != 10)
    }

    @Test("Lines known from a grid's parts fill gaps but never count against a division")
    func supportingLines() throws {
        var found = (1...8).map { Double($0) * 100 }
        found.removeSubrange(3...4)                            // a shadow hides two lines
        #expect(RulingFinder.evenDivision(found, length: 900, maxCells: 30)?.count != 10)
        let parts = [398.0, 502.0, 137.0, 655.0]                // two right, two stray
        let positions = try #require(RulingFinder.evenDivision(found, length: 900, maxCells: 30, supporting: parts))
        #expect(positions.count == 10 && positions[4] == 398 && positions[5] == 502)
    }
}
