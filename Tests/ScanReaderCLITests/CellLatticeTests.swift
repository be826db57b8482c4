import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// Grids whose lines bend, put together from their cells.
@Suite("Cell lattices")
struct CellLatticeTests {
    /// Cell (r, c) of a grid bowed downwards in its middle by `bow` px, cells of `side`
    /// px, `gap` px of ruling between them, turned by `angle` radians about the origin.
    func cell(_ r: Int, _ c: Int, side: Double = 40, gap: Double = 4, bow: Double = 0, angle: Double = 0,
              columns: Int = 9) -> Quadrilateral {
        func at(_ x: Double, _ y: Double) -> Point {
            let mid = Double(columns) * (side + gap) / 2
            let sag = bow * (1 - ((x - mid) / mid) * ((x - mid) / mid))
            let (px, py) = (x + 100, y + sag + 100)
            return Point(px * cos(angle) - py * sin(angle), px * sin(angle) + py * cos(angle))
        }
        let x0 = Double(c) * (side + gap), y0 = Double(r) * (side + gap)
        return Quadrilateral(topLeft: at(x0, y0), topRight: at(x0 + side, y0), bottomRight: at(x0 + side, y0 + side),
                             bottomLeft: at(x0, y0 + side))
    }

    @Test("A bowed, turned 9×9 lattice with a fifth of its cells missing: 9×9, every cell placed",
          arguments: [(0.0, 0.0), (60.0, 0.0), (60.0, 0.5), (-45.0, 2.0)])
    func bowed(bow: Double, angle: Double) throws {
        var quads: [Quadrilateral] = [], truth: [Int: Quadrilateral] = [:]
        for r in 0..<9 { for c in 0..<9 where (2 * r + c) % 5 != 0 {
            truth[quads.count] = cell(r, c, bow: bow, angle: angle)
            quads.append(cell(r, c, bow: bow, angle: angle))
        } }
        let lattices = CellLattice.find(among: Array(quads.indices), quads: quads)
        let lattice = try #require(lattices.first)
        #expect(lattices.count == 1 && lattice.rows == 9 && lattice.columns == 9 && lattice.members.count == quads.count)
        for r in 0..<9 { for c in 0..<9 {
            // found cells are themselves; a missing one lies within a fifth of a cell of its place
            let want = cell(r, c, bow: bow, angle: angle).center, got = lattice.cells[r * 9 + c].center
            #expect(Polygon.distance(want, got) < 8, "cell \(r),\(c)")
        } }
    }

    @Test("A comb: a row (or column) of boxes sharing their dividers, turned, is a 1×N lattice",
          arguments: [0.0, 0.5, -1.2])
    func comb(angle: Double) throws {
        let row = (0..<10).map { cell(0, $0, angle: angle, columns: 10) }
        let lattice = try #require(CellLattice.find(among: Array(row.indices), quads: row).first)
        #expect(lattice.rows == 1 && lattice.columns == 10 && lattice.members.count == 10)
        let column = (0..<5).map { cell($0, 0, angle: angle) }
        let standing = try #require(CellLattice.find(among: Array(column.indices), quads: column).first)
        #expect(standing.rows == 5 && standing.columns == 1)
    }

    @Test("A table of two rows (or columns) sharing their dividers is a 2×N lattice when asked for; two rows of form boxes with room between are not",
          arguments: [0.0, 0.5, -1.2])
    func twoLines(angle: Double) throws {
        let table = (0..<2).flatMap { r in (0..<8).map { c in cell(r, c, angle: angle, columns: 8) } }
        #expect(CellLattice.find(among: Array(table.indices), quads: table).isEmpty)
        let lattice = try #require(CellLattice.find(among: Array(table.indices), quads: table, twoLines: true).first)
        #expect(lattice.rows == 2 && lattice.columns == 8 && lattice.members.count == 16)
        let standing = (0..<6).flatMap { r in (0..<2).map { c in cell(r, c, angle: angle) } }
        let upright = try #require(CellLattice.find(among: Array(standing.indices), quads: standing, twoLines: true).first)
        #expect(upright.rows == 6 && upright.columns == 2)
        let forms = (0..<2).flatMap { r in (0..<8).map { c in cell(r, c, side: 40, gap: 22, angle: angle, columns: 8) } }
        #expect(CellLattice.find(among: Array(forms.indices), quads: forms, twoLines: true).isEmpty)
    }

    @Test("Layout takes a table of two rows only inside its own outline: cells side by side in a larger grid look the same")
    func twoLinesNeedTheirOutline() {
        let cells = (0..<2).flatMap { r in (0..<8).map { c in cell(r, c, columns: 8) } }
        let detected = cells.map { DetectedQuad(quad: $0, parent: nil, isHole: true) }
        let frame = Quadrilateral(topLeft: Point(97, 97), topRight: Point(100 + 8 * 44, 97),
                                  bottomRight: Point(100 + 8 * 44, 100 + 2 * 44), bottomLeft: Point(97, 100 + 2 * 44))
        let image = GrayImage(width: 600, height: 300, fill: 230)
        func lattices(_ quads: [DetectedQuad]) -> [LaidOutRegion] {
            Layout().cellLattices(LayoutCandidates(quads: quads), in: image).0
        }
        let framed = lattices([DetectedQuad(quad: frame, parent: nil, isHole: false)] + detected)
        #expect(framed.count == 1 && framed.first?.ruling?.rowCount == 2 && framed.first?.ruling?.columnCount == 8)
        #expect(lattices(detected).isEmpty)
    }

    @Test("A box found inside a grid whose quad is not its parent (the layout's grid outline re-measured, a grid put together) is one of the grid's cells, not a field")
    func boxInsideGridIsNoField() {
        // a 9×9 ruling of 50 px cells from (60, 60), lines 3 px; a 7 written in cell (4, 4)
        var image = GrayImage(width: 600, height: 600, fill: 232)
        for k in 0...9 {
            let p = 60 + 50 * k
            for t in -1...1 { for q in 60...510 { image[p + t, q] = 30; image[q, p + t] = 30 } }
        }
        for y in 270...300 { for x in 272...298 where y <= 273 || (x >= 284 - (y - 300) / 3 && x <= 287 - (y - 300) / 3) {
            image[x, y] = 15
        } }
        func box(_ a: Double, _ b: Double) -> Quadrilateral {
            Quadrilateral(topLeft: Point(a, a), topRight: Point(b, a), bottomRight: Point(b, b), bottomLeft: Point(a, b))
        }
        let grid = DetectedQuad(quad: box(59, 511), parent: nil, isHole: false)
        let cell = DetectedQuad(quad: box(262, 308), parent: nil, isHole: true)
        let regions = Layout().regions(in: image, quads: [grid, cell])
        #expect(regions.count == 1 && regions.first?.kind == .grid && regions.first?.ruling?.cellCount == 81)
    }

    @Test("No lattice: form boxes stacked with room for labels between, two boxes side by side, boxes far apart, cells of different sizes, too few cells")
    func negatives() {
        // boxes a box and a half apart: a column of form boxes, no comb
        let stacked = (0..<5).map { cell($0, 0, side: 40, gap: 22) }
        #expect(CellLattice.find(among: Array(stacked.indices), quads: stacked).isEmpty)
        let pair = [cell(0, 0), cell(0, 1)]
        #expect(CellLattice.find(among: Array(pair.indices), quads: pair).isEmpty)
        let apart = (0..<3).flatMap { r in (0..<3).map { c in cell(r, c, gap: 40) } }
        #expect(CellLattice.find(among: Array(apart.indices), quads: apart).isEmpty)
        // (each column of one size is a comb of three; no lattice spans columns)
        let mixed = (0..<3).flatMap { r in (0..<3).map { c in cell(r, c, side: c == 1 ? 90 : 40) } }
        #expect(CellLattice.find(among: Array(mixed.indices), quads: mixed).allSatisfy { $0.columns == 1 })
        let sparse = [cell(0, 0), cell(0, 1), cell(1, 0), cell(2, 2), cell(1, 1)]
        #expect(CellLattice.find(among: Array(sparse.indices), quads: sparse).isEmpty)
    }

    @Test("A bowed ruled grid drawn on paper is read as one 9×9 grid; drawn straight it is a grid too (control)",
          arguments: [0.0, 45.0])
    func drawnGrid(bow: Double) throws {
        var image = GrayImage(width: 700, height: 700, fill: 232)
        // ruling as 4 px bands between cells of 50 px, rows sagging by `bow` in the middle
        for y in 0..<700 {
            for x in 0..<700 {
                let gx = Double(x) - 100, mid = 9.0 * 54 / 2
                let sag = bow * (1 - ((gx - mid) / mid) * ((gx - mid) / mid))
                let gy = Double(y) - 100 - sag
                guard gx >= -4, gx < 9 * 54, gy >= -4, gy < 9 * 54 else { continue }
                let inColumnLine = gx.truncatingRemainder(dividingBy: 54) < 4 || gx < 0 || gx >= 9 * 54 - 4
                let inRowLine = gy < 0 || (gy + 4).truncatingRemainder(dividingBy: 54) < 4 || gy >= 9 * 54 - 4
                if inColumnLine || inRowLine { image[x, y] = 30 }
            }
        }
        let regions = Layout().regions(in: image)
        #expect(regions.contains { $0.kind == .grid && $0.ruling?.rowCount == 9 && $0.ruling?.columnCount == 9 },
                "\(regions.map { "\($0.kind) \($0.ruling.map { "\($0.rowCount)x\($0.columnCount)" } ?? "")" })")
        #expect(!regions.contains { $0.kind == .field })
    }
}

/// A grid's outer row or column that none of its boxes lies in, and that is blank, is
/// paper past the frame (the sheet below), not cells.
@Suite("Ruling trimmed to the cells found")
struct RulingTrimTests {
    /// A 500×450 plane ruled into 10 columns and 9 rows of 50 px; the boxes of the first
    /// `columns` columns found as quads (inset by the ruling); `blot` inks a cell of the
    /// last column.
    func setting(columns: Int = 9, rows: Int = 9, blot: Bool = false)
        -> (Ruling, CellLattice.Lattice?, [DetectedQuad], Quadrilateral, BinaryImage) {
        var image = GrayImage(width: 500, height: 450, fill: 235)
        for k in 0...10 { for y in 0..<450 { for x in max(0, 50 * k - 2)..<min(500, 50 * k + 2) { image[x, y] = 30 } } }
        for k in 0...9 { for x in 0..<500 { for y in max(0, 50 * k - 2)..<min(450, 50 * k + 2) { image[x, y] = 30 } } }
        if blot { for y in 215...235 { for x in 468...482 { image[x, y] = 30 } } }
        var quads: [DetectedQuad] = []
        for r in 0..<rows { for c in 0..<columns {
            let x0 = Double(50 * c + 3), y0 = Double(50 * r + 3)
            quads.append(DetectedQuad(quad: Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x0 + 44, y0),
                                                          bottomRight: Point(x0 + 44, y0 + 44), bottomLeft: Point(x0, y0 + 44)),
                                      parent: nil, isHole: true))
        } }
        let ruling = Ruling(rows: (0...9).map { Double(50 * $0) }, columns: (0...10).map { Double(50 * $0) })
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(500, 0), bottomRight: Point(500, 450), bottomLeft: Point(0, 450))
        let lattice = CellLattice.find(among: Array(quads.indices), quads: quads.map(\.quad)).first
        return (ruling, lattice, quads, whole, Layout.ink(of: image))
    }

    @Test("Nine columns of boxes in a ten-column ruling, the tenth blank: trimmed to 9×9")
    func trimsBlankColumn() throws {
        let (ruling, lattice, quads, whole, ink) = setting()
        let cells = try #require(lattice)
        let trimmed = try #require(Layout.trimmed(ruling, toCellsOf: cells, quads: quads, gridQuad: whole,
                                                  width: 500, height: 450, ink: { ink }))
        #expect(trimmed.rowCount == 9 && trimmed.columnCount == 9 && trimmed.columns.last == 450)
    }

    @Test("Not trimmed: ink in the column (digits written over their boxes), or only one box's cells found")
    func keeps() throws {
        let (ruling, lattice, quads, whole, ink) = setting(blot: true)
        let cells = try #require(lattice)
        #expect(Layout.trimmed(ruling, toCellsOf: cells, quads: quads, gridQuad: whole, width: 500, height: 450,
                               ink: { ink }) == nil)
        let (r2, l2, q2, w2, ink2) = setting(columns: 3, rows: 3)
        let box = try #require(l2)
        #expect(Layout.trimmed(r2, toCellsOf: box, quads: q2, gridQuad: w2, width: 500, height: 450, ink: { ink2 }) == nil)
    }
}

/// A grid whose lines sag (a page curling) is read from its cells where its lines run
/// (`BentRuling`), not from the straight division of its outline.
@Suite("Bent grid read from its lines")
struct BentGridTests {
    /// A 9 × 9 grid of 50 px cells, lines 3 px, drawn from (50, 50) with its rows sagging
    /// by `sag` px in the middle (a sine across the grid), and a blot in cell (4, 4) as
    /// the page holds it; read from the straight outline of the grid's frame.
    func read(sag: Double) throws -> LaidOutRegion {
        var image = GrayImage(width: 560, height: 560, fill: 232)
        func drop(_ x: Double) -> Double { sag * sin(Double.pi * min(max(x - 50, 0), 450) / 450) }
        for y in 0..<560 {
            for x in 0..<560 {
                let px = Double(x) + 0.5, py = Double(y) + 0.5 - drop(Double(x) + 0.5)
                guard px >= 48.5, px <= 501.5, py >= 48.5, py <= 501.5 else { continue }
                let onColumn = (0...9).contains { abs(px - Double(50 + 50 * $0)) < 1.5 }
                let onRow = (0...9).contains { abs(py - Double(50 + 50 * $0)) < 1.5 }
                if onColumn || onRow { image[x, y] = 30 }
            }
        }
        // the blot: 12 × 16 px in the middle of cell (4, 4) where the sagging lines put it
        let cx = 275.0, cy = 275 + drop(275)
        for y in Int(cy) - 8..<Int(cy) + 8 { for x in Int(cx) - 6..<Int(cx) + 6 { image[x, y] = 30 } }
        let frame = Quadrilateral(topLeft: Point(50, 50), topRight: Point(500, 50), bottomRight: Point(500, 500),
                                  bottomLeft: Point(50, 500))
        let regions = Layout().regions(in: image, quads: [DetectedQuad(quad: frame, parent: nil, isHole: false)])
        let grid = regions.first { $0.kind == .grid && $0.ruling?.rowCount == 9 && $0.ruling?.columnCount == 9 }
        // (a failure names the regions, not their pixels)
        try #require(grid != nil, "no 9×9 grid: \(regions.map(\.kind))")
        return grid!
    }

    @Test("Rows sagging a fifth of a cell: the grid is read unbent, the blot in the middle of its cell")
    func sagging() throws {
        let grid = try read(sag: 10)
        #expect(grid.bend != nil)
        #expect((grid.bend?.largestShift ?? 0) >= Layout.bendShare)
        // the straight ruling's middle of cell (4, 4) is the blot's middle once unbent
        #expect(grid.gray[225, 225] < 100)
    }

    @Test("Control: a straight grid is read as straightened, no bend")
    func straight() throws {
        let grid = try read(sag: 0)
        #expect(grid.bend == nil)
        #expect(grid.gray[225, 225] < 100)
    }
}
