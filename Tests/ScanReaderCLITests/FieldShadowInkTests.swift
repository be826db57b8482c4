import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A hard shadow's edge across a field: its ink is the strokes, not a band along the edge.
@Suite("A field's ink across a shadow's edge")
struct FieldShadowInkTests {
    /// A 400 × 120 field, paper 215 right of x = 200 and `shade` left of it, with a bar
    /// 8 px wide and 60 tall on each side (ink 40 in the light, 25 in the shade), and a
    /// marker's bar 24 px wide in the light.
    func field(shade: UInt8) -> GrayImage {
        var g = GrayImage(width: 400, height: 120, fill: 215)
        for y in 0..<120 { for x in 0..<200 { g[x, y] = shade } }
        for y in 30..<90 {
            for x in 80..<88 { g[x, y] = 25 }
            for x in 300..<308 { g[x, y] = 40 }
            for x in 340..<364 { g[x, y] = 40 }
        }
        return g
    }

    func inked(_ b: BinaryImage, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x where b.bits[yy * b.width + xx] != 0 { n += 1 } }
        return n
    }

    @Test("No ink along the shadow's edge; the strokes on both sides are ink", arguments: [UInt8(110), 140, 170])
    func noBandAlongEdge(shade: UInt8) {
        let g = field(shade: shade)
        let ink = Layout.fieldInk(Layout.inkLevels(of: g).ink, of: g)
        // the strip along the edge's dark side, above and below the bars' rows too
        #expect(inked(ink, x: 150..<200, y: 0..<120) == 0)
        #expect(inked(ink, x: 82..<86, y: 40..<80) == 4 * 40)
        #expect(inked(ink, x: 302..<306, y: 40..<80) == 4 * 40)
        // a stroke a fifth of the field's height wide is not hollowed
        #expect(inked(ink, x: 342..<362, y: 40..<80) == 20 * 40)
    }

    @Test("Control: the local mean alone makes a band of ink along the edge", arguments: [UInt8(110), 140])
    func meanAloneMakesBand(shade: UInt8) {
        let ink = Layout.ink(of: field(shade: shade))
        #expect(inked(ink, x: 150..<200, y: 0..<120) > 500)
    }
}
