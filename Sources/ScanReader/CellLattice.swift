import DocumentImaging
import ImagingCore

/// Grids whose lines bend (a page curling towards the spine, a sheet held by its corner):
/// no straight quad holds the grid and no single straightening lines it up, but its cells
/// are still found one by one, as quads of about one size lying side by side. Each cell's
/// neighbours, judged in the cell's own frame, give it its row and column, so the lattice
/// follows the bend however far it goes. The same holds for a comb whose outline was not
/// found (a shadow's edge across it): its boxes, found one by one, make a 1 × N lattice.
enum CellLattice {
    /// Cells found side by side, with their places.
    struct Lattice {
        let rows: Int, columns: Int
        /// Row-major cell quads in the working image: the found ones, and for the places
        /// where no quad was found, their side neighbours' moved by one step each, averaged.
        let cells: [Quadrilateral]
        /// The indices (into the candidates' quads) of the cells found.
        let members: [Int]

        /// The grid's outline: the outer corners of its corner cells.
        var outline: Quadrilateral {
            Quadrilateral(topLeft: cells[0].topLeft, topRight: cells[columns - 1].topRight,
                          bottomRight: cells[rows * columns - 1].bottomRight,
                          bottomLeft: cells[(rows - 1) * columns].bottomLeft)
        }
    }

    /// A lattice has at least this many rows and columns (two boxes side by side are no
    /// grid) — or is a comb (`shortestComb`).
    static let minimumSide = 3
    /// A lattice of one row (or column) is a comb when it has at least this many boxes
    /// and they share their dividers: each next box at most `combPitch` box widths on. A
    /// column of form boxes has labels between them, so they lie further apart.
    static let shortestComb = 3
    /// See `shortestComb`.
    static let combPitch = 1.25
    /// Share of its places where a cell was found.
    static let minimumFill = 0.6
    /// A neighbour's centre lies between these many cell widths away along the cell's
    /// axis (cell plus ruling; a sudoku's box line is at most about a third of a cell)…
    static let pitchRange = 0.85...1.6
    /// …and at most this many cell heights off it.
    static let crossOffset = 0.25
    /// Cells of one lattice are about one size: areas within this ratio.
    static let areaRatio = 2.0

    /// The lattices formed by `candidates` (indices into `quads`); with `twoLines`, also
    /// tables of two rows (or columns) whose boxes share their dividers like a comb's
    /// (`Layout.cellLattices` takes those only inside their own found outline).
    /// Complexity: O(n²) in the candidates.
    static func find(among candidates: [Int], quads: [Quadrilateral], twoLines: Bool = false) -> [Lattice] {
        let n = candidates.count
        guard n >= shortestComb else { return [] }
        let q = candidates.map { quads[$0] }
        // each cell's own axes: across (left → right) and down (top → bottom)
        let across = q.map { Point(($0.topRight.x - $0.topLeft.x + $0.bottomRight.x - $0.bottomLeft.x) / 2,
                                   ($0.topRight.y - $0.topLeft.y + $0.bottomRight.y - $0.bottomLeft.y) / 2) }
        let down = q.map { Point(($0.bottomLeft.x - $0.topLeft.x + $0.bottomRight.x - $0.topRight.x) / 2,
                                 ($0.bottomLeft.y - $0.topLeft.y + $0.bottomRight.y - $0.topRight.y) / 2) }
        let centres = q.map(\.center), areas = q.map(\.area)
        // the step (rows, columns) from a to b seen in a's frame, if b is a's neighbour
        func step(_ a: Int, _ b: Int) -> (Int, Int)? {
            guard max(areas[a], areas[b]) < areaRatio * min(areas[a], areas[b]) else { return nil }
            let d = Point(centres[b].x - centres[a].x, centres[b].y - centres[a].y)
            let u = across[a], v = down[a]
            let det = u.x * v.y - u.y * v.x
            guard abs(det) > 1e-9 else { return nil }
            let s = (d.x * v.y - d.y * v.x) / det, t = (u.x * d.y - u.y * d.x) / det
            if pitchRange.contains(abs(s)) && abs(t) < crossOffset { return (0, s > 0 ? 1 : -1) }
            if pitchRange.contains(abs(t)) && abs(s) < crossOffset { return (t > 0 ? 1 : -1, 0) }
            return nil
        }
        var edges = [[(Int, Int, Int)]](repeating: [], count: n)
        for a in 0..<n {
            for b in (a + 1)..<n {
                // neighbours both ways: each sees the other one step away, opposite
                guard let ab = step(a, b), let ba = step(b, a), ab.0 == -ba.0, ab.1 == -ba.1 else { continue }
                edges[a].append((b, ab.0, ab.1))
                edges[b].append((a, ba.0, ba.1))
            }
        }
        var place = [(Int, Int)?](repeating: nil, count: n)
        var lattices: [Lattice] = []
        for seed in 0..<n where place[seed] == nil && !edges[seed].isEmpty {
            place[seed] = (0, 0)
            var component = [seed], queue = [seed], consistent = true
            while let a = queue.popLast() {
                let (r, c) = place[a]!
                for (b, dr, dc) in edges[a] {
                    if let p = place[b] {
                        if p != (r + dr, c + dc) { consistent = false }
                    } else {
                        place[b] = (r + dr, c + dc)
                        component.append(b)
                        queue.append(b)
                    }
                }
            }
            guard consistent, let lattice = lattice(component, place: place, quads: q, candidates: candidates,
                                                    twoLines: twoLines) else { continue }
            lattices.append(lattice)
        }
        return lattices
    }

    /// The lattice of one connected group of cells, or nil when it is too small, too
    /// sparse, or two cells claim one place.
    static func lattice(_ component: [Int], place: [(Int, Int)?], quads: [Quadrilateral], candidates: [Int],
                        twoLines: Bool = false) -> Lattice? {
        let r0 = component.map { place[$0]!.0 }.min()!, c0 = component.map { place[$0]!.1 }.min()!
        let rows = component.map { place[$0]!.0 }.max()! - r0 + 1
        let columns = component.map { place[$0]!.1 }.max()! - c0 + 1
        // a comb, or a table of two lines: boxes that must share their dividers
        let sharesDividers = rows == 1 || columns == 1 || (twoLines && min(rows, columns) == 2)
        guard sharesDividers ? max(rows, columns) >= shortestComb : rows >= minimumSide && columns >= minimumSide,
              Double(component.count) >= minimumFill * Double(rows * columns) else { return nil }
        var at = [Int?](repeating: nil, count: rows * columns)
        for k in component {
            let i = (place[k]!.0 - r0) * columns + place[k]!.1 - c0
            guard at[i] == nil else { return nil }
            at[i] = k
        }
        // the median step between found neighbours across and down
        func pitch(_ pairs: [(Point, Point)]) -> Point? {
            guard !pairs.isEmpty else { return nil }
            let xs = pairs.map { $0.1.x - $0.0.x }.sorted(), ys = pairs.map { $0.1.y - $0.0.y }.sorted()
            return Point(xs[xs.count / 2], ys[ys.count / 2])
        }
        var acrossPairs: [(Point, Point)] = [], downPairs: [(Point, Point)] = []
        for r in 0..<rows {
            for c in 0..<columns {
                guard let a = at[r * columns + c] else { continue }
                if c + 1 < columns, let b = at[r * columns + c + 1] { acrossPairs.append((quads[a].center, quads[b].center)) }
                if r + 1 < rows, let b = at[(r + 1) * columns + c] { downPairs.append((quads[a].center, quads[b].center)) }
            }
        }
        if sharesDividers {
            // boxes sharing their dividers, along each line and across two: the next one
            // about a box on, measured by the two boxes' mean side that way (perspective
            // grows them along the comb); the median over the comb, as a box cut short by
            // a shadow's edge sits off its place
            func side(_ k: Int, across: Bool) -> Double {
                across ? Polygon.distance(quads[k].topLeft, quads[k].topRight)
                       : Polygon.distance(quads[k].topLeft, quads[k].bottomLeft)
            }
            var pitches: [Double] = []
            for lineAcross in [true, false] {
                let (lines, length) = lineAcross ? (rows, columns) : (columns, rows)
                for line in 0..<lines {
                    let found = (0..<length).compactMap { k in lineAcross ? at[line * columns + k] : at[k * columns + line] }
                    pitches += zip(found, found.dropFirst()).map { a, b in
                        let apart = Double(abs(place[b]!.0 - place[a]!.0) + abs(place[b]!.1 - place[a]!.1))
                        return Polygon.distance(quads[a].center, quads[b].center)
                            / (apart * (side(a, across: lineAcross) + side(b, across: lineAcross)) / 2)
                    }
                }
            }
            pitches.sort()
            guard !pitches.isEmpty, pitches[pitches.count / 2] <= combPitch else { return nil }
        }
        // a comb has no step across its one row or column: never taken
        guard let stepAcross = pitch(acrossPairs) ?? (columns == 1 ? Point(0, 0) : nil),
              let stepDown = pitch(downPairs) ?? (rows == 1 ? Point(0, 0) : nil) else { return nil }
        func found(_ r: Int, _ c: Int) -> Quadrilateral? {
            guard r >= 0, c >= 0, r < rows, c < columns, let k = at[r * columns + c] else { return nil }
            return quads[k]
        }
        func moved(_ q: Quadrilateral, _ d: Point) -> [Point] { q.corners.map { Point($0.x + d.x, $0.y + d.y) } }
        var cells: [Quadrilateral] = []
        for r in 0..<rows {
            for c in 0..<columns {
                if let q = found(r, c) { cells.append(q); continue }
                // each found side neighbour moved one step back, by its own step to the cell
                // beyond it where that one is found (a bend changes the step along the
                // grid), else the median; the estimates averaged
                var estimates: [[Point]] = []
                for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                    guard let near = found(r + dr, c + dc) else { continue }
                    let median = Point(-Double(dc) * stepAcross.x - Double(dr) * stepDown.x,
                                       -Double(dc) * stepAcross.y - Double(dr) * stepDown.y)
                    let step = found(r + 2 * dr, c + 2 * dc).map {
                        Point(near.center.x - $0.center.x, near.center.y - $0.center.y)
                    } ?? median
                    estimates.append(moved(near, step))
                }
                if estimates.isEmpty {   // no side neighbour: the nearest found cell, median steps
                    let nearest = at.indices.filter { at[$0] != nil }.min { a, b in
                        abs(a / columns - r) + abs(a % columns - c) < abs(b / columns - r) + abs(b % columns - c)
                    }!
                    let dr = Double(r - nearest / columns), dc = Double(c - nearest % columns)
                    estimates.append(moved(quads[at[nearest]!], Point(dc * stepAcross.x + dr * stepDown.x,
                                                                      dc * stepAcross.y + dr * stepDown.y)))
                }
                let mean = (0..<4).map { k in
                    Point(estimates.map { $0[k].x }.reduce(0, +) / Double(estimates.count),
                          estimates.map { $0[k].y }.reduce(0, +) / Double(estimates.count))
                }
                cells.append(Quadrilateral(topLeft: mean[0], topRight: mean[1], bottomRight: mean[2], bottomLeft: mean[3]))
            }
        }
        return Lattice(rows: rows, columns: columns, cells: cells, members: component.map { candidates[$0] })
    }

    /// Each cell straightened into a tile of `tile` px, a little beyond its own edges
    /// (digits written into the ruling stay whole; the ruling caught at the tile's edge
    /// is stripped like any grid's): one image ruled every `tile` px, read as a grid.
    /// Returns the image, its ruling and the quads the tiles were cut from.
    static func mosaic(_ lattice: Lattice, in image: GrayImage, tile: Int) -> (GrayImage, Ruling, [Quadrilateral])? {
        var out = GrayImage(width: lattice.columns * tile, height: lattice.rows * tile, fill: 255)
        var cut: [Quadrilateral] = []
        for (k, cell) in lattice.cells.enumerated() {
            let c = cell.center
            let grown = cell.corners.map { Point(c.x + (1 + 2 * tileMargin) * ($0.x - c.x), c.y + (1 + 2 * tileMargin) * ($0.y - c.y)) }
            let quad = Quadrilateral(topLeft: grown[0], topRight: grown[1], bottomRight: grown[2], bottomLeft: grown[3])
            guard let piece = image.rectified(quad, width: tile, height: tile) else { return nil }
            let x0 = (k % lattice.columns) * tile, y0 = (k / lattice.columns) * tile
            for y in 0..<tile { for x in 0..<tile { out[x0 + x, y0 + y] = piece[x, y] } }
            cut.append(quad)
        }
        let ruling = Ruling(rows: (0...lattice.rows).map { Double($0 * tile) },
                            columns: (0...lattice.columns).map { Double($0 * tile) })
        return (out, ruling, cut)
    }

    /// How far past its own edges a cell is cut, as a share of its side.
    static let tileMargin = 0.08
    /// Tiles are cut at the cells' own size within these bounds (px): a crop needs some
    /// pixels, and more than a 28 px classifier input plus margin buys nothing.
    static let smallestTile = 24, largestTile = 64
}
