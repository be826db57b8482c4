import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// Corners found on a reduced working image are reported in full-resolution pixels.
@Suite("Reported corners")
struct ReportedCornersTests {
    @Test("A working pixel's centre maps to the centre of the block of pixels it stands for")
    func pixelCentres() {
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(99, 0), bottomRight: Point(99, 49),
                                 bottomLeft: Point(0, 49))
        let gray = GrayImage(width: 100, height: 50, fill: 255)
        let region = LaidOutRegion(kind: .field, quad: quad, gray: gray, binary: gray.binarized(), ruling: nil)
        let result = ReadRegion(region: region, pieces: []).result(index: 0, scale: 4, minConfidence: 0.5, unsure: "?")
        // working pixel 0 covers full pixels 0…3 (centre 1.5); pixel 99 covers 396…399
        #expect(result.corners == [[1.5, 1.5], [397.5, 1.5], [397.5, 197.5], [1.5, 197.5]])
        let unscaled = ReadRegion(region: region, pieces: []).result(index: 0, scale: 1, minConfidence: 0.5, unsure: "?")
        #expect(unscaled.corners == [[0, 0], [99, 0], [99, 49], [0, 49]])
    }

    @Test("A note whose outline is the paper below it is reported at its own edge; plain paper at its outline")
    func noteOnPaperBelow() {
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(299, 0), bottomRight: Point(299, 299),
                                 bottomLeft: Point(0, 299))
        // the note's right edge at x = 280, its shadow 3 px, the paper below to the side
        var gray = GrayImage(width: 300, height: 300, fill: 230)
        for y in 0..<300 { for x in 280..<300 { gray[x, y] = x < 283 ? 165 : 212 } }
        let region = LaidOutRegion(kind: .field, quad: quad, gray: gray, binary: gray.binarized(), ruling: nil)
        let corners = ReadRegion(region: region, pieces: []).result(index: 0, scale: 1, minConfidence: 0.5, unsure: "?").corners
        #expect(abs(corners[1][0] - 280) <= 3 && abs(corners[2][0] - 280) <= 3, "\(corners)")
        #expect(corners[0] == [0, 0] && corners[3] == [0, 299])
    }

    /// A straightened 200×96 box whose frame line is `line` pixels wide on every side,
    /// starting `inset` pixels in from the edge (the quad on a blurred line's outer flank),
    /// with a digit-like bar touching the top edge at one place.
    static func framedBox(line: Int, inset: Int = 0, lineGrey: UInt8 = 20) -> GrayImage {
        var g = GrayImage(width: 200, height: 96, fill: 240)
        for y in 0..<96 {
            for x in 0..<200 {
                let fromEdge = min(x, y, 199 - x, 95 - y)
                if fromEdge >= inset && fromEdge < inset + line { g[x, y] = lineGrey }
            }
        }
        for y in 0..<40 { for x in 90..<100 { g[x, y] = 20 } }
        return g
    }

    @Test("A box's line middle is measured from the edges in, per side, also where the ink starts a little inside the edge; a digit touching one edge does not move it",
          arguments: [(2, 0), (4, 0), (7, 0), (4, 1), (4, 2), (6, 3)])
    func frameMiddles(_ line: Int, _ inset: Int) {
        let ink = Self.framedBox(line: line, inset: inset).binarized()
        let (top, right, bottom, left) = ReadRegion.frameMiddles(ink)
        #expect([top, right, bottom, left] == Array(repeating: Double(inset) + Double(line) / 2, count: 4))
        // paper with no line at its edges
        let blank = GrayImage(width: 200, height: 100, fill: 240).binarized()
        let (t, r, b, l) = ReadRegion.frameMiddles(blank)
        #expect([t, r, b, l] == [0, 0, 0, 0])
    }

    @Test("Ink further in than it is wide (a digit near the edge, a line well inside the quad) is not the edge's line",
          arguments: [(2, 3), (3, 6)])
    func inkAwayFromEdge(_ line: Int, _ inset: Int) {
        let ink = Self.framedBox(line: line, inset: inset).binarized()
        let (top, right, bottom, left) = ReadRegion.frameMiddles(ink)
        #expect([top, right, bottom, left] == [0, 0, 0, 0])
    }

    @Test("A field found as a drawn frame's outer edge is reported at the middle of its line, also a faint line the field's ink misses; paper is not moved",
          arguments: [UInt8(20), 200])
    func fieldAtLineMiddle(lineGrey: UInt8) {
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(200, 0), bottomRight: Point(200, 96),
                                 bottomLeft: Point(0, 96))
        let g = Self.framedBox(line: 4, lineGrey: lineGrey)
        var region = LaidOutRegion(kind: .field, quad: quad, gray: g, binary: Layout.ink(of: g), ruling: nil)
        if lineGrey > 100 { #expect(ReadRegion.frameMiddles(region.binary) == (0, 0, 0, 0)) }   // the faint case
        region.hasDrawnFrame = true
        let framed = ReadRegion(region: region, pieces: []).result(index: 0, scale: 1, minConfidence: 0.5, unsure: "?")
        // half the 4 px line in from each side of the quad (which spans 0…200 over 200 pixels)
        #expect(framed.corners == [[2, 2], [198, 2], [198, 94], [2, 94]])
        region.hasDrawnFrame = false
        let paper = ReadRegion(region: region, pieces: []).result(index: 0, scale: 1, minConfidence: 0.5, unsure: "?")
        #expect(paper.corners == [[0, 0], [200, 0], [200, 96], [0, 96]])
    }
}
