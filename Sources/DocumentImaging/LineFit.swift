import Foundation
public import ImagingCore

/// A line through `point` with unit `direction`.
struct Line {
    var point: Point
    var direction: Point

    /// Total least squares (principal axis) through points, nil for fewer than 2.
    init?(fitting points: [Point]) {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let cx = points.map(\.x).reduce(0, +) / n, cy = points.map(\.y).reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let dx = p.x - cx, dy = p.y - cy
            sxx += dx * dx; sxy += dx * dy; syy += dy * dy
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        point = Point(cx, cy)
        direction = Point(cos(angle), sin(angle))
    }

    init(through a: Point, _ b: Point) {
        let len = max(1e-12, Polygon.distance(a, b))
        point = a
        direction = Point((b.x - a.x) / len, (b.y - a.y) / len)
    }

    func distance(_ p: Point) -> Double {
        abs((p.x - point.x) * direction.y - (p.y - point.y) * direction.x)
    }

    /// Intersection with another line, nil when (nearly) parallel.
    func intersection(_ o: Line) -> Point? {
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

/// Full-resolution corner refinement: each side is moved to the strongest edge along
/// its normal, sampled at many points; each corner is then where its two sides meet as
/// fitted near it. Sides fitted whole and extended would miss the corners of a frame
/// that bows (lens distortion, a curled page) by the bow: outward, along the diagonal.
public enum EdgeRefiner {
    /// The refined quad, or nil when too few edge samples were found on some side.
    /// `darkInside`: the quad's border ink lies inside the edge (an outer border);
    /// false for a hole (paper inside, ink outside).
    public static func refine(_ quad: Quadrilateral, in image: GrayImage, searchRadius: Double,
                              darkInside: Bool = true) -> Quadrilateral? {
        let c = quad.corners
        // per side: edge points with their place along it (0…1), and the whole side's line
        var sides: [(points: [(t: Double, p: Point)], line: Line)] = []
        for (a, side, length) in quad.sides {
            // outward normal of a clockwise (on screen) polygon's edge
            let normal = Point(side.direction.y, -side.direction.x)
            var samples: [(t: Double, p: Point)] = []
            let count = max(12, min(80, Int(length / 6)))
            for k in 0..<count {
                let t = 0.04 + 0.92 * Double(k) / Double(count - 1)
                let base = Point(a.x + t * length * side.direction.x, a.y + t * length * side.direction.y)
                let offset = image.pixels.withUnsafeBufferPointer { pixels in
                    strongestEdge(in: pixels, width: image.width, height: image.height, at: base, normal: normal,
                                  radius: searchRadius, darkInside: darkInside)
                }
                if let offset {
                    samples.append((t, Point(base.x + offset * normal.x, base.y + offset * normal.y)))
                }
            }
            guard samples.count >= max(5, count / 3), var line = Line(fitting: samples.map(\.p)) else { return nil }
            // one round of outlier rejection
            var kept = samples.filter { line.distance($0.p) < 1.5 }
            if kept.count >= 5, let better = Line(fitting: kept.map(\.p)) { line = better }
            // the points the corners are fitted to: a little wider, as a bowed side leaves
            // the whole-side line towards its ends
            kept = samples.filter { line.distance($0.p) < 2.5 }
            sides.append((kept, line))
        }
        guard let whole = LineFit.intersect(sides.map(\.line)) else { return nil }
        // each corner from the two sides' edge points nearest it (a third of each side)
        var corners = whole.corners
        for i in 0..<4 {
            let before = sides[(i + 3) % 4], after = sides[i]
            let end = before.points.filter { $0.t > 0.67 }.map(\.p), start = after.points.filter { $0.t < 0.33 }.map(\.p)
            guard end.count >= 4, start.count >= 4, let l1 = Line(fitting: end), let l2 = Line(fitting: start),
                  let corner = l1.intersection(l2), Polygon.distance(corner, whole.corners[i]) < 2 * searchRadius
            else { continue }
            corners[i] = corner
        }
        let refined = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2],
                                    bottomLeft: corners[3])
        // refinement must not move a corner far: then it locked onto something else
        for (p, q) in zip(refined.corners, c) where Polygon.distance(p, q) > 2 * searchRadius {
            return nil
        }
        return refined
    }

    /// Offset along `normal` (outward) of the largest bright-outside/dark-inside step.
    static func strongestEdge(in pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, at p: Point,
                              normal: Point, radius: Double, darkInside: Bool) -> Double? {
        let step = 0.5
        let n = Int(radius / step)
        guard n >= 2 else { return nil }
        var profile: [Double] = []
        for k in -n - 2...n + 2 {
            let t = Double(k) * step
            guard let v = sample(pixels, width: width, height: height, p.x + t * normal.x, p.y + t * normal.y) else { return nil }
            profile.append(v)
        }
        var best = -1, bestValue = 3.0   // grey levels per pixel: weaker is noise
        for k in 2..<(profile.count - 2) {
            var d = (profile[k + 2] - profile[k - 2]) / 2   // outward minus inward, per pixel
            if !darkInside { d = -d }
            if d > bestValue { bestValue = d; best = k }
        }
        guard best >= 0 else { return nil }
        // parabolic interpolation of the peak
        func g(_ k: Int) -> Double {
            let d = (profile[k + 2] - profile[k - 2]) / 2
            return darkInside ? d : -d
        }
        var offset = Double(best)
        if best > 2 && best < profile.count - 3 {
            let l = g(best - 1), m = g(best), r = g(best + 1)
            let denom = l - 2 * m + r
            if abs(denom) > 1e-9 { offset += max(-0.5, min(0.5, 0.5 * (l - r) / denom)) }
        }
        return (offset - Double(n + 2)) * step
    }

    static func sample(_ p: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int, _ x: Double, _ y: Double) -> Double? {
        guard x >= 0, y >= 0, x < Double(w - 1), y < Double(h - 1) else { return nil }
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Double(x0), fy = y - Double(y0)
        let a = Double(p[y0 * w + x0]), b = Double(p[y0 * w + x0 + 1])
        let c = Double(p[(y0 + 1) * w + x0]), d = Double(p[(y0 + 1) * w + x0 + 1])
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }
}
