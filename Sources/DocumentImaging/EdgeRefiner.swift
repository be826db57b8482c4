import Foundation
public import ImagingCore

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
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * n + 5) { profile in
            for k in -n - 2...n + 2 {
                let t = Double(k) * step
                guard let v = sample(pixels, width: width, height: height, p.x + t * normal.x, p.y + t * normal.y) else { return nil }
                profile[k + n + 2] = v
            }
            return strongestStep(in: UnsafeBufferPointer(profile), n: n, step: step, darkInside: darkInside)
        }
    }

    /// The strongest step of a profile sampled every `step` px from −(n+2)·step to
    /// (n+2)·step along the normal (see `strongestEdge`).
    private static func strongestStep(in profile: UnsafeBufferPointer<Double>, n: Int, step: Double,
                                      darkInside: Bool) -> Double? {
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
