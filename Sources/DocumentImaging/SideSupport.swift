import ImagingCore

/// How well a quad's sides lie on the border that produced it, and a second reading of a
/// border whose convex hull is spoilt by a blob merged with one corner (a hand's shadow
/// or a dark desk touching a grid's frame: the hull then runs out to the blob and one
/// corner lands far from the frame).
extension QuadDetector {
    /// Per side (top, right, bottom, left), the share of its length along which some
    /// border point lies within `max(2, 2 %)` of the side: 1 for a clean outline.
    static func sideSupport(of quad: Quadrilateral, border: [Point]) -> [Double] {
        let bins = 20
        return quad.sides.map { a, side, length in
            let band = max(2, 0.02 * length)
            var covered = [Bool](repeating: false, count: bins)
            for p in border where side.distance(p) <= band {
                let t = ((p.x - a.x) * side.direction.x + (p.y - a.y) * side.direction.y) / length
                if t >= 0, t < 1 { covered[Int(t * Double(bins))] = true }
            }
            return Double(covered.filter { $0 }.count) / Double(bins)
        }
    }

    /// The share of `border`'s points lying within `band` pixels of one of the quad's
    /// sides: near 1 for a drawn outline, low for a blob whose hull only touches the sides
    /// here and there (merged texture: its crests reach the hull, its troughs lie deep).
    static func borderShareOnSides(of quad: Quadrilateral, border: [Point], band: Double) -> Double {
        guard !border.isEmpty else { return 0 }
        let sides = quad.sides.map(\.line)
        let near = border.filter { p in sides.contains { $0.distance(p) <= band } }.count
        return Double(near) / Double(border.count)
    }

    /// The quad made by the four longest straight runs of the border itself (not its
    /// hull), when they close into a plausible quad whose every side the border follows
    /// along most of its length; else nil. A frame whose corner is swallowed by a blob
    /// keeps most of each side straight, while the blob's outline bends.
    func quadrilateral(fromStraightRunsOf border: [Point], minArea: Double) -> Quadrilateral? {
        var perimeter = 0.0
        for i in border.indices { perimeter += Polygon.distance(border[i], border[(i + 1) % border.count]) }
        let polygon = Polygon.simplified(closed: border, epsilon: 0.01 * perimeter)
        let n = polygon.count
        guard n >= 4 else { return nil }
        let lengths = (0..<n).map { Polygon.distance(polygon[$0], polygon[($0 + 1) % n]) }
        let kept = (0..<n).sorted { lengths[$0] > lengths[$1] }.prefix(4).sorted()
        // each run's line: the one most border points along that run agree with (the
        // simplified chord may stray from the edge by up to the simplification's tolerance)
        let lines = kept.map { k -> Line in
            let a = polygon[k], b = polygon[(k + 1) % n]
            let chord = Line(through: a, b), length = lengths[k]
            var along: [(t: Double, p: Point)] = []
            for p in border where chord.distance(p) <= max(3, 0.04 * length) {
                let t = (p.x - a.x) * chord.direction.x + (p.y - a.y) * chord.direction.y
                if t >= 0 && t <= length { along.append((t, p)) }
            }
            along.sort { $0.t < $1.t }
            return LineFit.consensusLine(along.map(\.p), band: max(1.5, 0.01 * length)) ?? chord
        }
        var corners: [Point] = []
        for k in 0..<4 {
            guard let corner = lines[k].intersection(lines[(k + 1) % 4]) else { return nil }
            corners.append(corner)
        }
        guard Polygon.isConvex(corners) else { return nil }
        let quad = Quadrilateral(ordering: corners)
        guard quad.area >= minArea, quad.interiorAngles.allSatisfy({ angleRange.contains($0) }) else { return nil }
        let sides = quad.sides.map(\.length)
        guard let shortest = sides.min(), shortest > 4, sides.max()! / shortest <= maximumAspect,
              Self.sideSupport(of: quad, border: border).allSatisfy({ $0 >= 0.7 })
        else { return nil }
        return quad
    }
}
