@testable import DocumentImaging
import ImagingCore
import Testing

/// Rulings whose quad is not the grid's frame, whose cells hold columns of digits, or
/// whose thin lines are faint along part of the grid.
@Suite("Ruling lines: quads past the grid, digit columns, lines faint in places")
struct RulingTests {
    /// A 450 × 450 binary region with `lines` drawn (2 px thick) as the closure says.
    func region(_ ink: (Int, Int) -> Bool) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: 450 * 450)
        for y in 0..<450 { for x in 0..<450 where ink(x, y) { bits[y * 450 + x] = 1 } }
        return BinaryImage(width: 450, height: 450, bits: bits)
    }

    func near(_ v: Int, _ lines: [Int]) -> Bool { lines.contains { abs(v - $0) <= 1 } }

    @Test("A quad running past the grid: the grid ends at its last line, no margin column")
    func quadPastTheGrid() throws {
        // 9 cells of 46 px from 5 to 419 in a 516 px quad: beyond 419 plain paper or shadow
        let found = (0...9).map { 5 + Double($0) * 46 }
        let positions = try #require(RulingFinder.evenDivision(found, length: 516, maxCells: 30))
        #expect(positions.count == 10 && positions.first == 5 && positions.last == 419)
    }

    /// A width × height region holding a 9 × 9 lattice of `cell` px from `origin`, thin lines
    /// `thin` px thick and the outer frame `frame` px thick (lines cut by the region's edge
    /// are simply cut).
    func lattice(width: Int, height: Int, cell: Int, origin: (x: Int, y: Int), thin: Int, frame: Int) -> BinaryImage {
        func onLine(_ v: Int, _ start: Int) -> Bool {
            (0...9).contains { k in
                let centre = start + k * cell, half = (k == 0 || k == 9 ? frame : thin) / 2
                return v >= centre - half && v <= centre + half
            }
        }
        let inX = { (x: Int) in x >= origin.x - frame && x <= origin.x + 9 * cell + frame }
        let inY = { (y: Int) in y >= origin.y - frame && y <= origin.y + 9 * cell + frame }
        var bits = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width where (onLine(x, origin.x) && inY(y)) || (onLine(y, origin.y) && inX(x)) {
                bits[y * width + x] = 1
            }
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }

    @Test("A heavy frame ends the grid: the paper past it (the sheet below, a shadow) is no extra column",
          arguments: [(cell: 30, thin: 1, frame: 4, past: 1.0), (cell: 46, thin: 2, frame: 6, past: 0.9),
                      (cell: 46, thin: 2, frame: 5, past: 1.15), (cell: 60, thin: 3, frame: 9, past: 1.0)])
    func heavyFrameEndsTheGrid(cell: Int, thin: Int, frame: Int, past: Double) throws {
        // the grid's frame at x = 4; past its right frame, `past` cells of bare paper to the quad's edge
        let width = 4 + 9 * cell + Int(past * Double(cell)), height = 8 + 9 * cell + 8
        let b = lattice(width: width, height: height, cell: cell, origin: (4, 8), thin: thin, frame: frame)
        let ruling = try #require(RulingFinder.ruling(FoundLines(in: b), width: width, height: height))
        #expect(ruling.columnCount == 9 && ruling.rowCount == 9, "\(ruling.columns)")
        #expect(abs(ruling.columns.last! - Double(4 + 9 * cell)) <= 2)
    }

    @Test("Grey levels: a heavy frame ends the grid there too; the paper past it is no extra column",
          arguments: [(cell: 30, thin: 1, frame: 4, past: 1.0), (cell: 46, thin: 2, frame: 6, past: 0.95),
                      (cell: 60, thin: 3, frame: 9, past: 1.0)])
    func heavyFrameEndsTheGridInGray(cell: Int, thin: Int, frame: Int, past: Double) throws {
        let width = 4 + 9 * cell + Int(past * Double(cell)), height = 8 + 9 * cell + 8
        let b = lattice(width: width, height: height, cell: cell, origin: (4, 8), thin: thin, frame: frame)
        var g = GrayImage(width: width, height: height, fill: 225)
        for y in 0..<height { for x in 0..<width where b.bits[y * width + x] != 0 { g[x, y] = 35 } }
        let ruling = try #require(RulingFinder.ruling(in: g))
        #expect(ruling.columnCount == 9 && ruling.rowCount == 9, "\(ruling.columns)")
        #expect(abs(ruling.columns.last! - Double(4 + 9 * cell)) <= 2)
        // control: with every line as thin as the rest the paper past the grid divides
        // evenly as one more column (nothing says where the grid ends)
        let even = lattice(width: width, height: height, cell: cell, origin: (4, 8), thin: thin, frame: thin)
        var h = GrayImage(width: width, height: height, fill: 225)
        for y in 0..<height { for x in 0..<width where even.bits[y * width + x] != 0 { h[x, y] = 35 } }
        let plain = try #require(RulingFinder.ruling(in: h))
        #expect(plain.columnCount == 10, "\(plain.columns)")
    }

    @Test("Negative control: a grid of even lines cut by the region's edge still reaches the edge",
          arguments: [30, 46, 60])
    func evenGridCutByTheEdge(cell: Int) throws {
        // uniform 2 px lines; the first column line lies 3 px outside the region (cut off)
        let width = 9 * cell - 3, height = 8 + 9 * cell + 8
        let b = lattice(width: width, height: height, cell: cell, origin: (-3, 8), thin: 2, frame: 2)
        let ruling = try #require(RulingFinder.ruling(FoundLines(in: b), width: width, height: height))
        #expect(ruling.columnCount == 9, "\(ruling.columns)")
    }

    @Test("A large digit's upright in a box is no ruling; a line across the box is",
          arguments: [0.7, 0.76])
    func digitStrokeIsNoRuling(strokeLength: Double) throws {
        // a 600 x 300 box (2 px frame) with a 6 px upright in the middle, strokeLength of the height
        // (under `strongCoverage` of the inner height: an upright longer than that is still a line)
        let top = Int(150 - 150 * strokeLength), bottom = Int(150 + 150 * strokeLength)
        func box(_ upright: (Int) -> Bool) -> BinaryImage {
            var bits = [UInt8](repeating: 0, count: 600 * 300)
            for y in 0..<300 {
                for x in 0..<600 where x < 2 || x > 597 || y < 2 || y > 297 || (abs(x - 300) <= 3 && upright(y)) {
                    bits[y * 600 + x] = 1
                }
            }
            return BinaryImage(width: 600, height: 300, bits: bits)
        }
        let stroke = RulingFinder.ruling(in: box { $0 >= top && $0 <= bottom })
        #expect(stroke == nil)
        // control: the same upright drawn across the whole box is a ruling of two cells
        let ruled = try #require(RulingFinder.ruling(in: box { _ in true }))
        #expect(ruled.columnCount == 2 && ruled.rowCount == 1)
    }

    @Test("Grey levels: the uprights of digits written in a box are no comb; separators across it are",
          arguments: [(width: 450, height: 60), (width: 450, height: 110)])
    func digitUprightsInGray(width: Int, height: Int) throws {
        // a box (3 px frame) with five dark uprights, evenly spaced, 70 % of the box's height
        func box(upright: Int) -> GrayImage {
            var g = GrayImage(width: width, height: height, fill: 230)
            let top = (height - upright) / 2
            for y in 0..<height {
                for x in 0..<width {
                    let frame = x < 3 || x >= width - 3 || y < 3 || y >= height - 3
                    let stroke = (1...5).contains { abs(x - $0 * width / 6) <= 2 } && y >= top && y < top + upright
                    if frame || stroke { g[x, y] = 40 }
                }
            }
            return g
        }
        let digits = RulingFinder.ruling(in: box(upright: height * 7 / 10))
        #expect(digits == nil, "\(String(describing: digits))")
        // control: the same uprights across the whole box are a comb of six boxes
        let comb = try #require(RulingFinder.ruling(in: box(upright: height)))
        #expect(comb.columnCount == 6 && comb.rowCount == 1)
    }

    @Test("A quad a little larger than its grid: the division the lines fit, not the quad's edges")
    func slightlyLargerQuad() throws {
        // 9 cells of 50 px from 10 to 460 in a 470 px region: 0 … 470 in nine is every line a bit off
        let found = (0...9).map { 10 + Double($0) * 50 }
        let positions = try #require(RulingFinder.evenDivision(found, length: 470, maxCells: 30))
        #expect(positions.count == 10 && positions.first == 10 && positions.last == 460)
    }

    @Test("A missing line beside a border with no line of its own is not filled in")
    func missingBesideBareBorder() {
        // lines at 100 … 700 of 900, none at 0, 800 or 900: 9 cells would need two guesses
        let found = (1...7).map { Double($0) * 100 }
        #expect(RulingFinder.evenDivision(found, from: 0, to: 900, maxCells: 30)?.count != 10)
        // with lines at the borders, the one gap (800) is believed
        let framed = [0.0] + found + [900]
        #expect(RulingFinder.evenDivision(framed, from: 0, to: 900, maxCells: 9)?.count == 10)
    }

    @Test("Columns of digits that happen to line up are faint lines, not another grid")
    func digitColumns() throws {
        let rules = (0...9).map { min(449, $0 * 50) }
        let digitColumns = [75, 175, 325]
        let b = region { x, y in
            near(x, rules) || near(y, rules)
                || (near(x, digitColumns) && y % 50 >= 8 && y % 50 < 44)   // a "1" in every cell
        }
        let lines = FoundLines(in: b)
        #expect(digitColumns.allSatisfy { c in lines.faintColumns.contains { abs($0 - Double(c)) < 2 } })
        // held against the division, the three would have sunk it
        #expect(RulingFinder.evenDivision(lines.columns, length: 450, maxCells: 30)?.count != 10)
        let ruling = try #require(RulingFinder.ruling(lines, width: 450, height: 450))
        #expect(ruling.rowCount == 9 && ruling.columnCount == 9)
    }

    @Test("Thin lines missing from one box are found in the other boxes' bands")
    func linesInBands() throws {
        let thick = [0, 150, 300, 449], thin = [50, 100, 200, 250, 350, 400]
        let b = region { x, y in
            near(x, thick) || near(y, thick) || near(x, thin) || (x > 150 && near(y, thin))
        }
        let lines = FoundLines(in: b)
        #expect(!lines.rows.contains { abs($0 - 50) < 3 })          // 2/3 of the width: not a line
        let coarse = Ruling(rows: thick.map(Double.init), columns: (0...9).map { Double(min(449, $0 * 50)) })
        let bandRows = RulingFinder.linesInBands(of: coarse, in: b, horizontal: true)
        #expect(thin.allSatisfy { t in bandRows.contains { abs($0 - Double(t)) < 2 } })
        let ruling = try #require(RulingFinder.ruling(lines, width: 450, height: 450, supportingRows: bandRows))
        #expect(ruling.rowCount == 9 && ruling.columnCount == 9)
    }

    /// A 1 × `n` comb `height` px tall with cells `cell` px wide: frame and dividers 2 px,
    /// every other divider inked over only `dividerShare` of the height (a gap in the middle).
    func comb(n: Int, cell: Int, height: Int, dividerShare: Double) -> (BinaryImage, Int) {
        let width = n * cell + 2
        var bits = [UInt8](repeating: 0, count: width * height)
        let gap = Int((1 - dividerShare) * Double(height))
        let gapStart = (height - gap) / 2
        for y in 0..<height {
            for x in 0..<width {
                let frame = y < 2 || y >= height - 2 || x < 2 || x >= width - 2
                // every other divider broken (when `dividerShare` < 1)
                let divider = x % cell < 2 && !((x / cell) % 2 == 1 && y >= gapStart && y < gapStart + gap)
                if frame || divider { bits[y * width + x] = 1 }
            }
        }
        return (BinaryImage(width: width, height: height, bits: bits), width)
    }

    @Test("Comb boxes narrowed to under 0.6 of their height (perspective) are a ruling when every divider is a strong line",
          arguments: [0.45, 0.55])
    func narrowCombCells(aspect: Double) throws {
        let cell = 30, height = Int(Double(cell) / aspect)
        let (b, width) = comb(n: 12, cell: cell, height: height, dividerShare: 1)
        let ruling = try #require(RulingFinder.ruling(FoundLines(in: b), width: width, height: height))
        #expect(ruling.columnCount == 12 && ruling.rowCount == 1)
        // control: with every other divider faint (inked over 75 % of the height, broken
        // in the middle, as digit strokes lining up would be) so narrow a ruling is not taken
        let (f, _) = comb(n: 12, cell: cell, height: height, dividerShare: 0.75)
        #expect(RulingFinder.ruling(FoundLines(in: f), width: width, height: height).map { $0.columnCount != 12 } ?? true)
    }
}
