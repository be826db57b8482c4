import DocumentImaging
import ImagingCore

extension Layout {
    /// Whether `inner` is a piece of `outer` rather than something on it or the same quad
    /// again: it keeps two or three of `outer`'s sides (`Quadrilateral.sidesLying`, within
    /// `pieceSideShare` of its own shortest side).
    static func isPiece(_ inner: Quadrilateral, of outer: Quadrilateral) -> Bool {
        (2...3).contains(inner.sidesLying(along: outer, within: Self.pieceSideShare * inner.shortestSide))
    }

    /// See `isPiece`: how far a side's ends may lie from the line of its parent's side, as
    /// a share of the piece's shortest side (a few pixels: both traced on one outline).
    static let pieceSideShare = 0.03

    /// Whether `inner`, lying in `outer`, leaves a stretch of it out along some side: some
    /// side of `outer` lies at least `partShare` of `outer`'s shortest side from `inner`'s
    /// every corner (`Quadrilateral.widestGap`). A box parted by a line across it leaves out
    /// at least a glyph's room on one side (a glyph stands about as tall as the box is high);
    /// a note's inside ringed by its shaded rim, or a box's inside within its line, comes
    /// near every side.
    static func isPart(_ inner: Quadrilateral, of outer: Quadrilateral) -> Bool {
        inner.widestGap(inside: outer) >= partShare * outer.shortestSide
    }

    /// See `isPart`: the least stretch a part leaves out, as a share of the whole's
    /// shortest side (half a glyph's room; a note's rim or a box's line is a tenth or less).
    static let partShare = 0.5

    /// Whether the stretch of `outer` that `part` leaves out (straightened as `g`, `outer`'s
    /// picture) is blank paper as light as `part`'s: the box's own empty stretch past a line
    /// across it, not the desk around a note that another outline closed around it, nor a
    /// printed sheet beside it that one hull took in. The part's paper is the upper quartile
    /// of its middle's grey levels (digits and lines are darker); the stretch must reach that
    /// even at its darkest twentieth (`blankQuantile`). The stretch is the wider of the two
    /// `part` leaves out along `outer`'s length.
    static func leavesOutPaper(_ part: Quadrilateral, of outer: Quadrilateral, straightened g: GrayImage) -> Bool {
        guard let toG = Homography(straightening: outer, width: g.width, height: g.height)?.inverted else { return false }
        let corners = part.corners.map { toG.apply(Point($0.x + 0.5, $0.y + 0.5)) }
        let along = g.width >= g.height
        let lo = max(0, Int((along ? corners.map(\.x).min()! : corners.map(\.y).min()!).rounded()))
        let hi = min(along ? g.width : g.height, Int((along ? corners.map(\.x).max()! : corners.map(\.y).max()!).rounded()))
        let length = along ? g.width : g.height, across = along ? g.height : g.width
        guard hi > lo else { return false }
        let stretch = lo >= length - hi ? 0..<lo : hi..<length
        func paper(_ range: Range<Int>, _ fraction: Double = 0.75) -> Double? {
            var histogram = ByteHistogram()
            let margin = Int(Self.paperMargin * Double(across))
            let inset = Int(Self.paperMargin * Double(range.count))
            guard range.count > 2 * inset, across > 2 * margin else { return nil }
            for t in (range.lowerBound + inset)..<(range.upperBound - inset) {
                for u in margin..<(across - margin) { histogram.add(along ? g[t, u] : g[u, t]) }
            }
            return histogram.total > 0 ? Double(histogram.percentile(fraction)) : nil
        }
        // blank: even its darkest twentieth is paper (no line of print, no digit)
        guard let own = paper(lo..<hi), let past = paper(stretch, Self.blankQuantile) else { return false }
        return past >= Self.samePaperShare * own
    }

    /// See `leavesOutPaper`: the share of the part's paper level the stretch it leaves out
    /// reaches when it is the same paper (a shade across a sheet is gentler; a desk beside a
    /// note, or a hard shadow's dark side, is far darker).
    static let samePaperShare = 0.85
    /// See `leavesOutPaper`: the grey-level quantile of the stretch left out that must reach
    /// the part's paper: blank paper's noise stays near its level, a line of print does not.
    static let blankQuantile = 0.05
    /// See `leavesOutPaper`: the share of each side left out of the sample (the box's
    /// lines, the edges of a note).
    static let paperMargin = 0.15
}
