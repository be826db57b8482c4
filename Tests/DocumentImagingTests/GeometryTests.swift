import DocumentImaging
import Foundation
import ImagingCore
import Testing

@Suite("Contours, corner ordering, homography and warp")
struct GeometryTests {
    @Test("Border following finds an outer border and its hole, nested")
    func contourHierarchy() {
        // 7x7: a ring of ink (5x5 outer, 3x3 hole) with a single ink pixel in the hole
        var bits = [UInt8](repeating: 0, count: 49)
        for y in 1...5 { for x in 1...5 where x == 1 || x == 5 || y == 1 || y == 5 { bits[y * 7 + x] = 1 } }
        bits[3 * 7 + 3] = 1
        let contours = BinaryImage(width: 7, height: 7, bits: bits).contours()
        #expect(contours.count == 3)
        #expect(contours[0].isHole == false && contours[0].parent == nil && contours[0].points.count == 16)
        #expect(contours[1].isHole == true && contours[1].parent == 0)
        #expect(contours[2].isHole == false && contours[2].parent == 1 && contours[2].points == [Point(3, 3)])
    }

    @Test("Corner ordering is right at every angle, including 45° where x+y / x−y ordering breaks",
          arguments: Array(stride(from: 0.0, to: 360.0, by: 5.0)))
    func ordering(_ degrees: Double) {
        let corners = TestImages.rotatedRectangle(cx: 0, cy: 0, w: 200, h: 100, degrees: degrees)
        for shuffle in [[0, 1, 2, 3], [2, 0, 3, 1], [3, 2, 1, 0]] {
            let quad = Quadrilateral(ordering: shuffle.map { corners[$0] })
            // clockwise on screen, top edge within ±45° of left-to-right
            #expect(Polygon.signedArea(quad.corners) > 0)
            let angle = atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / .pi
            #expect(angle >= -45.0001 && angle <= 45.0001, "\(degrees)°: top edge at \(angle)°")
            // the top-left corner is the one a reader would call so: above the centre's
            // horizontal through the top edge, left of the top-right
            #expect(quad.topLeft.x <= quad.topRight.x + 1e-9)
        }
    }

    @Test("Ordering by x+y and x−y names one corner twice at some angles; ours never does")
    func sumDifferenceTrickFails() {
        var trickFailures = 0
        for degrees in 0..<360 {
            let c = TestImages.rotatedRectangle(cx: 0, cy: 0, w: 200, h: 60, degrees: Double(degrees))
            let trick = [c.min { $0.x + $0.y < $1.x + $1.y }!, c.max { $0.x - $0.y < $1.x - $1.y }!,
                         c.max { $0.x + $0.y < $1.x + $1.y }!, c.min { $0.x - $0.y < $1.x - $1.y }!]
            if Set(trick).count < 4 { trickFailures += 1 }
            let quad = Quadrilateral(ordering: c)
            #expect(Set(quad.corners).count == 4, "\(degrees)°")
        }
        #expect(trickFailures > 0)
    }

    @Test("Homography round trips within 1e-6")
    func homographyRoundTrip() throws {
        let src = [Point(10, 20), Point(400, 35), Point(390, 300), Point(25, 280)]
        let dst = [Point(0, 0), Point(500, 0), Point(500, 400), Point(0, 400)]
        let h = try #require(Homography(mapping: src, to: dst))
        let inverse = try #require(h.inverted)
        for (s, d) in zip(src, dst) {
            #expect(Polygon.distance(h.apply(s), d) < 1e-6)
            #expect(Polygon.distance(inverse.apply(d), s) < 1e-6)
        }
        for p in [Point(100, 100), Point(300, 250), Point(-50, 700)] {
            #expect(Polygon.distance(inverse.apply(h.apply(p)), p) < 1e-6)
        }
    }

    @Test("Degenerate corners give no homography")
    func degenerate() {
        let collinear = [Point(0, 0), Point(1, 1), Point(2, 2), Point(3, 3)]
        let square = [Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 1)]
        #expect(Homography(mapping: collinear, to: square) == nil)
        #expect(Homography(mapping: [Point(5, 5), Point(5, 5), Point(5, 5), Point(5, 5)], to: square) == nil)
        let image = GrayImage(width: 10, height: 10, fill: 0)
        let flat = Quadrilateral(topLeft: Point(0, 0), topRight: Point(1, 1), bottomRight: Point(2, 2), bottomLeft: Point(3, 3))
        #expect(image.rectified(flat, width: 4, height: 4) == nil)
    }

    @Test("Warping a checkerboard's own corners reproduces it exactly")
    func checkerboardIdentity() throws {
        var board = GrayImage(width: 40, height: 40)
        for y in 0..<40 { for x in 0..<40 { board[x, y] = ((x / 10) + (y / 10)) % 2 == 0 ? 0 : 255 } }
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(39, 0), bottomRight: Point(39, 39), bottomLeft: Point(0, 39))
        // corners at pixel centres 0…39 span 39 pixels; a 39-wide output samples between
        let out = try #require(board.rectified(quad, width: 40, height: 40))
        // the mapping is a pure scale of 39/40 about the centres: every cell's interior keeps its colour
        for y in 0..<40 { for x in 0..<40 where x % 10 > 1 && x % 10 < 8 && y % 10 > 1 && y % 10 < 8 {
            #expect(out[x, y] == board[x, y], "(\(x), \(y))")
        } }
    }

    @Test("Rectifying a perspective view of a checkerboard recovers its cells")
    func checkerboardPerspective() throws {
        // a 4x4 checkerboard of 50 px cells, seen through a known homography
        let square = [Point(0, 0), Point(200, 0), Point(200, 200), Point(0, 200)]
        let seen = [Point(60, 40), Point(330, 70), Point(300, 290), Point(40, 250)]
        let toBoard = try #require(Homography(mapping: seen, to: square))
        var photo = GrayImage(width: 360, height: 320, fill: 128)
        for y in 0..<320 { for x in 0..<360 {
            let p = toBoard.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
            guard p.x >= 0, p.y >= 0, p.x < 200, p.y < 200 else { continue }
            photo[x, y] = (Int(p.x / 50) + Int(p.y / 50)) % 2 == 0 ? 0 : 255
        } }
        let quad = Quadrilateral(ordering: seen.map { Point($0.x - 0.5, $0.y - 0.5) })
        let out = try #require(photo.rectified(quad, width: 200, height: 200))
        // sample each cell's centre region: the colour must match the board
        for cy in 0..<4 { for cx in 0..<4 {
            let expected: UInt8 = (cx + cy) % 2 == 0 ? 0 : 255
            for (dx, dy) in [(15, 15), (35, 15), (25, 25), (15, 35), (35, 35)] {
                let v = out[cx * 50 + dx, cy * 50 + dy]
                #expect(abs(Int(v) - Int(expected)) <= 40, "cell (\(cx), \(cy)) at +\(dx),+\(dy): \(v)")
            }
        } }
    }

    @Test("Rectified size keeps the aspect of the longer sides")
    func rectifiedSize() {
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(300, 0), bottomRight: Point(290, 100), bottomLeft: Point(10, 110))
        #expect(quad.rectifiedSize.width == 300 && quad.rectifiedSize.height == 110)
    }

    @Test("Otsu separates two grey levels")
    func otsu() {
        let image = GrayImage(width: 4, height: 1, pixels: [30, 40, 200, 210])
        let t = image.otsuThreshold()
        #expect(t > 40 && t <= 200)
        #expect(image.binarized(.otsu).bits == [1, 1, 0, 0])
    }

    @Test("Adaptive thresholds keep dark text under a shadow as ink and the shadowed paper as paper",
          arguments: [BinarizationMethod.localMean(), .sauvola()])
    func shadow(_ method: BinarizationMethod) {
        // paper 220 on the left, shadowed paper 90 on the right; a 3-px ink bar in each half
        var image = GrayImage(width: 120, height: 60, fill: 220)
        for y in 0..<60 { for x in 60..<120 { image[x, y] = 90 } }
        for y in 20..<40 { for x in 28..<31 { image[x, y] = 40 } ; for x in 88..<91 { image[x, y] = 20 } }
        let b = image.binarized(method)
        #expect(b.isInk(29, 30) && b.isInk(89, 30))
        #expect(!b.isInk(10, 10) && !b.isInk(110, 10))
    }
}

@Suite("Convex hull")
struct ConvexHullTests {
    @Test("Pixel coordinates (column extremes) and any coordinates (sorting) give the same hull")
    func twoPaths() {
        var state: UInt32 = 99
        func next(_ n: Int) -> Double {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Double(Int(state >> 8) % n)
        }
        for trial in 0..<20 {
            let points = (0..<(5 + trial * 7)).map { _ in Point(next(40), next(30)) }
            let onPixels = Polygon.convexHull(points)
            let shifted = Polygon.convexHull(points.map { Point($0.x + 0.25, $0.y) })
            #expect(onPixels == shifted.map { Point($0.x - 0.25, $0.y) }, "trial \(trial)")
            #expect(Polygon.isConvex(onPixels) || onPixels.count < 3)
        }
    }
}

@Suite("Quads: nested, touching the border, none")
struct QuadCasesTests {
    @Test("Nested outlined boxes keep their nesting")
    func nested() {
        var image = TestImages.outlinedPolygon([Point(20, 20), Point(380, 20), Point(380, 280), Point(20, 280)], thickness: 4, width: 400, height: 300)
        let inner = TestImages.outlinedPolygon([Point(100, 100), Point(250, 100), Point(250, 200), Point(100, 200)], thickness: 3, width: 400, height: 300)
        for i in image.pixels.indices { image.pixels[i] = min(image.pixels[i], inner.pixels[i]) }
        let quads = QuadDetector().detect(in: image)
        #expect(quads.count == 2)
        #expect(quads.first?.parent == nil)
        #expect(quads.last?.parent == 0)
        #expect(abs(quads.last!.quad.topLeft.x - 100) < 2 && abs(quads.last!.quad.topLeft.y - 100) < 2)
    }

    @Test("A quad touching the image border is still found")
    func touchingBorder() throws {
        // a box drawn with 4-px lines whose left side lies on the image's left edge
        let corners = [Point(0, 30), Point(250, 10), Point(270, 200), Point(0, 220)]
        let image = TestImages.outlinedPolygon(corners, thickness: 4, width: 300, height: 240)
        let quad = try #require(QuadDetector().detect(in: image).first).quad
        for c in corners { #expect(quad.corners.map { Polygon.distance($0, c) }.min()! < 2.5, "\(quad.corners)") }
    }

    @Test("No quad in a blank page or in a round blob")
    func none() {
        #expect(QuadDetector().detect(in: GrayImage(width: 200, height: 200, fill: 230)).isEmpty)
        var blob = GrayImage(width: 200, height: 200, fill: 230)
        for y in 0..<200 { for x in 0..<200 where (x - 100) * (x - 100) + (y - 100) * (y - 100) < 3600 { blob[x, y] = 20 } }
        #expect(QuadDetector().detect(in: blob).isEmpty)
    }
}

@Suite("A quad's widest gap inside another")
struct WidestGapTests {
    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    @Test("An inside within a rim stays near every side; a half cut across leaves the other half; turned, the same")
    func gaps() {
        let outer = Self.box(0, 0, 400, 80)
        #expect(abs(Self.box(4, 4, 396, 76).widestGap(inside: outer) - 4) < 1e-9)
        #expect(abs(Self.box(4, 4, 200, 76).widestGap(inside: outer) - 200) < 1e-9)
        #expect(abs(outer.widestGap(inside: outer)) < 1e-9)
        // the same pair turned 30° about the origin
        let (c, s) = (cos(Double.pi / 6), sin(Double.pi / 6))
        func turned(_ q: Quadrilateral) -> Quadrilateral {
            let t = q.corners.map { Point($0.x * c - $0.y * s, $0.x * s + $0.y * c) }
            return Quadrilateral(topLeft: t[0], topRight: t[1], bottomRight: t[2], bottomLeft: t[3])
        }
        #expect(abs(turned(Self.box(4, 4, 200, 76)).widestGap(inside: turned(outer)) - 200) < 1e-9)
    }
}
