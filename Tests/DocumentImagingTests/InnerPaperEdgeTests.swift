@testable import DocumentImaging
import ImagingCore
import Testing

/// The edge of a sheet lying on other paper, inside an outline that is the paper below
/// (`InnerPaperEdge`).
@Suite("Inner paper edge: a sheet on the paper below")
struct InnerPaperEdgeTests {
    /// A 300 × 200 straightened region of an upper sheet (grey 230) whose right edge runs
    /// at x = `edge(y)`; past it a 3 px shadow (165) and then `beyond` (the paper below,
    /// or a desk) to the region's side.
    func region(beyond: UInt8, edge: (Int) -> Int) -> GrayImage {
        var g = GrayImage(width: 300, height: 200, fill: 230)
        for y in 0..<200 {
            let e = edge(y)
            for x in e..<300 { g[x, y] = x < e + 3 ? 165 : beyond }
        }
        return g
    }

    @Test("The paper below shows past the right side: its edge is found, straight or slanting, and no other",
          arguments: [(280, 280), (285, 270), (276, 288)])
    func sheetOnPaper(top: Int, bottom: Int) {
        let g = region(beyond: 212) { y in top + (bottom - top) * y / 199 }
        let sides = InnerPaperEdge.sides(of: g, depthShare: 0.15, contrastPercent: 15)
        #expect(sides[0] == nil && sides[2] == nil && sides[3] == nil)
        guard let right = sides[1] else { Issue.record("right edge not found"); return }
        // distances in from the right side, within the shadow's 3 px of the sheet's edge
        #expect(abs(right.start - Double(300 - top)) <= 3, "start \(right.start)")
        #expect(abs(right.end - Double(300 - bottom)) <= 3, "end \(right.end)")
    }

    @Test("Control: a sheet's own edge on a dark desk, plain paper, and digits near a side are no inner edge")
    func noPaperBelow() {
        let onDesk = region(beyond: 60) { _ in 285 }
        #expect(InnerPaperEdge.sides(of: onDesk, depthShare: 0.15, contrastPercent: 15).allSatisfy { $0 == nil })
        let plain = GrayImage(width: 300, height: 200, fill: 230)
        #expect(InnerPaperEdge.sides(of: plain, depthShare: 0.15, contrastPercent: 15).allSatisfy { $0 == nil })
        // an upright stroke 8 px in from the left side along a third of it: a few samples
        // see it, most do not
        var digits = plain
        for y in 20..<80 { for x in 8..<12 { digits[x, y] = 30 } }
        #expect(InnerPaperEdge.sides(of: digits, depthShare: 0.15, contrastPercent: 15).allSatisfy { $0 == nil })
    }
}
