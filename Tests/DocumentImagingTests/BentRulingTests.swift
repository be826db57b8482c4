@testable import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// Ruling lines followed where a page bends them (`BentRuling`), on literal ink images of
/// a 9 × 9 grid whose horizontal lines sag and whose vertical lines lean.
@Suite("Bent ruling lines")
struct BentRulingTests {
    /// The grid drawn: cell `pitch` px, `margin` px of paper around, lines `thickness`
    /// px thick. Horizontal line r runs at y = margin + r·pitch + sag·sin(π·x/width)
    /// (a page curling: deepest mid-page); vertical line c at x = margin + c·pitch +
    /// lean·(y − margin)/(9·pitch) (an outline found off the frame at one corner).
    struct Grid {
        let pitch = 44, margin = 20
        var thickness = 3
        var sag = 0.0, lean = 0.0
        var side: Int { 2 * margin + 9 * pitch }
        /// The straight ruling the grid's outline gives.
        var ruling: Ruling {
            let lines = (0...9).map { Double(margin + $0 * pitch) }
            return Ruling(rows: lines, columns: lines)
        }
        func rowLine(_ r: Int, at x: Double) -> Double {
            Double(margin + r * pitch) + sag * sin(Double.pi * x / Double(side))
        }
        func columnLine(_ c: Int, at y: Double) -> Double {
            Double(margin + c * pitch) + lean * (y - Double(margin)) / Double(9 * pitch)
        }
        /// Where lines r and c cross (found by iterating the two curves).
        func crossing(_ r: Int, _ c: Int) -> Point {
            var p = Point(Double(margin + c * pitch), Double(margin + r * pitch))
            for _ in 0..<20 { p = Point(columnLine(c, at: p.y), rowLine(r, at: p.x)) }
            return p
        }
        func ink() -> BinaryImage {
            var bits = [UInt8](repeating: 0, count: side * side)
            let half = Double(thickness) / 2
            for y in 0..<side {
                for x in 0..<side {
                    let px = Double(x) + 0.5, py = Double(y) + 0.5
                    let onRow = (0...9).contains { abs(py - rowLine($0, at: px)) < half }
                        && px >= Double(margin) - half && px <= Double(margin + 9 * pitch) + half + lean
                    let onColumn = (0...9).contains { abs(px - columnLine($0, at: py)) < half }
                        && py >= Double(margin) - half - sag && py <= Double(margin + 9 * pitch) + half + sag
                    if onRow || onColumn { bits[y * side + x] = 1 }
                }
            }
            return BinaryImage(width: side, height: side, bits: bits)
        }
    }

    /// The largest distance, px, between a crossing found and the true one.
    func worstError(_ bent: BentRuling, _ grid: Grid) -> Double {
        var worst = 0.0
        for r in 0...9 {
            for c in 0...9 {
                let found = bent.corners[r][c], want = grid.crossing(r, c)
                worst = max(worst, abs(found.x - want.x), abs(found.y - want.y))
            }
        }
        return worst
    }

    @Test("A sagging, leaning grid is followed to within 2 px, bends up to a third of a cell, across line widths",
          arguments: [0.1, 0.2, 0.3], [1, 3, 5])
    func followsBends(share: Double, thickness: Int) {
        var grid = Grid()
        grid.thickness = thickness
        grid.sag = share * Double(grid.pitch)
        grid.lean = -share * Double(grid.pitch)
        let bent = BentRuling(following: grid.ruling, in: grid.ink())
        #expect(worstError(bent, grid) <= 2)
        #expect(bent.largestShift >= share * 0.8)
    }

    @Test("A straight grid stays straight")
    func straightStaysStraight() {
        let bent = BentRuling(following: Grid().ruling, in: Grid().ink())
        #expect(bent.largestShift < 0.02)
    }

    @Test("Control: digits' bars beside the lines and a shadow's band over a corner move no line")
    func strokesAndShadowsAreNoLines() {
        let grid = Grid()
        var ink = grid.ink()
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in y0..<y1 { for x in x0..<x1 { ink.bits[y * ink.width + x] = 1 } }
        }
        // a 7's top bar in every cell of the first four rows, a fifth of a cell below its
        // top line and three fifths of a cell wide
        for r in 0..<4 {
            for c in 0..<9 {
                let x = grid.margin + c * grid.pitch, y = grid.margin + r * grid.pitch
                paint(x + grid.pitch / 5, y + grid.pitch / 5, x + 4 * grid.pitch / 5, y + grid.pitch / 5 + 3)
            }
        }
        // a dark band across the lower right corner
        paint(grid.margin + 6 * grid.pitch + 10, grid.margin + 7 * grid.pitch + 10, ink.width, ink.height)
        let bent = BentRuling(following: grid.ruling, in: ink)
        #expect(bent.largestShift < 0.05)
    }

    @Test("Lines found in too few spans (a scrawl over a blank grid) bend nothing")
    func tooFewSpans() {
        let grid = Grid()
        var bits = [UInt8](repeating: 0, count: grid.side * grid.side)
        // only the top line, in three spans
        for x in grid.margin..<(grid.margin + 3 * grid.pitch) { for y in 24..<27 { bits[y * grid.side + x] = 1 } }
        let bent = BentRuling(following: grid.ruling, in: BinaryImage(width: grid.side, height: grid.side, bits: bits))
        #expect(bent.largestShift == 0)
    }

    @Test("Unbending moves a cell's content back into its straight cell, and bentPoint maps back")
    func unbending() {
        var grid = Grid()
        grid.sag = 0.25 * Double(grid.pitch)
        let bent = BentRuling(following: grid.ruling, in: grid.ink())
        // a dot in the middle of cell (4, 4) as the page holds it
        let middle = grid.crossing(4, 4), far = grid.crossing(5, 5)
        let centre = Point((middle.x + far.x) / 2, (middle.y + far.y) / 2)
        var gray = GrayImage(width: grid.side, height: grid.side, fill: 255)
        for y in Int(centre.y) - 2...Int(centre.y) + 2 { for x in Int(centre.x) - 2...Int(centre.x) + 2 { gray[x, y] = 0 } }
        let straight = gray.unbent(bent)
        let cellMiddle = Double(grid.margin) + 4.5 * Double(grid.pitch)
        // the dot's darkness is now at the straight cell's middle, not where it was
        #expect(straight[Int(cellMiddle), Int(cellMiddle)] < 128)
        #expect(abs(centre.y - cellMiddle) > 8)
        let back = bent.bentPoint(Point(cellMiddle, cellMiddle))
        #expect(abs(back.x - centre.x) <= 1.5 && abs(back.y - centre.y) <= 1.5)
    }

    @Test("Turned a quarter, a bend maps the turned points as the unturned one maps the points",
          arguments: [1, 2, 3])
    func turning(quarters: Int) {
        var grid = Grid()
        grid.sag = 0.2 * Double(grid.pitch)
        grid.lean = 0.15 * Double(grid.pitch)
        var bent = BentRuling(following: grid.ruling, in: grid.ink())
        var height = grid.side, width = grid.side
        // a point inside the grid, and the turn applied to points as to the image
        var p = Point(Double(grid.margin) + 3.3 * Double(grid.pitch), Double(grid.margin) + 6.6 * Double(grid.pitch))
        var mapped = bent.bentPoint(p)
        for _ in 0..<quarters {
            let h = Double(height)
            bent = bent.turnedClockwise(height: height)
            p = Point(h - p.y, p.x)
            mapped = Point(h - mapped.y, mapped.x)
            swap(&height, &width)
        }
        let again = bent.bentPoint(p)
        #expect(abs(again.x - mapped.x) < 1e-6 && abs(again.y - mapped.y) < 1e-6)
    }

    @Test("Degenerate rulings and blank ink: straight, no crash")
    func degenerate() {
        let blank = BinaryImage(width: 40, height: 40, bits: [UInt8](repeating: 0, count: 1600))
        for ruling in [Ruling(rows: [0, 40], columns: [0, 40]), Ruling(rows: [5], columns: [0, 20, 40]),
                       Ruling(rows: [0, 0, 0], columns: [0, 0]), Ruling(rows: [0, 2, 4], columns: [0, 2, 4])] {
            let bent = BentRuling(following: ruling, in: blank)
            #expect(bent.largestShift == 0)
        }
    }
}
