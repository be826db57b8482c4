@testable import DocumentImaging
import ImagingCore
import Testing

/// A drawn line is darker than the paper on both sides; the edge of a dark area is not.
@Suite("Drawn lines against the edges of dark areas")
struct DrawnLinesTests {
    /// 100 × 60 paper at 220: a 3 px line (40) down columns 30…32, and from column 70 on a
    /// dark area (60); the ink is whatever is darker than 150.
    func lines() -> DrawnLines {
        var g = GrayImage(width: 100, height: 60, fill: 220)
        for y in 0..<60 {
            for x in 30..<33 { g[x, y] = 40 }
            for x in 70..<100 { g[x, y] = 60 }
        }
        let bits = g.pixels.map { $0 < 150 ? UInt8(1) : 0 }
        return DrawnLines(gray: g, ink: BinaryImage(width: 100, height: 60, bits: bits), reach: 2)
    }

    @Test("Inked shares: the line's column wholly, a paper column not at all, a row across the line in part")
    func shares() {
        let d = lines()
        #expect(d.inkedShare(at: 31, vertical: true, from: 0, to: 60) == 1)
        #expect(d.inkedShare(at: 50, vertical: true, from: 0, to: 60) == 0)
        #expect(abs(d.inkedShare(at: 10, vertical: false, from: 0, to: 60, within: 0) - 3.0 / 60) < 1e-9)
    }

    @Test("The line is a drawn line; the dark area's edge, inked as much, is not; nor is paper")
    func lineOrEdge() {
        let d = lines()
        #expect(d.isLine(at: 31, vertical: true, from: 0, to: 60, inked: 0.9, contrastPercent: 15))
        #expect(d.inkedShare(at: 70, vertical: true, from: 0, to: 60) == 1)
        #expect(!d.isLine(at: 70, vertical: true, from: 0, to: 60, inked: 0.9, contrastPercent: 15))
        #expect(!d.isLine(at: 50, vertical: true, from: 0, to: 60, inked: 0, contrastPercent: 15))
    }
}
