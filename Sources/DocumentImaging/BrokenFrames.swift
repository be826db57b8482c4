import ImagingCore

/// Drawn frames with a gap. A thin, pale line drawn aslant falls between rows of pixels
/// and breaks where it is palest; the border traced around such a frame runs along its
/// outside, through the gap and back along its inside, and encloses little of what it
/// outlines. `QuadDetector` takes such an open outline as a box only when it lies on the
/// four sides of its quad and nothing but glyphs lies inside.
extension QuadDetector {
    /// True when a closed `border` encloses at least `enclosedHullShare` of `hullArea`
    /// (its convex hull's, or its quad's): it rings what it outlines, rather than tracing
    /// a line out and back.
    static func enclosesHull(_ border: [Point], hullArea: Double) -> Bool {
        abs(Polygon.signedArea(border)) >= enclosedHullShare * hullArea
    }

    /// See `enclosesHull`.
    static let enclosedHullShare = 0.5

    /// True when an open `border` (one not enclosing its hull) is a drawn frame with a
    /// gap: it runs along every side of `quad` for `brokenFrameSupport` of its length, and
    /// most of it (`brokenFrameOnSides`, within `drawnOutlineBand`) lies on them — the
    /// rest is the outline of digits touching the frame from inside. An L or a bracket of
    /// ruling leaves a side bare; a stroke or a blob's edge strays from the sides.
    static func isBrokenFrame(_ quad: Quadrilateral, border: [Point]) -> Bool {
        sideSupport(of: quad, border: border).allSatisfy { $0 >= brokenFrameSupport }
            && borderShareOnSides(of: quad, border: border, band: drawnOutlineBand) >= brokenFrameOnSides
    }

    /// See `isBrokenFrame`: a gap of a few pixels leaves one of `sideSupport`'s twenty
    /// bins of a side bare, two at most.
    static let brokenFrameSupport = 0.9

    /// See `isBrokenFrame`: half the border on the sides. A frame's own border is its
    /// sides twice over (outside and inside); digits touching it add their outline.
    static let brokenFrameOnSides = 0.5

    /// True when ink of `binary` crosses `quad` from side to opposite side away from its
    /// ends, along `crossingShare` of the way at least: a ruling line dividing it into
    /// cells (a strip of a table whose lines broke), not a box holding glyphs, which stand
    /// clear of one side or the other. Each crossing is sampled a pixel either side, so a
    /// line a little aslant of the quad's sides still counts.
    static func isDividedAcross(_ quad: Quadrilateral, in binary: BinaryImage) -> Bool {
        let (tl, tr, br, bl) = (quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft)
        func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        /// Any crossing from side (a0 → a1) to side (b0 → b1), the crossings stepping along them.
        func crossed(_ a0: Point, _ a1: Point, _ b0: Point, _ b1: Point) -> Bool {
            let along = max(Polygon.distance(a0, a1), Polygon.distance(b0, b1))
            let across = max(Polygon.distance(a0, b0), Polygon.distance(a1, b1))
            guard along > 4 * drawnOutlineBand, across > 2 * drawnOutlineBand else { return false }
            let steps = Int(along), samples = Int(across)
            // away from the two ends, where the frame's own sides run across
            let end = 2 * drawnOutlineBand / along
            let dx = (a1.x - a0.x) / along, dy = (a1.y - a0.y) / along
            for k in 0...steps {
                let t = Double(k) / Double(steps)
                guard t > end, t < 1 - end else { continue }
                let a = lerp(a0, a1, t), b = lerp(b0, b1, t)
                var inked = 0
                for j in 0...samples {
                    let p = lerp(a, b, Double(j) / Double(samples))
                    if (-1...1).contains(where: { o in
                        binary.isInk(Int((p.x + Double(o) * dx).rounded()), Int((p.y + Double(o) * dy).rounded()))
                    }) { inked += 1 }
                }
                if Double(inked) >= crossingShare * Double(samples + 1) { return true }
            }
            return false
        }
        return crossed(tl, tr, bl, br) || crossed(tl, bl, tr, br)
    }

    /// See `isDividedAcross`: a ruling line broken in a place or two still crosses.
    static let crossingShare = 0.9
}
