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
}
