import DocumentImaging
import ImagingCore
import Testing

/// The grey-level closing (`GrayImage.closed`) and the ink measured against it
/// (`BinarizationMethod.belowClosing`) on literal images.
@Suite("Closing and ink below it")
struct ClosingTests {
    /// The closing by brute force: the maximum over each clipped rectangle, then the
    /// minimum of those over the same rectangles.
    static func bruteClosing(_ g: GrayImage, _ kx: Int, _ ky: Int) -> [UInt8] {
        let rx = (kx - 1) / 2, ry = (ky - 1) / 2
        func pass(_ p: [UInt8], _ pick: (UInt8, UInt8) -> UInt8) -> [UInt8] {
            var out = p
            for y in 0..<g.height {
                for x in 0..<g.width {
                    var v = p[y * g.width + x]
                    for yy in max(0, y - ry)...min(g.height - 1, y + ry) {
                        for xx in max(0, x - rx)...min(g.width - 1, x + rx) { v = pick(v, p[yy * g.width + xx]) }
                    }
                    out[y * g.width + x] = v
                }
            }
            return out
        }
        return pass(pass(g.pixels, max), min)
    }

    @Test("The closing equals the brute-force one on a random image, for odd and even sizes",
          arguments: [(3, 3), (5, 9), (8, 4), (1, 7), (31, 31)])
    func matchesBruteForce(size: (Int, Int)) {
        var state: UInt32 = 17
        let g = GrayImage(width: 37, height: 23, pixels: (0..<(37 * 23)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        })
        #expect(g.closed(width: size.0, height: size.1).pixels == Self.bruteClosing(g, size.0, size.1))
    }

    @Test("Degenerate images: empty, one pixel, one row; windows larger than the image")
    func degenerate() {
        #expect(GrayImage(width: 0, height: 0, pixels: []).closed(width: 5, height: 5).pixels.isEmpty)
        #expect(GrayImage(width: 1, height: 1, pixels: [7]).closed(width: 5, height: 5).pixels == [7])
        let row = GrayImage(width: 5, height: 1, pixels: [9, 1, 9, 1, 9])
        #expect(row.closed(width: 3, height: 3).pixels == Self.bruteClosing(row, 3, 3))
        #expect(row.closed(width: 31, height: 31).pixels == Self.bruteClosing(row, 31, 31))
        #expect(GrayImage(width: 1, height: 1, pixels: [7]).binarized(.belowClosing(window: 9, percent: 15)).bits == [0])
    }

    @Test("A line narrower than the window is filled with the paper; a step between two wide areas stays where it is")
    func fillsStrokesKeepsSteps() {
        var g = GrayImage(width: 120, height: 80, fill: 200)
        for y in 0..<80 { for x in 60..<120 { g[x, y] = 100 } }   // a shade over the right half
        for y in 10..<70 { for x in 30..<33 { g[x, y] = 20 } }    // a 3-px stroke on the light side
        for y in 10..<70 { for x in 90..<93 { g[x, y] = 10 } }    // and one in the shade
        let c = g.closed(width: 9, height: 9)
        #expect(c[31, 40] == 200 && c[91, 40] == 100)
        #expect((0..<80).allSatisfy { y in c[59, y] == 200 && c[60, y] == 100 })
    }

    @Test("A page under a hard shadow: the local mean inks a band along the shadow's edge, ink below the closing does not")
    func noBandAlongAShadow() {
        var g = GrayImage(width: 400, height: 300, fill: 210)
        for y in 0..<300 { for x in 0..<400 where Double(x) > 150 + 0.5 * Double(y) { g[x, y] = 95 } }
        let window = 400 / 12
        let mean = g.binarized(.localMean(window: window, percent: 15))
        let closing = g.binarized(.belowClosing(window: window, percent: 15))
        // the band: pixels on the shade's side within a few pixels of the edge
        func band(_ b: BinaryImage) -> Int {
            (20..<280).reduce(0) { n, y in
                let edge = Int(150 + 0.5 * Double(y))
                return n + (edge + 2..<edge + 8).filter { b.isInk($0, y) }.count
            }
        }
        #expect(band(mean) > 500)
        #expect(band(closing) == 0)
        // a stroke on either side is ink in both
        var s = g
        for y in 100..<160 { for x in 60..<64 { s[x, y] = 30 }; for x in 330..<334 { s[x, y] = 20 } }
        let inked = s.binarized(.belowClosing(window: window, percent: 15))
        #expect(inked.isInk(62, 130) && inked.isInk(332, 130))
    }
}
