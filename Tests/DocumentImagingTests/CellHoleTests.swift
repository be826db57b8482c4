@testable import DocumentImaging
import ImagingCore
import Testing

/// The holes an outline rings (`DetectedQuad.holeShares`): a comb's frame rings its cells,
/// digits run together ring only their small loops.
@Suite("Holes of outlines")
struct CellHoleTests {
    /// A 1 × `cells` comb of `cell` px cells from (100, 100), lines 3 px.
    func comb(cells: Int, cell: Int) -> GrayImage {
        var image = GrayImage(width: 200 + cells * cell, height: 200 + cell, fill: 230)
        for k in 0...cells { for y in 100..<(100 + cell + 3) { for x in (100 + k * cell)..<(103 + k * cell) { image[x, y] = 25 } } }
        for x in 100..<(103 + cells * cell) {
            for y in 100..<103 { image[x, y] = 25 }
            for y in (100 + cell)..<(103 + cell) { image[x, y] = 25 }
        }
        return image
    }

    @Test("A comb's outline rings each of its cells, each about a cell's share", arguments: [(4, 40), (6, 50), (12, 36)])
    func combCells(cells: Int, cell: Int) throws {
        let quads = QuadDetector().detect(in: comb(cells: cells, cell: cell))
        let outline = try #require(quads.first { !$0.isHole && $0.quad.area > Double(cells * cell * cell) / 2 })
        let shares = try #require(outline.holeShares)
        #expect(shares.count == cells)
        #expect(shares.allSatisfy { $0 > 0.7 / Double(cells) && $0 <= 1 / Double(cells) }, "\(shares)")
        // holes, and quads not traced from an outline, are not measured
        #expect(quads.filter(\.isHole).allSatisfy { $0.holeShares == nil })
    }

    @Test("Digits run together (a row of touching 8s): each loop is far under a cell of the lattice their strokes make",
          arguments: [3, 4, 5])
    func touchingEights(count: Int) throws {
        // each 8: two rings of outer radius 7.5 and inner 3.5, 14 px apart, touching the next
        var image = GrayImage(width: 300, height: 200, fill: 230)
        for y in 80..<130 {
            for x in 80..<(100 + 14 * count) {
                for k in 0..<count {
                    let cx = 100.0 + 14 * Double(k)
                    for cy in [100.0, 114.0] {
                        let r = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                        if r <= 7.5 && r >= 3.5 { image[x, y] = 25 }
                    }
                }
            }
        }
        // the run's outline and its holes, as the detector traces them
        let contours = image.binarized().contours()
        let outline = try #require(contours.indices.filter { !contours[$0].isHole }
            .max { contours[$0].points.count < contours[$1].points.count })
        let holes = contours.filter { $0.isHole && $0.parent == outline }
        #expect(holes.count >= 2 * count)   // every loop is a hole (and the gaps between 8s)
        let area = abs(Polygon.signedArea(Polygon.convexHull(contours[outline].points)))
        let shares = QuadDetector.holeShares(holes, area: area)
        // a lattice of one "cell" per digit needs a quarter of 1/count: no loop is that
        #expect(shares.allSatisfy { $0 < 0.25 / Double(count) }, "\(shares)")
    }

    @Test("Hole shares: largest first, the smallest left out, none for an empty area")
    func shares() {
        func square(_ side: Int) -> Contour {
            let s = Double(side)
            return Contour(points: [Point(0, 0), Point(s, 0), Point(s, s), Point(0, s)], isHole: true, parent: 0)
        }
        #expect(QuadDetector.holeShares([square(2), square(10), square(5)], area: 400) == [0.25, 0.0625])
        #expect(QuadDetector.holeShares([square(10)], area: 0).isEmpty)
    }
}
