import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A sheet whose own print falls evenly (a coarse table, a ruled page) holds a puzzle
/// making up a large part of it: the sheet's coarse lattice, though of enough cells to be
/// trusted, gives way to the finer grid inside it.
@Suite("A finer grid inside a coarse lattice")
struct InnerGridTests {
    /// An 800 px sheet at (50, 50) ruled into 4 × 4 cells of 200 px by heavy lines, and a
    /// 9×9 grid of `cell` px cells from its top-left corner ruled by thin lines (its lines
    /// where they meet the sheet's lie under them).
    func sheet(cell: Int) -> GrayImage {
        var image = GrayImage(width: 900, height: 900, fill: 235)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in max(0, y0)..<min(900, y1) { for x in max(0, x0)..<min(900, x1) { image[x, y] = 25 } }
        }
        for k in 0...4 {
            let p = 50 + 200 * k
            paint(p - 3, 47, p + 3, 853); paint(47, p - 3, 853, p + 3)
        }
        for k in 0...9 {
            let p = 50 + cell * k
            paint(p - 1, 50, p + 1, 50 + 9 * cell); paint(50, p - 1, 50 + 9 * cell, p + 1)
        }
        return image
    }

    func square(_ x: Double, _ y: Double, _ side: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x, y), topRight: Point(x + side, y), bottomRight: Point(x + side, y + side),
                      bottomLeft: Point(x, y + side))
    }

    func grids(in image: GrayImage, inner side: Double) -> [String] {
        let quads = [DetectedQuad(quad: square(50, 50, 800), parent: nil, isHole: false),
                     DetectedQuad(quad: square(50, 50, side), parent: 0, isHole: false)]
        return Layout().regions(in: image, quads: quads).filter { $0.kind == .grid }
            .compactMap { $0.ruling.map { "\($0.rowCount)x\($0.columnCount)" } }
    }

    @Test("The puzzle, a third or more of the sheet, is read as its own 9×9 grid", arguments: [50, 60])
    func finerGridInside(cell: Int) {
        // 450 px (a third of the sheet's area) and 540 px (nearly half)
        let found = grids(in: sheet(cell: cell), inner: Double(9 * cell))
        #expect(found == ["9x9"], "\(found)")
    }

    @Test("Control: a trusted grid's own 3×3 box (fewer cells) is not taken over it")
    func boxOfTrustedGrid() {
        // a 9×9 filling the sheet, heavy lines round its 3×3 boxes; the quad of its
        // top-left box
        var image = GrayImage(width: 900, height: 900, fill: 235)
        for k in 0...9 {
            let p = 50 + Int((Double(k) * 800 / 9).rounded()), w = k % 3 == 0 ? 3 : 1
            for y in 47..<853 { for x in (p - w)..<(p + w) { image[x, y] = 25 } }
            for x in 47..<853 { for y in (p - w)..<(p + w) { image[x, y] = 25 } }
        }
        let found = grids(in: image, inner: 800.0 / 3)
        #expect(found == ["9x9"], "\(found)")
    }
}

/// A few-cell "grid" whose outline rings no hole the size of a cell is a blob of ink:
/// digits run together in a box, their strokes standing for dividers. It is no grid.
@Suite("Few-cell grids need cells")
struct BlobGridTests {
    /// A 1×6 comb of 50 px cells from (100, 100), lines 3 px, a stroke in each cell.
    func comb() -> GrayImage {
        var image = GrayImage(width: 500, height: 250, fill: 230)
        for k in 0...6 { for y in 100..<153 { for x in (100 + k * 50)..<(103 + k * 50) { image[x, y] = 25 } } }
        for x in 100..<403 {
            for y in 100..<103 { image[x, y] = 25 }
            for y in 150..<153 { image[x, y] = 25 }
        }
        for k in 0..<6 { for y in 112..<141 { for x in (124 + k * 50)..<(128 + k * 50) { image[x, y] = 25 } } }
        return image
    }

    func grids(holeShares: [Double]?) -> [String] {
        var quad = DetectedQuad(quad: Quadrilateral(topLeft: Point(100, 100), topRight: Point(403, 100),
                                                     bottomRight: Point(403, 153), bottomLeft: Point(100, 153)),
                                parent: nil, isHole: false)
        quad.holeShares = holeShares
        return Layout().regions(in: comb(), quads: [quad]).filter { $0.kind == .grid }
            .compactMap { $0.ruling.map { "\($0.rowCount)x\($0.columnCount)" } }
    }

    @Test("The comb is a grid when its outline rings a cell-sized hole, or when holes were not measured")
    func combWithCells() {
        #expect(grids(holeShares: Array(repeating: 0.15, count: 6)) == ["1x6"])
        #expect(grids(holeShares: [0.05]) == ["1x6"])    // one cell left closed: a third of a cell
        #expect(grids(holeShares: nil) == ["1x6"])
    }

    @Test("The same lattice from an outline ringing only small loops, or nothing, is no grid")
    func blobIsNoGrid() {
        #expect(grids(holeShares: [0.03, 0.02, 0.02]).isEmpty)   // under a quarter of a sixth
        #expect(grids(holeShares: []).isEmpty)
    }
}

/// A field's outline must ring a hole the size of one glyph's cell (a square as high as
/// the box): a word's letters, or digits run together, merged into one blob of ink whose
/// outline happens to be a quad, ring only their loops. Such a blob is no box.
@Suite("Fields need a box's hole")
struct BlobFieldTests {
    /// A 300 × 60 box from (100, 100), lines 3 px, three upright strokes in it.
    func box() -> GrayImage {
        var image = GrayImage(width: 500, height: 260, fill: 230)
        for y in 100..<160 { for x in 100..<400 where y < 103 || y >= 157 || x < 103 || x >= 397 { image[x, y] = 25 } }
        for k in 0..<3 { for y in 112..<148 { for x in (150 + k * 60)..<(156 + k * 60) { image[x, y] = 25 } } }
        return image
    }

    func fields(holeShares: [Double]?) -> Int {
        var quad = DetectedQuad(quad: Quadrilateral(topLeft: Point(100, 100), topRight: Point(399, 100),
                                                     bottomRight: Point(399, 159), bottomLeft: Point(100, 159)),
                                parent: nil, isHole: false)
        quad.holeShares = holeShares
        return Layout().regions(in: box(), quads: [quad]).filter { $0.kind == .field }.count
    }

    @Test("The box is a field when its outline rings its inside, the inside split by digits touching its lines, or holes were not measured")
    func boxWithInside() {
        #expect(fields(holeShares: [0.85]) == 1)
        // a glyph's cell is a fifth of this box (60 / 300): a quarter of it is 0.05
        #expect(fields(holeShares: [0.3, 0.25, 0.2]) == 1)
        #expect(fields(holeShares: [0.06, 0.04]) == 1)
        #expect(fields(holeShares: nil) == 1)
    }

    @Test("The same outline ringing only loops (a word's o, a, e), or nothing, is no field")
    func blobIsNoField() {
        #expect(fields(holeShares: [0.04, 0.03, 0.02]) == 0)
        #expect(fields(holeShares: []) == 0)
    }
}
