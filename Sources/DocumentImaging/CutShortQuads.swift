import ImagingCore

/// Quads an earlier pass closed along a shadow's edge: a box cut short, traced along the
/// band the local mean leaves on the edge's dark side, or the box and a strip of that band
/// traced as one outline. A later copy without the band (`Pass.replacesCutShort`) traces
/// the whole box; the cut quad has a side there that the copy shows no drawn line along,
/// lying across the whole box's inside, and the merged outline no drawn side at all.
extension QuadDetector {
    /// Whether `inner` makes up more than `mergedShare` of `outer`, no more than all of it,
    /// and lies in it (its centre does).
    static func liesWithin(_ inner: Quadrilateral, _ outer: Quadrilateral) -> Bool {
        inner.area > mergedShare * outer.area && inner.area <= outer.area && outer.contains(inner.center)
    }

    /// True when `earlier`, a quad inside `outline`, is `outline` closed short: one side or
    /// more that `binary` shows no drawn line along (ink near it over under `drawnSideInk`
    /// of its length, `sideInkShares`: what crosses it, digits and print, leaves gaps),
    /// lying across `outline`'s inside (an end farther from the nearest of the outline's
    /// sides running its way than `sameSideShare` of the outline's length across that
    /// side), while at least two of its sides are drawn.
    static func isClosedOffInk(_ earlier: Quadrilateral, by outline: Quadrilateral, in binary: BinaryImage) -> Bool {
        let shares = sideInkShares(of: earlier, in: binary)
        let c = earlier.corners, o = outline.corners
        let bare = (0..<4).filter { shares[$0] < drawnSideInk }
        guard !bare.isEmpty, bare.count <= 2 else { return false }
        // the outline's length across side k: the mean of the two sides meeting it
        func across(_ k: Int) -> Double {
            (Polygon.distance(o[(k + 1) % 4], o[(k + 2) % 4]) + Polygon.distance(o[(k + 3) % 4], o[k])) / 2
        }
        // how far `p` lies from the line of the outline's side j
        func fromSide(_ p: Point, _ j: Int) -> Double { Polygon.distance(p, toLineThrough: o[j], o[(j + 1) % 4]) }
        return bare.allSatisfy { k in
            let a = c[k], b = c[(k + 1) % 4]
            // the side it would be, uncut: the nearest of the outline's sides running its way
            // (nearer parallel than square to it)
            let middle = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
            let runningItsWay = (0..<4).filter { alignment(a, b, o[$0], o[($0 + 1) % 4]) > 0.5.squareRoot() }
            guard let j = runningItsWay.min(by: { fromSide(middle, $0) < fromSide(middle, $1) }) else { return false }
            return max(fromSide(a, j), fromSide(b, j)) > sameSideShare * across(j)
        }
    }

    /// |cos| of the angle between the segments a→b and p→q.
    static func alignment(_ a: Point, _ b: Point, _ p: Point, _ q: Point) -> Double {
        let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, q.x - p.x, q.y - p.y)
        let norms = (ux * ux + uy * uy).squareRoot() * (vx * vx + vy * vy).squareRoot()
        return norms > 0 ? abs(ux * vx + uy * vy) / norms : 0
    }

    /// True when `earlier`, an outline (not `isHole`) around `outline` (as large at least,
    /// holding its centre), has no side that `binary` shows a drawn line along
    /// (`drawnSideInk`): the band along a shadow's edge joined to a box closes an outline
    /// of ink round both, which a copy without the band no longer draws anywhere. A hole
    /// (light paper ringed by darker ink: a sheet) is never such an outline.
    static func isMergedOffInk(_ earlier: Quadrilateral, isHole: Bool, around outline: Quadrilateral,
                               in binary: BinaryImage) -> Bool {
        !isHole && earlier.area >= outline.area && earlier.contains(outline.center)
            && sideInkShares(of: earlier, in: binary).allSatisfy { $0 < drawnSideInk }
    }

    /// Per side of `quad` (top, right, bottom, left), the share of points along its middle
    /// `sideSampledShare` with ink of `binary` within `sideInkReach` pixels.
    static func sideInkShares(of quad: Quadrilateral, in binary: BinaryImage) -> [Double] {
        let c = quad.corners, r = sideInkReach
        return (0..<4).map { k in
            let a = c[k], b = c[(k + 1) % 4]
            let n = max(4, Int(Polygon.distance(a, b).rounded()))
            let lo = (1 - sideSampledShare) / 2
            var hit = 0
            for i in 0..<n {
                let t = lo + sideSampledShare * (Double(i) + 0.5) / Double(n)
                let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
                var found = false
                for dy in -r...r where !found {
                    for dx in -r...r where binary.isInk(x + dx, y + dy) {
                        found = true; break
                    }
                }
                if found { hit += 1 }
            }
            return Double(hit) / Double(n)
        }
    }

    /// See `isClosedOffInk`: a drawn side keeps ink near over this share of it. (Swept in
    /// session 47 on corpus seeds 1 and 2 and sudoku-donshel: 0.7 scores as 0.8; 0.9 costs
    /// seed 2 exact 82.5 → 82.4, extra 9.0 → 9.2 %.)
    static let drawnSideInk = 0.8
    /// See `isClosedOffInk`: a side whose middle lies within this share of the outline's
    /// length across it from one of the outline's sides is that side found a little off (a
    /// line's width, a blurred end), not a cut across the box. (Swept in session 47 on
    /// seeds 1 and 2 and sudoku-donshel: 0.03 scores as 0.05; 0.08 and 0.12 cost seed 1
    /// found 95.4 → 95.3 %, seed 2 92.2 → 92.0 / 91.9 %; donshel reads alike at all.)
    static let sameSideShare = 0.05
    /// See `sideInkShares`: the middle share of a side sampled (its ends meet the others).
    static let sideSampledShare = 0.8
    /// See `sideInkShares`: how far from a side (detection-copy pixels) its ink may lie: a
    /// hole's side runs along the inner edge of its line, an outline's along the outer, each
    /// within a pixel once rounded; one more for a line a pixel wide drawn aslant.
    static let sideInkReach = 2
}
