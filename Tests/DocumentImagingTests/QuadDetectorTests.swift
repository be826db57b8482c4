import DocumentImaging
import Foundation
import ImagingCore
import Testing

@Suite("Quad detection on literal images")
struct QuadDetectorTests {
    @Test("A drawn filled quad is found at its corners, rotated in 15° steps through 360°",
          arguments: Array(stride(from: 0.0, to: 360.0, by: 15.0)))
    func rotatedQuad(_ degrees: Double) throws {
        let corners = TestImages.rotatedRectangle(cx: 200, cy: 150, w: 180, h: 120, degrees: degrees)
        let image = TestImages.filledPolygon(corners, width: 400, height: 300)
        let quads = QuadDetector().detect(in: image)
        let quad = try #require(quads.first).quad
        // every true corner has a detected corner within 1.5 px
        for c in corners {
            #expect(quad.corners.map { Polygon.distance($0, c) }.min()! < 1.5, "\(degrees)°: \(quad.corners)")
        }
        // ordering: the top edge runs left to right within ±45°, corners go clockwise
        let angle = atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / .pi
        #expect(angle >= -45.0001 && angle <= 45.0001, "\(degrees)°: top edge at \(angle)°")
        #expect(Polygon.signedArea(quad.corners) > 0)
    }

    /// A large photo (reduced for detection) of boxes drawn with one-pixel lines of
    /// `lineInk` on paper of 225, the box at (600…1500, 500…1000).
    static func thinBox(lineInk: UInt8, width: Int = 2400, height: Int = 1800) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 225)
        for x in 600...1500 { image[x, 500] = lineInk; image[x, 1000] = lineInk }
        for y in 500...1000 { image[600, y] = lineInk; image[1500, y] = lineInk }
        return image
    }

    @Test("A box of one-pixel faint lines in a photo reduced 3× for detection is found at its corners",
          arguments: [UInt8(120), 150, 175, 190])
    func thinFaintBox(_ lineInk: UInt8) throws {
        let image = Self.thinBox(lineInk: lineInk)
        let quads = QuadDetector().detect(in: image)
        let truth = [Point(600, 500), Point(1500, 500), Point(1500, 1000), Point(600, 1000)]
        let box = try #require(quads.first { q in
            truth.allSatisfy { c in q.quad.corners.contains { Polygon.distance($0, c) < 8 } }
        }, "line ink \(lineInk): \(quads.map(\.quad.corners))")
        #expect(box.parent == nil)
    }

    @Test("The darkest-pixel pass alone finds the faint box; the mean-reduced primary pass alone loses it (control)",
          arguments: [UInt8(150), 190])
    func thinBoxNeedsDarkestPass(_ lineInk: UInt8) {
        // the mean of a 3×3 block holding a 1 px line of 150 on 225 is 200: under the
        // primary threshold's contrast; keeping the block's darkest pixel keeps 150
        var primaryOnly = QuadDetector()
        primaryOnly.keepsThinLines = false
        primaryOnly.tracesRidges = false
        primaryOnly.sensitiveBinarization = nil
        primaryOnly.findsFlatPaper = false
        var withDarkest = primaryOnly
        withDarkest.keepsThinLines = true
        let isBox = { (q: DetectedQuad) in q.quad.area > 300_000 && q.quad.area < 600_000 }
        let image = Self.thinBox(lineInk: lineInk)
        #expect(!primaryOnly.detect(in: image).contains(where: isBox))
        #expect(withDarkest.detect(in: image).contains(where: isBox))
    }

    @Test("The darkest-pixel pass adds no quad around wavy desk stripes joined by a sheet's shadow",
          arguments: [4.0, 8.0])
    func wavyTextureNoQuad(_ amplitude: Double) {
        // a light sheet with a dark shadow rim on a desk of dark wavy vertical stripes,
        // in a photo reduced 2× for detection: the rim joins the stripes into one blob
        let w = 1800, h = 1500
        var image = GrayImage(width: w, height: h, fill: 0)
        for y in 0..<h {
            for x in 0..<w {
                let phase = (Double(x) + amplitude * sin(Double(y) / 15)).truncatingRemainder(dividingBy: 36)
                image[x, y] = phase < 18 ? 60 : 170
                if x >= 440 && x < 1360 && y >= 340 && y < 1160 { image[x, y] = 50 }
                if x >= 452 && x < 1348 && y >= 352 && y < 1148 { image[x, y] = 235 }
            }
        }
        var meanOnly = QuadDetector()
        meanOnly.keepsThinLines = false
        let sheet = 920.0 * 820.0
        let larger = { (quads: [DetectedQuad]) in quads.filter { $0.quad.area > 1.2 * sheet }.count }
        #expect(larger(QuadDetector().detect(in: image)) == larger(meanOnly.detect(in: image)),
                "\(QuadDetector().detect(in: image).prefix(3).map(\.quad.corners))")
    }

    @Test("A frame with a small break, closed only by the sensitive pass's dilation, is found in a reduced photo")
    func brokenFrameClosed() throws {
        var image = GrayImage(width: 2400, height: 1800, fill: 225)
        for x in 600...1500 where !(1000..<1006).contains(x) { for t in 0..<3 { image[x, 500 + t] = 40; image[x, 1000 - t] = 40 } }
        for y in 500...1000 { for t in 0..<3 { image[600 + t, y] = 40; image[1500 - t, y] = 40 } }
        let truth = [Point(600, 500), Point(1500, 500), Point(1500, 1000), Point(600, 1000)]
        let quads = QuadDetector().detect(in: image)
        #expect(quads.contains { q in truth.allSatisfy { c in q.quad.corners.contains { Polygon.distance($0, c) < 10 } } },
                "\(quads.map(\.quad.corners))")
    }

    @Test("A frame lying against a parallel edge (the sheet below): the dilated pass's merged outline is not added")
    func mergedFrameNotAdded() {
        // a box of 3 px lines, and 7 px beyond its right side (2 px once reduced 3×, closed
        // by one dilation) a dark band running its height
        var image = GrayImage(width: 2400, height: 1800, fill: 225)
        for x in 600...1500 { for t in 0..<3 { image[x, 500 + t] = 40; image[x, 1000 - t] = 40 } }
        for y in 500...1000 { for t in 0..<3 { image[600 + t, y] = 40; image[1500 - t, y] = 40 } }
        for y in 500...1000 { for x in 1507..<1700 { image[x, y] = 120 } }
        let quads = QuadDetector().detect(in: image)
        let box = quads.filter { q in [Point(600, 500), Point(1500, 500), Point(1500, 1000), Point(600, 1000)]
            .allSatisfy { c in q.quad.corners.contains { Polygon.distance($0, c) < 10 } } }
        #expect(!box.isEmpty)
        // nothing spanning the box and the band as one outline
        #expect(!quads.contains { !$0.isHole && $0.quad.corners.contains { $0.x > 1600 } && $0.quad.corners.contains { $0.x < 700 } },
                "\(quads.map(\.quad.corners))")
    }

    @Test("A light note on a dark desk is found at its own edge, not at the outside of the dark rim the threshold leaves around it",
          arguments: [1.0, 2.5])
    func noteOnDarkDesk(_ blur: Double) throws {
        // a 600×500 note of 215 on a desk of 45, edges softened over `blur` px
        var image = GrayImage(width: 1600, height: 1200, fill: 45)
        for y in 0..<1200 {
            for x in 0..<1600 {
                let d = min(Double(x) - 500, 1100 - Double(x), Double(y) - 350, 850 - Double(y))
                let t = max(0, min(1, 0.5 + d / (2 * blur)))
                image[x, y] = UInt8(45 + t * 170)
            }
        }
        var detector = QuadDetector()
        detector.findsFlatPaper = false     // the ink passes alone
        let quads = detector.detect(in: image)
        let note = try #require(quads.max { $0.quad.area < $1.quad.area })
        for c in [Point(500, 350), Point(1100, 350), Point(1100, 850), Point(500, 850)] {
            #expect(note.quad.corners.map { Polygon.distance($0, c) }.min()! < 4, "\(note.quad.corners)")
        }
    }

    @Test("Control: a drawn frame on paper keeps its outline (paper on both sides of its line)")
    func frameKeepsOutline() {
        let quads = QuadDetector().detect(in: Self.thinBox(lineInk: 40))
        #expect(quads.contains { !$0.isHole && $0.quad.area > 400_000 })
    }

    /// A comb outlined in a pale hairline (`lineDepth` grey levels below paper of 225,
    /// `line` px wide) from (300, 500) to (1300, 660), holding dark thick 0s that set every
    /// threshold's contrast, softened by a 3 × 3 mean, with ±3 levels of grain.
    static func paleComb(lineDepth: Int, line: Int, width: Int = 1600, height: Int = 1200) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 225)
        let (x0, y0, x1, y1) = (300, 500, 1300, 660)
        for y in y0..<y1 {
            for x in x0..<x1 where x - x0 < line || x1 - 1 - x < line || y - y0 < line || y1 - 1 - y < line {
                image[x, y] = UInt8(225 - lineDepth)
            }
        }
        for k in 0..<10 {   // thick 0s, stroke 14 px, one per 100 px
            let cx = Double(x0 + 50 + 100 * k), cy = Double(y0 + y1) / 2
            for y in (y0 + 30)..<(y1 - 30) {
                for x in (Int(cx) - 30)...(Int(cx) + 30) {
                    let d = pow((Double(x) - cx) / 28, 2) + pow((Double(y) - cy) / 48, 2)
                    if d <= 1 && d >= pow(1 - 14.0 / 28, 2) { image[x, y] = 40 }
                }
            }
        }
        var soft = image
        var state: UInt32 = 77
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(image[x + dx, y + dy]) } }
                state = state &* 1_664_525 &+ 1_013_904_223
                soft[x, y] = UInt8(max(0, min(255, sum / 9 + Int(state >> 24) % 7 - 3)))
            }
        }
        return soft
    }

    @Test("A comb outlined in a pale hairline is found from the ridges; without the ridge pass it is not (control)",
          arguments: [(20, 2), (20, 3), (28, 2)])
    func paleHairlineComb(line: (depth: Int, width: Int)) {
        let image = Self.paleComb(lineDepth: line.depth, line: line.width)
        let truth = [Point(300, 500), Point(1300, 500), Point(1300, 660), Point(300, 660)]
        let isComb = { (q: DetectedQuad) in truth.allSatisfy { c in q.quad.corners.contains { Polygon.distance($0, c) < 10 } } }
        #expect(QuadDetector().detect(in: image).contains(where: isComb))
        var thresholdsOnly = QuadDetector()
        thresholdsOnly.tracesRidges = false
        #expect(!thresholdsOnly.detect(in: image).contains(where: isComb))
    }
}
