@testable import DocumentImaging
import ImagingCore
import Testing

/// A hard shadow's edge across a drawn table: the local mean on its dark side is raised
/// by the light side, so a band along the edge is ink, joined to the table's lines; the
/// table's outline then runs along the band, and its cells are found one by one. The
/// shadow-free pass traces the table whole, or where the band stays, the ridge pass.
@Suite("A table a shadow's edge crosses is found whole")
struct ShadowCrossedBoxTests {
    /// A 1400 × 1000 sheet (reduced twice for detection) holding a 2 × 6 table from
    /// (200, 350) to (1100, 650), lines 4 px wide, under a shadow darkening everything
    /// below the line y = `edge` + `slope` · x to `shade` of its light, blurred a little.
    func sheet(edge: Double, slope: Double, shade: Double) -> GrayImage {
        var g = GrayImage(width: 1400, height: 1000, fill: 220)
        func onLine(_ x: Int, _ y: Int) -> Bool {
            guard x >= 200, x < 1100, y >= 350, y < 650 else { return false }
            let rows = [350, 500, 646], columns = [200, 350, 500, 650, 800, 950, 1096]
            return rows.contains { y >= $0 && y < $0 + 4 } || columns.contains { x >= $0 && x < $0 + 4 }
        }
        for y in 0..<1000 {
            for x in 0..<1400 {
                let v = onLine(x, y) ? 40.0 : 220.0
                g[x, y] = UInt8((Double(y) > edge + slope * Double(x) ? v * shade : v).rounded())
            }
        }
        // a camera's blur: two passes of a 5 × 5 box
        return TestImages.boxBlurred(g, radius: 2, passes: 2)
    }

    /// True when a quad lies along the table's frame (its outer edge or its inside).
    func tableFound(_ g: GrayImage, detector: QuadDetector = QuadDetector()) -> Bool {
        let frame = [Point(200, 350), Point(1100, 350), Point(1100, 650), Point(200, 650)]
        return detector.detect(in: g).contains { q in
            zip(q.quad.corners, frame).allSatisfy { Polygon.distance($0, $1) < 10 }
        }
    }

    @Test("The shadow's edge crossing the table's first row level, or aslant through both",
          arguments: [(430.0, 0.0), (300.0, 0.25)])
    func crossed(edge: (at: Double, slope: Double)) {
        let found = tableFound(sheet(edge: edge.at, slope: edge.slope, shade: 0.45))
        #expect(found)
    }

    /// The shadow-free ink keeps one row of the band, right at the edge (the closing is
    /// taken on the image halved, a pixel off the blurred step): it joins the table's
    /// outline to the edge's line across the sheet, so no threshold draws the outline.
    /// The ridges do: a step is no ridge, the table's lines are.
    @Test("An edge level through the second row: the ridge pass traces the table whole; without it, only its lit part (control)")
    func crossedLow() {
        let g = sheet(edge: 560, slope: 0, shade: 0.45)
        #expect(tableFound(g))
        var thresholdsOnly = QuadDetector()
        thresholdsOnly.tracesRidges = false
        #expect(!tableFound(g, detector: thresholdsOnly))
    }

    @Test("Control: the same table without a shadow, and wholly in shadow")
    func control() {
        let plain = tableFound(sheet(edge: 2000, slope: 0, shade: 0.45))
        let shaded = tableFound(sheet(edge: -1, slope: 0, shade: 0.45))
        #expect(plain && shaded)
    }
}
