import DocumentImaging

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
    /// every corner. A box parted by a line across it leaves out at least a glyph's room
    /// on one side (a glyph stands about as tall as the box is high); a note's inside ringed
    /// by its shaded rim, or a box's inside within its line, comes near every side.
    static func isPart(_ inner: Quadrilateral, of outer: Quadrilateral) -> Bool {
        let reach = partShare * outer.shortestSide
        let c = outer.corners
        return (0..<4).contains { k in
            let a = c[k], b = c[(k + 1) % 4]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard length > 0 else { return false }
            return inner.corners.allSatisfy { p in
                abs((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length >= reach
            }
        }
    }

    /// See `isPart`: the least stretch a part leaves out, as a share of the whole's
    /// shortest side (half a glyph's room; a note's rim or a box's line is a tenth or less).
    static let partShare = 0.5
}
