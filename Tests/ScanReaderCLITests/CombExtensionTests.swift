import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A comb whose outline was found a box short is extended over the boxes the photo shows
/// past its ends, and only over drawn boxes.
@Suite("Comb extended past its found outline")
struct CombExtensionTests {
    /// A 500 × 160 photo (paper at 228) holding a comb of boxes `pitch` px wide between
    /// x = `start` and 450 (frame rows 50…110, 3 px lines): the frame drawn from `frameFrom`
    /// (default `start`), the dividers every `pitch` px; with `desk`, the photo left of x = 52
    /// is dark (a sheet's edge one pitch before the comb's found start).
    func photo(start: Int, pitch: Int = 80, frameFrom: Int? = nil, desk: Bool = false) -> GrayImage {
        var image = GrayImage(width: 500, height: 160, fill: 228)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ v: UInt8 = 30) {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = v } }
        }
        if desk { paint(0, 0, 52, 160, 60) }
        let from = frameFrom ?? start
        paint(from, 50, 450, 53); paint(from, 107, 450, 110)
        for x in stride(from: start, through: 450, by: pitch) { paint(x, 50, x + 3, 110) }
        return image
    }

    /// The regions laid out from one detected quad: the comb's last four boxes.
    func read(_ image: GrayImage) -> [LaidOutRegion] {
        let quad = Quadrilateral(topLeft: Point(131, 51), topRight: Point(451, 51), bottomRight: Point(451, 108),
                                 bottomLeft: Point(131, 108))
        return Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
    }

    func columns(_ regions: [LaidOutRegion]) -> Int? {
        regions.count == 1 && regions[0].kind == .grid && regions[0].ruling!.rowCount == 1
            ? regions[0].ruling!.columnCount : nil
    }

    @Test("A fifth box drawn before the four outlined: the comb takes it, its quad at the box's line",
          arguments: [80, 70])
    func boxBeforeOutline(pitch: Int) throws {
        // boxes from 450 back by `pitch`: the outlined four start at 130 for pitch 80
        let start = 450 - 5 * pitch
        let image = photo(start: start, pitch: pitch)
        let quad = Quadrilateral(topLeft: Point(Double(450 - 4 * pitch) + 1, 51), topRight: Point(451, 51),
                                 bottomRight: Point(451, 108), bottomLeft: Point(Double(450 - 4 * pitch) + 1, 108))
        let regions = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
        #expect(columns(regions) == 5)
        let left = try #require(regions.first?.quad.topLeft.x)
        #expect(abs(left - Double(start + 1)) < 4, "left edge at \(left), the box's line at \(start + 1)")
    }

    @Test("A fifth box wider than the four outlined (nearer the lens): its line, near the end of the tolerance, is taken",
          arguments: [1.12, 1.18])
    func widerBoxBeforeOutline(widening: Double) throws {
        var image = photo(start: 130)
        // the frame runs on to the wider box's line; the line at 130 stays as the fifth box's right side
        let line = 130 - Int((80 * widening).rounded())
        for y in 0..<160 { for x in 0..<130 { image[x, y] = 228 } }
        for y in 50..<53 { for x in line..<130 { image[x, y] = 30 } }
        for y in 107..<110 { for x in line..<130 { image[x, y] = 30 } }
        for y in 50..<110 { for x in line..<(line + 3) { image[x, y] = 30 } }
        for y in 50..<110 { for x in 130..<133 { image[x, y] = 30 } }
        let quad = Quadrilateral(topLeft: Point(211, 51), topRight: Point(451, 51), bottomRight: Point(451, 108),
                                 bottomLeft: Point(211, 108))
        let regions = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
        // the three outlined boxes, the one at 130 and the wider one
        #expect(columns(regions) == 5)
        let left = try #require(regions.first?.quad.topLeft.x)
        #expect(abs(left - Double(line + 1)) < 4, "left edge at \(left), the box's line at \(line + 1)")
    }

    @Test("A box before the outline whose line a shadow's edge crosses is taken", arguments: [0.5, 0.6])
    func shadowCrossedBoxBeforeOutline(shade: Double) {
        var image = photo(start: 50)
        // pale lines (a quarter darker than the paper), and a shadow over the bottom of the
        // photo left of x = 100, its edge crossing the fifth box's line at 50 half way down
        for y in 0..<160 { for x in 0..<500 where image[x, y] < 100 { image[x, y] = 170 } }
        for y in 80..<160 { for x in 0..<100 { image[x, y] = UInt8(Double(image[x, y]) * shade) } }
        #expect(columns(read(image)) == 5)
    }

    @Test("A box before the outline whose line is broken over a fifth of its height (faint, or touched by its digit) is taken; broken over two fifths, not",
          arguments: [(12, 5), (24, 4)])
    func brokenLineBeforeOutline(gap: Int, boxes: Int) {
        // the fifth box's line at x = 50 runs 50…110 between the frame's lines: a gap of
        // `gap` px in its middle leaves 48 or 36 of its 60 px inked (80 %, 60 %)
        var image = photo(start: 50)
        for y in (80 - gap / 2)..<(80 + gap / 2) { for x in 50..<53 { image[x, y] = 228 } }
        #expect(columns(read(image)) == boxes)
    }

    @Test("Controls: paper before the outline, and a dark area a pitch before it with the frame running to it, add no box")
    func noBoxBeforeOutline() {
        #expect(columns(read(photo(start: 130))) == 4)
        // the frame's lines run to a dark area whose edge lies where a box's line would:
        // an edge with ink all along one side is no drawn line
        #expect(columns(read(photo(start: 130, frameFrom: 52, desk: true))) == 4)
    }
}
