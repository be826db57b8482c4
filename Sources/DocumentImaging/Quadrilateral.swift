import Foundation

/// Four corners in reading order: top-left, top-right, bottom-right, bottom-left.
public struct Quadrilateral: Sendable, Equatable {
    /// Corners.
    public var topLeft, topRight, bottomRight, bottomLeft: Point

    /// Corners already in order.
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft; self.topRight = topRight
        self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    /// Orders four corners given in any order.
    ///
    /// The corners are sorted clockwise (as seen, y down) around their centroid; the top
    /// edge is then the one whose direction is closest to left-to-right horizontal (ties,
    /// at exactly 45°, go to the edge rising to the right). Unlike ordering by x + y and
    /// x − y, this is right for a quad rotated by any angle.
    /// - Precondition: exactly four points.
    public init(ordering points: [Point]) {
        precondition(points.count == 4, "\(points.count) corners, 4 expected")
        let centre = Point.centroid(of: points)
        let (cx, cy) = (centre.x, centre.y)
        let clockwise = points.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        var best = 0, bestKey = (Double.infinity, Double.infinity)
        for i in 0..<4 {
            let a = clockwise[i], b = clockwise[(i + 1) % 4]
            let angle = atan2(b.y - a.y, b.x - a.x)
            let key = ((abs(angle) * 1e9).rounded() / 1e9, angle)
            if key < bestKey { bestKey = key; best = i }
        }
        self.init(topLeft: clockwise[best], topRight: clockwise[(best + 1) % 4],
                  bottomRight: clockwise[(best + 2) % 4], bottomLeft: clockwise[(best + 3) % 4])
    }

    /// [TL, TR, BR, BL].
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Area in square pixels.
    public var area: Double { abs(Polygon.signedArea(corners)) }

    /// The mean of the corners.
    public var center: Point {
        Point((topLeft.x + topRight.x + bottomRight.x + bottomLeft.x) / 4,
              (topLeft.y + topRight.y + bottomRight.y + bottomLeft.y) / 4)
    }

    /// Length of the shortest side.
    public var shortestSide: Double {
        let c = corners
        return (0..<4).map { Polygon.distance(c[$0], c[($0 + 1) % 4]) }.min()!
    }

    /// The quad with every coordinate mapped by `transform`.
    public func mapped(_ transform: (Point) -> Point) -> Quadrilateral {
        Quadrilateral(topLeft: transform(topLeft), topRight: transform(topRight),
                      bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }

    /// A rectified size that keeps the aspect: width the longer of top and bottom,
    /// height the longer of left and right, rounded.
    public var rectifiedSize: (width: Int, height: Int) {
        let w = max(Polygon.distance(topLeft, topRight), Polygon.distance(bottomLeft, bottomRight))
        let h = max(Polygon.distance(topLeft, bottomLeft), Polygon.distance(topRight, bottomRight))
        return (max(1, Int(w.rounded())), max(1, Int(h.rounded())))
    }

    /// How many of this quad's sides lie along a side of `other`: both their ends within
    /// `tolerance` of the line through that side. A piece of a sheet cut off by a
    /// shadow's edge or a fold keeps two or three of the sheet's sides; a box drawn on
    /// the sheet, none.
    public func sidesLying(along other: Quadrilateral, within tolerance: Double) -> Int {
        let mine = corners, theirs = other.corners
        return (0..<4).filter { i in
            let a = mine[i], b = mine[(i + 1) % 4]
            return (0..<4).contains { k in
                let p = theirs[k], q = theirs[(k + 1) % 4]
                return Polygon.distance(a, toLineThrough: p, q) <= tolerance
                    && Polygon.distance(b, toLineThrough: p, q) <= tolerance
            }
        }.count
    }

    /// How far this quad, lying in `other`, stays from the side of `other` it keeps farthest
    /// from: over `other`'s sides, the distance from the line through that side to the
    /// nearest of this quad's corners, the greatest. Small when it reaches near every side
    /// (an inside within a rim); a part cut across `other` leaves the stretch past the cut.
    public func widestGap(inside other: Quadrilateral) -> Double {
        let theirs = other.corners, mine = corners
        return (0..<4).map { k in
            mine.map { Polygon.distance($0, toLineThrough: theirs[k], theirs[(k + 1) % 4]) }.min()!
        }.max()!
    }

    /// Whether `p` lies inside (or on) the quad; the quad must be convex.
    public func contains(_ p: Point) -> Bool {
        let c = corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Interior angles in degrees, at TL, TR, BR, BL.
    public var interiorAngles: [Double] {
        let c = corners
        return (0..<4).map { i in
            let p = c[(i + 3) % 4], q = c[i], r = c[(i + 1) % 4]
            let a = atan2(p.y - q.y, p.x - q.x), b = atan2(r.y - q.y, r.x - q.x)
            var d = abs(a - b) * 180 / .pi
            if d > 180 { d = 360 - d }
            return d
        }
    }
}
