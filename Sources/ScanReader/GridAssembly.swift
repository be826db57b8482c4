import DocumentImaging
import ImagingCore

extension Layout {
    /// Grids put together from their parts. A quad with no ruling of its own (a shadow
    /// or glare hides some of its lines) that holds two or more small grids (its boxes, found
    /// where the light was good) borrows their lines: mapped into it, they may stand in
    /// for lines it did not find, and if the lot divides evenly into more cells than
    /// any part has, the quad becomes the grid and the parts give way.
    func assembleGrids(_ c: inout LayoutCandidates) {
        for i in c.quads.indices where !c.isGrid(i) {
            guard let g = c.rectified[i], let own = c.foundLines[i], !c.liesInGrid(i) else { continue }
            let parts = c.quads.indices.filter { c.isGrid($0) && c.ancestors($0).contains(i) }
            // a part of trusted size is a whole grid already, not a box of a larger one
            guard parts.count >= 2, parts.allSatisfy({ c.rulings[$0]!.cellCount < Self.trustedCellCount }),
                  let lines = borrowedLines(from: parts, of: c, into: c.quads[i].quad, width: g.width, height: g.height)
            else { continue }
            let largestPart = parts.map { c.rulings[$0]!.cellCount }.max()!
            guard let ruling = RulingFinder.ruling(own, width: g.width, height: g.height,
                                                   supportingRows: lines.rows, supportingColumns: lines.columns),
                  ruling.cellCount > largestPart, Self.agrees(ruling, with: lines),
                  Self.cellsLookBlank(Self.ink(of: g), ruling) else { continue }
            for j in parts { c.dropGrid(j) }
            c.takeGrid(i, ruling: ruling)
        }
    }

    /// Grids put together from neighbouring boxes that no detected quad encloses (the
    /// grid's frame merged with print around it, so its border failed the quad test):
    /// small grids of about one size that share sides are mapped into the plane of the
    /// largest of them, and the rectangle around them all there is a new quad. If it is
    /// ruled into at least as many cells as its parts hold together (their lines helping)
    /// and nine in ten of their lines lie on its own, it becomes the grid, the parts give
    /// way, and quads inside it are nested in it.
    func assembleNeighbours(_ c: inout LayoutCandidates, in image: GrayImage) {
        let small = c.rulings.keys.filter { c.rulings[$0]!.cellCount < Self.trustedCellCount && !c.quads[$0].followsImageFrame }
        for cluster in Self.neighbourClusters(small.sorted(), c.quads.map(\.quad)) where cluster.count >= 2 {
            let partCells = cluster.map { c.rulings[$0]!.cellCount }
            guard let (around, g, ruling) = ruledAround(cluster, of: c, in: image,
                                                        accepting: { $0.cellCount >= partCells.reduce(0, +) && $0.cellCount > partCells.max()! })
            else { continue }
            for j in cluster { c.dropGrid(j) }
            _ = c.addGrid(around, straightened: g, ruling: ruling)
        }
    }

    /// Grids put together from parts of one grid that a hard shadow's edge cut apart: two
    /// grids of any size with as many columns (rows), one above (beside) the other, whose
    /// sides continue each other's (`continues`) — the part in the shadow between them,
    /// or overlapping both, was found as neither. The rectangle around the two in the
    /// plane of the larger is ruled with their lines' help; when it has their columns
    /// (rows) and more rows (columns) than either, and nine in ten of their lines lie on
    /// its own, it is the grid: the two and any grid centred inside it give way.
    func assembleStacked(_ c: inout LayoutCandidates, in image: GrayImage) {
        let grids = c.rulings.keys.filter { !c.quads[$0].followsImageFrame }.sorted()
        for (k, a) in grids.enumerated() {
            for b in grids[(k + 1)...] {
                guard let ra = c.rulings[a], let rb = c.rulings[b] else { continue }
                let quads = c.quads
                let stacked = ra.columnCount == rb.columnCount && ra.columnCount >= 2
                    && Self.continues(quads[a].quad, quads[b].quad, alongColumns: true, cells: ra.columnCount)
                let sideBySide = ra.rowCount == rb.rowCount && ra.rowCount >= 2
                    && Self.continues(quads[a].quad, quads[b].quad, alongColumns: false, cells: ra.rowCount)
                guard stacked || sideBySide else { continue }
                guard let (around, g, ruling) = ruledAround([a, b], of: c, in: image, accepting: { r in
                    stacked ? r.columnCount == ra.columnCount && r.rowCount > max(ra.rowCount, rb.rowCount)
                            : r.rowCount == ra.rowCount && r.columnCount > max(ra.columnCount, rb.columnCount)
                }) else { continue }
                // (nesting the new grid moves no quad: the grids giving way are the same before)
                for j in c.rulings.keys where j == a || j == b || around.contains(c.quads[j].quad.center) {
                    c.dropGrid(j)
                }
                _ = c.addGrid(around, straightened: g, ruling: ruling)
            }
        }
    }

    /// The rectangle around grids `parts` in the plane of the largest, straightened and
    /// ruled with their lines' help, when its ruling passes `accepting`, nine in ten of the
    /// parts' lines lie on its own (`agrees`) and its cells look blank enough to be cells;
    /// else nil.
    func ruledAround(_ parts: [Int], of c: LayoutCandidates, in image: GrayImage,
                     accepting: (Ruling) -> Bool) -> (Quadrilateral, GrayImage, Ruling)? {
        let quads = c.quads
        let reference = parts.max { quads[$0].quad.area < quads[$1].quad.area }!
        guard let around = Self.rectangleAround(parts.map { quads[$0].quad }, inPlaneOf: quads[reference].quad),
              around.corners.allSatisfy({ $0.x > -2 && $0.y > -2 && $0.x < Double(image.width + 1) && $0.y < Double(image.height + 1) }),
              let g = straighten(around, in: image),
              let lines = borrowedLines(from: parts, of: c, into: around, width: g.width, height: g.height)
        else { return nil }
        let own = FoundLines(in: g.binarizedAgainstPaper(darkness: g.darkness()))
        guard let ruling = RulingFinder.ruling(own, width: g.width, height: g.height,
                                               supportingRows: lines.rows, supportingColumns: lines.columns),
              accepting(ruling), Self.agrees(ruling, with: lines), Self.cellsLookBlank(Self.ink(of: g), ruling)
        else { return nil }
        return (around, g, ruling)
    }

    /// Whether `b` lies on from `a` along its columns (`alongColumns`: its left and right
    /// sides run on along the lines of `a`'s) or along its rows (its top and bottom), each
    /// of `b`'s corners on those sides within a fifth of one of `a`'s `cells` across of
    /// the line through `a`'s side, and `b` not inside `a`.
    static func continues(_ a: Quadrilateral, _ b: Quadrilateral, alongColumns: Bool, cells: Int) -> Bool {
        let sides: [(Point, Point, [Point])] = alongColumns
            ? [(a.topLeft, a.bottomLeft, [b.topLeft, b.bottomLeft]), (a.topRight, a.bottomRight, [b.topRight, b.bottomRight])]
            : [(a.topLeft, a.topRight, [b.topLeft, b.topRight]), (a.bottomLeft, a.bottomRight, [b.bottomLeft, b.bottomRight])]
        let across = alongColumns ? Polygon.distance(a.topLeft, a.topRight) : Polygon.distance(a.topLeft, a.bottomLeft)
        let tolerance = continuedSideShare * across / Double(cells)
        func offLine(_ p: Point, _ s: Point, _ e: Point) -> Double {
            let dx = e.x - s.x, dy = e.y - s.y, length = (dx * dx + dy * dy).squareRoot()
            return length > 0 ? abs((p.x - s.x) * dy - (p.y - s.y) * dx) / length : .infinity
        }
        guard !a.contains(b.center), !b.contains(a.center) else { return false }
        return sides.allSatisfy { s, e, points in points.allSatisfy { offLine($0, s, e) <= tolerance } }
    }

    /// See `continues`: a fifth of a cell (a side found a line's width off, a little
    /// perspective between the parts).
    static let continuedSideShare = 0.2

    /// Adds `quad` to `quads` nested like a detected one: inside the smallest larger quad
    /// holding its centre, and around the quads whose centres it holds that are not
    /// already inside something within it (so a parent chain never loops back). Returns
    /// its index.
    static func nest(_ quad: Quadrilateral, into quads: inout [DetectedQuad]) -> Int {
        let n = quads.count
        let parent = quads.indices.filter { quads[$0].quad.area > quad.area && quads[$0].quad.contains(quad.center) }
            .min { quads[$0].quad.area < quads[$1].quad.area }
        var above = Set<Int>(), p = parent
        while let q = p, above.insert(q).inserted { p = quads[q].parent }
        quads.append(DetectedQuad(quad: quad, parent: parent, isHole: false, followsImageFrame: false))
        for j in 0..<n where !above.contains(j) && quads[j].quad.area < quad.area && quad.contains(quads[j].quad.center)
            && quads[j].parent.map({ above.contains($0) }) ?? true {
            quads[j].parent = n
        }
        return n
    }

    /// Groups of quads joined by shared sides (two corners of one within
    /// `sharedCornerShare` of the shorter side of two corners of the other) and of about
    /// one size (areas within `neighbourAreaRatio` of each other).
    static func neighbourClusters(_ members: [Int], _ quads: [Quadrilateral]) -> [[Int]] {
        var group = Dictionary(uniqueKeysWithValues: members.map { ($0, $0) })
        func root(_ i: Int) -> Int { var r = i; while group[r]! != r { r = group[r]! }; return r }
        for (k, a) in members.enumerated() {
            for b in members[(k + 1)...] {
                let qa = quads[a], qb = quads[b]
                guard max(qa.area, qb.area) < Self.neighbourAreaRatio * min(qa.area, qb.area) else { continue }
                let tolerance = Self.sharedCornerShare * min(qa.shortestSide, qb.shortestSide)
                let shared = qa.corners.filter { p in qb.corners.contains { Polygon.distance(p, $0) < tolerance } }
                if shared.count >= 2 { group[root(a)] = root(b) }
            }
        }
        return Dictionary(grouping: members, by: root).values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    /// See `neighbourClusters`: boxes of one grid are of about one size (a 3×3 box and its
    /// neighbour whose outline took in a margin differ by far less).
    static let neighbourAreaRatio = 2.5
    /// See `neighbourClusters`: two boxes share a corner within this share of the shorter
    /// one's side (the line between them, and a little perspective).
    static let sharedCornerShare = 0.15
    /// See `rectangleAround`: the margin added on every side, as a share of the
    /// rectangle's width (height): boxes found as holes end inside the frame's lines.
    static let assembledMargin = 0.04
    /// See `agrees`: the share of the parts' lines that must lie on the assembled ruling.
    static let agreeingLineShare = 0.9

    /// The quad that, in the plane of `reference` (straightened), is the rectangle
    /// around all of `quads`' corners with `assembledMargin`; nil when the plane cannot be set up.
    static func rectangleAround(_ quads: [Quadrilateral], inPlaneOf reference: Quadrilateral) -> Quadrilateral? {
        let (w, h) = reference.rectifiedSize
        guard let toImage = Homography(straightening: reference, width: w, height: h),
              let toPlane = toImage.inverted else { return nil }
        let points = quads.flatMap(\.corners).map { toPlane.apply($0) }
        var x0 = points.map(\.x).min()!, x1 = points.map(\.x).max()!
        var y0 = points.map(\.y).min()!, y1 = points.map(\.y).max()!
        // boxes found as holes end inside the frame's lines: take those in too
        let mx = assembledMargin * (x1 - x0), my = assembledMargin * (y1 - y0)
        x0 -= mx; x1 += mx; y0 -= my; y1 += my
        return Quadrilateral(topLeft: toImage.apply(Point(x0, y0)), topRight: toImage.apply(Point(x1, y0)),
                             bottomRight: toImage.apply(Point(x1, y1)), bottomLeft: toImage.apply(Point(x0, y1)))
    }

    /// Whether `agreeingLineShare` of the parts' lines lie on the assembled ruling's lines
    /// (within `RulingFinder.lineTolerance` of a cell): the parts are its boxes, not a
    /// pattern it merely spans.
    static func agrees(_ ruling: Ruling, with borrowed: (rows: [Double], columns: [Double])) -> Bool {
        func share(_ lines: [Double], on ruled: [Double]) -> Double {
            let cell = (ruled.last! - ruled.first!) / Double(ruled.count - 1)
            return Double(lines.filter { l in ruled.contains { abs($0 - l) < RulingFinder.lineTolerance * cell } }.count)
                / Double(max(1, lines.count))
        }
        return share(borrowed.rows, on: ruling.rows) >= agreeingLineShare
            && share(borrowed.columns, on: ruling.columns) >= agreeingLineShare
    }

    /// The ruling lines of grids `parts` of `c` (each as straightened there), mapped into
    /// the straightened `quad` of width × height: rows as y, columns as x.
    func borrowedLines(from parts: [Int], of c: LayoutCandidates, into quad: Quadrilateral,
                       width: Int, height: Int) -> (rows: [Double], columns: [Double])? {
        guard let intoQuad = Homography(straightening: quad, width: width, height: height)?.inverted else { return nil }
        var rows: [Double] = [], columns: [Double] = []
        for j in parts {
            guard let r = c.rulings[j], let pg = c.rectified[j],
                  let toImage = Homography(straightening: c.quads[j].quad, width: pg.width, height: pg.height) else { continue }
            let map = { (p: Point) in intoQuad.apply(toImage.apply(p)) }
            let x0 = r.columns.first!, x1 = r.columns.last!, y0 = r.rows.first!, y1 = r.rows.last!
            for y in r.rows { rows.append((map(Point(x0, y)).y + map(Point(x1, y)).y) / 2) }
            for x in r.columns { columns.append((map(Point(x, y0)).x + map(Point(x, y1)).x) / 2) }
        }
        return (rows, columns)
    }
}
