import DocumentImaging
import ImagingCore

/// Where a grid's frame is: a quad may run past it (taking in a strip of the sheet below
/// or of a shadow), the threshold may join it to such a strip, and digits' uprights in a
/// long box may pass for a comb's dividers. Each check compares the ruling with the lines
/// found at its borders.
extension Layout {
    /// A line is at a ruling position when found within this share of a cell of it (as
    /// `RulingFinder.evenDivision` places lines).
    static let lineTolerance = 0.2

    /// `ruling` (of the grid quad straightened to width × height) without the outer rows
    /// and columns in which none of the cells found as boxes inside it lies, when those
    /// cells form a lattice (`CellLattice`) of the ruling's cell size holding half its
    /// cells or more, one row or column fewer than the ruling (at most), spanning exactly
    /// the rows and columns kept; nil when nothing is trimmed.
    static func trimmed(_ ruling: Ruling, toCellsOf lattice: CellLattice.Lattice, quads: [DetectedQuad],
                        gridQuad: Quadrilateral, width: Int, height: Int,
                        ink makeInk: () -> BinaryImage) -> Ruling? {
        guard lattice.rows < ruling.rowCount || lattice.columns < ruling.columnCount,
              // the cells of one box of a puzzle are a lattice too: only a lattice
              // holding most of the ruling's cells, one row or column short at most, speaks
              ruling.rowCount - lattice.rows <= 1, ruling.columnCount - lattice.columns <= 1,
              2 * lattice.members.count >= ruling.cellCount,
              let toPlane = Homography(straightening: gridQuad, width: width, height: height)?.inverted else { return nil }
        // the lattice must be of the ruling's cells (not, say, a puzzle's 3×3 boxes):
        // its boxes, in the grid's plane, a cell's size give or take the ruling's width
        let cellArea = (ruling.columns.last! - ruling.columns.first!) * (ruling.rows.last! - ruling.rows.first!)
            / Double(ruling.cellCount)
        let ratios = lattice.members.map { m in
            Polygon.signedArea(quads[m].quad.corners.map(toPlane.apply)).magnitude / cellArea
        }.sorted()
        guard Self.latticeCellArea.contains(ratios[ratios.count / 2]) else { return nil }
        var rowHits = [Int](repeating: 0, count: ruling.rowCount), columnHits = [Int](repeating: 0, count: ruling.columnCount)
        for m in lattice.members {
            let p = toPlane.apply(quads[m].quad.center)
            if let r = ruling.rows.indices.dropLast().first(where: { ruling.rows[$0] <= p.y && p.y < ruling.rows[$0 + 1] }) { rowHits[r] += 1 }
            if let c = ruling.columns.indices.dropLast().first(where: { ruling.columns[$0] <= p.x && p.x < ruling.columns[$0 + 1] }) { columnHits[c] += 1 }
        }
        // the rows (columns) holding the lattice's cells must be exactly as many as its;
        // the ones outside them, holding none of its cells, must hold no ink either (a
        // row of digits written over their boxes' lines has no closed boxes)
        var ink: BinaryImage?
        func blank(_ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Bool {
            if ink == nil { ink = makeInk() }
            return (innerInk(ink!, x: x0...x1, y: y0...y1) ?? 0) < Self.blankInk
        }
        func trim(_ lines: [Double], _ hits: [Int], span: Int, horizontal: Bool) -> [Double]? {
            guard let lo = hits.firstIndex(where: { $0 > 0 }), let hi = hits.lastIndex(where: { $0 > 0 }),
                  hi - lo + 1 == span else { return nil }
            let dropped = Array(0..<lo) + Array((hi + 1)..<hits.count)
            let across = horizontal ? ruling.columns : ruling.rows
            for k in dropped {
                for j in 0..<(across.count - 1) {
                    let isBlank = horizontal ? blank(across[j], across[j + 1], lines[k], lines[k + 1])
                        : blank(lines[k], lines[k + 1], across[j], across[j + 1])
                    if !isBlank { return nil }
                }
            }
            return Array(lines[lo...(hi + 1)])
        }
        guard let rows = trim(ruling.rows, rowHits, span: lattice.rows, horizontal: true),
              let columns = trim(ruling.columns, columnHits, span: lattice.columns, horizontal: false),
              rows.count != ruling.rows.count || columns.count != ruling.columns.count else { return nil }
        return Ruling(rows: rows, columns: columns)
    }

    /// How far (a share of the cell pitch) a corner of the grid's frame (`FrameFit`) may
    /// lie from where the straight ruling puts it before the grid is straightened again
    /// along its frame: past a quarter of a cell, cells cut straight take in their
    /// neighbours' digits at that end.
    static let reframeShift = 0.25
    /// How much of the photo around a grid (a share of the cell pitch) its frame is looked
    /// for with: the ink along the quad's edge is thresholded, and told line or shade's
    /// rim, with what lies beyond the edge in view.
    static let frameMargin = 0.25

    /// The grid in `quad` straightened again along its frame, when the frame's corners
    /// (`FrameFit`, in `g` straightened again with `frameMargin` of the photo around) lie
    /// more than `reframeShift` of a cell from the straight `ruling`'s: the new quad, its
    /// straightening, ruling, lines and ink. nil when the frame is where the ruling is, is
    /// not found, or the grid straightened along it divides into other cells than `ruling`
    /// (or holds no blank cells).
    func reframed(_ quad: Quadrilateral, straightened g: GrayImage, ruling: Ruling,
                  in image: GrayImage) -> (Quadrilateral, GrayImage, Ruling, FoundLines, BinaryImage)? {
        let pitch = BentRuling.pitch(of: ruling)
        guard let toImage = Homography(straightening: quad, width: g.width, height: g.height) else { return nil }
        // pixel edges in, pixel edges out: corners are pixel centres
        func imagePoint(_ p: Point) -> Point { let q = toImage.apply(p); return Point(q.x - 0.5, q.y - 0.5) }
        // straightened again with a margin, the same scale (the homography extended), so a
        // line along the quad's edge shows what lies beyond it
        let m = max(2, Int((Self.frameMargin * pitch).rounded()))
        let w = Double(g.width), h = Double(g.height), md = Double(m)
        let widened = [Point(-md, -md), Point(w + md, -md), Point(w + md, h + md), Point(-md, h + md)].map(imagePoint)
        guard let wide = image.rectified(Quadrilateral(topLeft: widened[0], topRight: widened[1], bottomRight: widened[2],
                                                       bottomLeft: widened[3]), width: g.width + 2 * m, height: g.height + 2 * m),
              let found = FrameFit.corners(of: Ruling(rows: ruling.rows.map { $0 + md }, columns: ruling.columns.map { $0 + md }),
                                           in: Self.ink(of: wide), gray: wide, margin: m) else { return nil }
        let frame = found.map { Point($0.x - md, $0.y - md) }
        let straight = [Point(ruling.columns.first!, ruling.rows.first!), Point(ruling.columns.last!, ruling.rows.first!),
                        Point(ruling.columns.last!, ruling.rows.last!), Point(ruling.columns.first!, ruling.rows.last!)]
        let shift = zip(frame, straight).map { Polygon.distance($0, $1) }.max() ?? 0
        guard shift > Self.reframeShift * pitch else { return nil }
        let c = frame.map(imagePoint)
        let moved = Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
        guard let again = straighten(moved, in: image) else { return nil }
        let (redivided, _, lines) = Self.ruling(of: again)
        guard let divided = redivided, divided.rowCount == ruling.rowCount,
              divided.columnCount == ruling.columnCount else { return nil }
        let newInk = Self.ink(of: again)
        guard Self.cellsLookBlank(newInk, divided) else { return nil }
        return (moved, again, divided, lines, newInk)
    }

    /// `ruling` (found from `lines`, with a border that has no line at it), or the ruling
    /// `plainLines` give (the local threshold's, which keeps a frame apart from a dark
    /// strip beside it) when that one is framed on every side, a row or column apart at
    /// most, and `isPlausible`.
    static func framed(_ ruling: Ruling, lines: FoundLines, plainLines: FoundLines, width: Int, height: Int,
                       isPlausible: (Ruling) -> Bool) -> (Ruling, FoundLines) {
        guard let plain = RulingFinder.ruling(plainLines, width: width, height: height), isFramed(plain, by: plainLines),
              abs(plain.rowCount - ruling.rowCount) <= 1, abs(plain.columnCount - ruling.columnCount) <= 1,
              isPlausible(plain) else { return (ruling, lines) }
        return (plain, plainLines)
    }

    /// See `dividersSpanFrame`: a divider's ink lies within this share of a cell of it.
    static let dividerReach = 0.1

    /// True when at least half the interior lines of a one-row (one-column) ruling are
    /// inked across the whole row (column), frame to frame — between the outermost lines
    /// found across them (the ruling's borders when none are): `dividerSpan` of the rows
    /// (columns) each crosses have ink within `dividerReach` of a cell of it. (A divider may be
    /// broken by a digit written over it; the uprights of digits mistaken for lines all
    /// stop short of the frame.)
    static func dividersSpanFrame(_ ruling: Ruling, lines found: FoundLines, ink: BinaryImage) -> Bool {
        let vertical = ruling.rowCount == 1
        let dividers = vertical ? Array(ruling.columns.dropFirst().dropLast()) : Array(ruling.rows.dropFirst().dropLast())
        let across = vertical ? ruling.columns : ruling.rows
        let cell = (across.last! - across.first!) / Double(max(1, across.count - 1))
        let band = max(1, Int(dividerReach * cell))
        let frame = vertical ? found.rows : found.columns
        let borders = vertical ? ruling.rows : ruling.columns
        let (from, to) = frame.count >= 2 ? (frame.first!, frame.last!) : (borders.first!, borders.last!)
        let length = vertical ? ink.height : ink.width
        let (lo, hi) = (max(0, Int(from)), min(length, Int(to) + 1))
        guard hi > lo else { return true }
        let spanning = dividers.filter { line in
            let c = Int(line.rounded())
            var inked = 0, total = 0
            for t in lo..<hi {
                total += 1
                if (c - band...c + band).contains(where: { vertical ? ink.isInk($0, t) : ink.isInk(t, $0) }) { inked += 1 }
            }
            return total > 0 && Double(inked) >= Self.dividerSpan * Double(total)
        }
        return 2 * spanning.count >= dividers.count
    }

    /// The share of its row (column) a comb's divider inks (a digit's upright stops a
    /// few pixels short of the frame at each end).
    static let dividerSpan = 0.9

    /// True when each of the ruling's four borders has a line found within a fifth of a
    /// cell of it: the grid's frame, not the quad's edge past it.
    static func isFramed(_ ruling: Ruling, by lines: FoundLines) -> Bool {
        func framed(_ positions: [Double], _ found: [Double]) -> Bool {
            let cell = (positions.last! - positions.first!) / Double(positions.count - 1)
            return [positions.first!, positions.last!].allSatisfy { b in found.contains { abs($0 - b) < lineTolerance * cell } }
        }
        return framed(ruling.rows, lines.rows) && framed(ruling.columns, lines.columns)
    }

    /// The sides of a ruling whose outer row or column may be a strip the quad took in
    /// past the grid's frame (a shadow's edge or the sheet below for its outline): no line
    /// found within `lineTolerance` of a cell of the outer border, while the inner border is a line
    /// beyond doubt. Only where three cells or more lie across. Whether the strip is paper
    /// is decided once it is read (`ReadRegion.trimmedPastFrame`).
    ///
    /// On a side of `offPaper` (the quad's edge there is the paper's own edge, see
    /// `sidesOffPaper`), a line found at the outer border lying at the region's edge
    /// (`size`: the straightened region's width and height; without it no border is) is
    /// that paper edge, not a line.
    static func edgesMaybePastFrame(_ ruling: Ruling, lines: FoundLines, offPaper: Set<LaidOutRegion.Edge> = [],
                                    size: (width: Double, height: Double)? = nil) -> Set<LaidOutRegion.Edge> {
        func open(_ positions: [Double], found: [Double], faint: [Double], extent: Double?,
                  paperEdgeFirst: Bool, paperEdgeLast: Bool) -> (first: Bool, last: Bool) {
            guard positions.count >= 4 else { return (false, false) }
            let cell = (positions.last! - positions.first!) / Double(positions.count - 1)
            func ruled(_ x: Double, strongly: Bool) -> Bool {
                found.contains { abs($0 - x) < lineTolerance * cell && !(strongly && faint.contains($0)) }
            }
            // a border at the region's edge where the quad's edge is the paper's
            func paperEdge(_ x: Double, _ isPaperEdge: Bool) -> Bool {
                guard isPaperEdge, let extent else { return false }
                return min(x, extent - x) < lineTolerance * cell
            }
            let n = positions.count - 1
            return ((paperEdge(positions[0], paperEdgeFirst) || !ruled(positions[0], strongly: false))
                        && ruled(positions[1], strongly: true),
                    (paperEdge(positions[n], paperEdgeLast) || !ruled(positions[n], strongly: false))
                        && ruled(positions[n - 1], strongly: true))
        }
        let r = open(ruling.rows, found: lines.rows, faint: lines.faintRows, extent: size?.height,
                     paperEdgeFirst: offPaper.contains(.top), paperEdgeLast: offPaper.contains(.bottom))
        let c = open(ruling.columns, found: lines.columns, faint: lines.faintColumns, extent: size?.width,
                     paperEdgeFirst: offPaper.contains(.left), paperEdgeLast: offPaper.contains(.right))
        var edges: Set<LaidOutRegion.Edge> = []
        if r.first { edges.insert(.top) }
        if r.last { edges.insert(.bottom) }
        if c.first { edges.insert(.left) }
        if c.last { edges.insert(.right) }
        return edges
    }

    /// The sides of `quad` (a grid's, straightened with `ruling`) beyond which `image`
    /// shows no paper (`PaperBeyond.isOffPaper`, a cell the unit): the photo outside the
    /// side (the brighter at the depths `offPaperOutside`) is darker than the paper inside
    /// it (the brighter at the depths `offPaperInside`) by `inkContrast`. There the quad's
    /// edge is the paper's own (a sheet taken whole, its margin with it), so no frame is
    /// drawn along it: a grid's frame is drawn on paper, with paper beyond it. A side the
    /// photo's frame cuts is not judged.
    static func sidesOffPaper(of quad: Quadrilateral, ruling: Ruling, in image: GrayImage) -> Set<LaidOutRegion.Edge> {
        let c = quad.corners
        // each side's ends, and the cells it runs along: rows lie along top and bottom
        let sides: [(LaidOutRegion.Edge, Point, Point, Point, Int)] = [
            (.top, c[0], c[1], c[3], ruling.rowCount), (.right, c[1], c[2], c[0], ruling.columnCount),
            (.bottom, c[3], c[2], c[0], ruling.rowCount), (.left, c[0], c[3], c[1], ruling.columnCount)]
        var off: Set<LaidOutRegion.Edge> = []
        for (edge, a, b, across, cells) in sides where cells > 0 {
            let cell = Polygon.distance(a, across) / Double(cells)
            if PaperBeyond.isOffPaper(side: a, b, centre: quad.center, unit: cell, outside: offPaperOutside,
                                      inside: offPaperInside, contrastPercent: inkContrast, in: image) == true {
                off.insert(edge)
            }
        }
        return off
    }

    /// See `sidesOffPaper`: how far outside a grid's side, in cells, the photo is sampled:
    /// past the quad's fitting error, and past a heavy or blurred frame line where the
    /// quad runs along its inner edge, within the narrowest margin a sheet leaves beyond a
    /// frame drawn on it.
    static let offPaperOutside = [0.1, 0.25]
    /// See `sidesOffPaper`: how far inside a grid's side, in cells, its paper is sampled:
    /// in its outer cell or the margin strip the quad took in, at two depths, as a ruling
    /// line may run along one of them.
    static let offPaperInside = [0.25, 0.5]
}
