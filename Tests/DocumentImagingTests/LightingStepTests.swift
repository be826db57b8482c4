@testable import DocumentImaging
import ImagingCore
import Testing

/// A ruling line against the dark side of a lighting step (`GrayImage.isLightingStep`).
@Suite("Lighting step: a shadow's edge is no ruling line")
struct LightingStepTests {
    /// Paper 210, 300 × 200, with rows from `y` on drawn by `fill(row offset)`.
    func image(_ shade: (Int) -> UInt8?) -> GrayImage {
        var g = GrayImage(width: 300, height: 200, fill: 210)
        for y in 0..<200 { if let v = shade(y - 100) { for x in 0..<300 { g[x, y] = v } } }
        return g
    }

    @Test("A drawn line, thin or thick, has paper on both sides: no step",
          arguments: [(1, 12), (2, 25), (4, 25), (8, 40), (3, 6)])
    func lineIsNoStep(halfWidth: Int, reach: Int) {
        let g = image { abs($0) <= halfWidth ? 40 : nil }
        #expect(!g.isLightingStep(at: 100, horizontal: true, span: 0..<300, reach: reach))
        // the same line upright
        #expect(!g.transposed().isLightingStep(at: 100, horizontal: false, span: 0..<300, reach: reach))
    }

    @Test("A hard shadow's edge, sharp, blurred or with a dark rim, is a step",
          arguments: [UInt8(90), 120, 150])
    func shadowEdgeIsStep(shade: UInt8) {
        let reach = 25
        let sharp = image { $0 >= 0 ? shade : nil }
        #expect(sharp.isLightingStep(at: 100, horizontal: true, span: 0..<300, reach: reach))
        // a ramp over 8 rows
        let blurred = image { d in d < -4 ? nil : d >= 4 ? shade : UInt8(210 - (210 - Int(shade)) * (d + 4) / 8) }
        #expect(blurred.isLightingStep(at: 100, horizontal: true, span: 0..<300, reach: reach))
        // the shade darkest along its edge (where a paper-relative threshold makes a "line")
        let rimmed = image { d in d < 0 ? nil : d < 3 ? shade - 30 : shade }
        #expect(rimmed.isLightingStep(at: 101, horizontal: true, span: 0..<300, reach: reach))
        #expect(rimmed.transposed().isLightingStep(at: 101, horizontal: false, span: 0..<300, reach: reach))
    }

    @Test("Control: a line with digits' strokes beside it on one side, or in shade on both, is a line")
    func lineBesideInkIsLine() {
        var g = image { abs($0) <= 2 ? 40 : nil }
        // upright strokes 4 px wide every 30 px, 10–30 px below the line
        for x in stride(from: 10, to: 300, by: 30) { for y in 110..<130 { for dx in 0..<4 { g[x + dx, y] = 40 } } }
        #expect(!g.isLightingStep(at: 100, horizontal: true, span: 0..<300, reach: 25))
        let shaded = image { abs($0) <= 2 ? 20 : 120 }
        #expect(!shaded.isLightingStep(at: 100, horizontal: true, span: 0..<300, reach: 25))
    }
}

extension GrayImage {
    /// The image mirrored about its diagonal (rows become columns).
    func transposed() -> GrayImage {
        var t = GrayImage(width: height, height: width, fill: 0)
        for y in 0..<height { for x in 0..<width { t[y, x] = self[x, y] } }
        return t
    }
}
