import Foundation
import ImagingCore

/// A line through `point` with unit `direction`.
public struct Line {
    /// A point on the line.
    public var point: Point
    /// Its unit direction.
    public var direction: Point

    /// Total least squares (principal axis) through points, nil for fewer than 2.
    init?(fitting points: [Point]) {
        guard points.count >= 2 else { return nil }
        let centre = Point.centroid(of: points)
        let (cx, cy) = (centre.x, centre.y)
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let dx = p.x - cx, dy = p.y - cy
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        point = Point(cx, cy)
        direction = Point(cos(angle), sin(angle))
    }

    /// The line through `a` and `b` (`b` after `a` along it).
    public init(through a: Point, _ b: Point) {
        let len = max(1e-12, Polygon.distance(a, b))
        point = a
        direction = Point((b.x - a.x) / len, (b.y - a.y) / len)
    }

    func distance(_ p: Point) -> Double {
        abs((p.x - point.x) * direction.y - (p.y - point.y) * direction.x)
    }

    /// Intersection with another line, nil when (nearly) parallel.
    public func intersection(_ o: Line) -> Point? {
        let det = direction.x * o.direction.y - direction.y * o.direction.x
        guard abs(det) > 1e-9 else { return nil }
        let t = ((o.point.x - point.x) * o.direction.y - (o.point.y - point.y) * o.direction.x) / det
        return Point(point.x + t * direction.x, point.y + t * direction.y)
    }
}

extension Quadrilateral {
    /// The four sides, top, right, bottom, left: start corner, line and length.
    var sides: [(start: Point, line: Line, length: Double)] {
        let c = corners
        return (0..<4).map { i in
            (c[i], Line(through: c[i], c[(i + 1) % 4]), Polygon.distance(c[i], c[(i + 1) % 4]))
        }
    }
}

/// Corner refinement by fitting each side's line and intersecting neighbours.
enum LineFit {
    /// Re-fits each side of `quad` to the border points along it and intersects the
    /// lines. Per side, the candidates are border points over its middle 80 % within
    /// 8 % of its length; the line kept is the one most of them agree with (within a
    /// pixel or 1 %), so ink touching the frame (a caption merged with a corner, a
    /// fold) cannot tilt it, then a total-least-squares fit to those points.
    static func refit(_ quad: Quadrilateral, to border: [Point]) -> Quadrilateral? {
        var lines: [Line] = []
        for (a, side, length) in quad.sides {
            let reach = max(3, 0.08 * length)
            var near: [(t: Double, p: Point)] = []
            for p in border {
                let t = (p.x - a.x) * side.direction.x + (p.y - a.y) * side.direction.y
                if t > 0.1 * length && t < 0.9 * length && side.distance(p) <= reach { near.append((t, p)) }
            }
            near.sort { $0.t < $1.t }
            lines.append(consensusLine(near.map(\.p), band: max(1.5, 0.01 * length)) ?? side)
        }
        return intersect(lines)
    }

    /// The line through the most of `points` (ordered along it) within `band`, refined
    /// by least squares on its inliers; nil for fewer than 2 points. Candidates are
    /// lines through pairs half the sequence apart.
    static func consensusLine(_ points: [Point], band: Double) -> Line? {
        let n = points.count
        guard n >= 2 else { return nil }
        let half = max(1, n / 2)
        var best: Line?, bestCount = -1
        let tries = min(16, n - half)
        for k in 0..<max(1, tries) {
            let i = k * (n - half) / max(1, tries)
            let candidate = Line(through: points[i], points[min(n - 1, i + half)])
            let count = points.reduce(0) { $0 + (candidate.distance($1) <= band ? 1 : 0) }
            if count > bestCount { bestCount = count; best = candidate }
            if bestCount == n { break }   // no later candidate can do better
        }
        guard var line = best else { return nil }
        for _ in 0..<2 {
            let inliers = points.filter { line.distance($0) <= band }
            guard inliers.count >= 2, let fitted = Line(fitting: inliers) else { break }
            line = fitted
        }
        return line
    }

    /// Corners from four side lines (top, right, bottom, left).
    static func intersect(_ lines: [Line]) -> Quadrilateral? {
        var corners: [Point] = []
        for i in 0..<4 {
            guard let p = lines[(i + 3) % 4].intersection(lines[i]) else { return nil }
            corners.append(p)
        }
        return Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2],
                             bottomLeft: corners[3])
    }
}
