import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// The layout's one model of a photo's quads (`LayoutCandidates`): what is a grid, what
/// lies in one, and where a grid put together from parts is nested.
@Suite("Layout candidates")
struct LayoutCandidatesTests {
    /// An axis-aligned quad from (x0, y0) to (x1, y1).
    func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    /// A ruling of `rows` × `columns` cells of 10 px.
    func ruling(_ rows: Int, _ columns: Int) -> Ruling {
        Ruling(rows: (0...rows).map { Double($0 * 10) }, columns: (0...columns).map { Double($0 * 10) })
    }

    /// A sheet (0) holding a puzzle's outline (1), which holds two boxes (2, 3); a label (4)
    /// beside the puzzle on the sheet.
    func sheet() -> LayoutCandidates {
        LayoutCandidates(quads: [
            DetectedQuad(quad: box(0, 0, 1000, 800), parent: nil, isHole: false),
            DetectedQuad(quad: box(100, 100, 500, 500), parent: 0, isHole: false),
            DetectedQuad(quad: box(110, 110, 230, 230), parent: 1, isHole: true),
            DetectedQuad(quad: box(240, 110, 360, 230), parent: 1, isHole: true),
            DetectedQuad(quad: box(600, 100, 700, 150), parent: 0, isHole: false),
        ])
    }

    @Test("A quad is a grid exactly while it has a ruling; what lies inside a grid knows it")
    func gridVerdictFollowsRuling() {
        var c = sheet()
        #expect(c.quads.indices.allSatisfy { !c.isGrid($0) && !c.liesInGrid($0) })
        c.takeGrid(1, ruling: ruling(9, 9))
        #expect(c.isGrid(1) && c.rulings[1]?.cellCount == 81)
        #expect(c.liesInGrid(2) && c.liesInGrid(3))
        #expect(!c.liesInGrid(1) && !c.liesInGrid(4) && !c.liesInGrid(0))   // a grid does not lie in itself
        #expect(c.ancestors(2) == [1, 0] && c.ancestors(0).isEmpty)
        c.dropGrid(1)
        #expect(!c.isGrid(1) && c.rulings.isEmpty && !c.liesInGrid(2))
    }

    @Test("A grid put together around two boxes is nested between them and the sheet; the boxes give way")
    func assembledGridIsNested() {
        var c = sheet()
        c.takeGrid(2, ruling: ruling(3, 3))
        c.takeGrid(3, ruling: ruling(3, 3))
        for j in [2, 3] { c.dropGrid(j) }
        let n = c.addGrid(box(105, 105, 365, 235), straightened: GrayImage(width: 40, height: 20, fill: 230),
                          ruling: ruling(3, 6))
        #expect(n == 5 && c.quads.count == 6)
        #expect(c.isGrid(n) && !c.isGrid(2) && !c.isGrid(3))
        #expect(c.quads[n].parent == 1)                        // inside the puzzle's outline
        #expect(c.quads[2].parent == n && c.quads[3].parent == n)  // around the boxes it was made of
        #expect(c.quads[4].parent == 0)                        // the label beside it stays on the sheet
        #expect(c.liesInGrid(2) && c.liesInGrid(3) && !c.liesInGrid(4))
        #expect(c.rectified[n]?.width == 40)
    }

    @Test("A moved quad keeps its place in the nesting and the copy straightened from where it now lies")
    func movedQuad() {
        var c = sheet()
        c.rectified[4] = GrayImage(width: 20, height: 10, fill: 200)
        c.move(4, to: box(600, 100, 760, 150), straightened: GrayImage(width: 32, height: 10, fill: 200))
        #expect(c.quads[4].quad.topRight == Point(760, 100) && c.quads[4].parent == 0 && c.rectified[4]?.width == 32)
        c.move(4, to: box(600, 100, 700, 150), straightened: nil)
        #expect(c.rectified[4] == nil)   // none could be made: no stale copy stays
    }
}
