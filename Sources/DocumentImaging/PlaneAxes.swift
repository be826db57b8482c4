import Foundation
import ImagingCore

/// The axes of a plane seen in perspective, recovered from quads that are rectangles on it
/// (the boxes drawn on one form): each family of parallel sides meets at a vanishing
/// point, and the two vanishing points fix the plane's axes up to a scale along each.
/// What the boxes span on the plane is then a rectangle there, wherever the plane's own
/// outline is lost (the sheet below merged with it, a shadow across its edge).
public struct PlaneAxes: Sendable {
    /// The rectangles the axes were fitted to, those that agree with them.
    public let rectangles: [Quadrilateral]
    /// Image → plane coordinates (x along the first family of sides, y along the other).
    let toPlane: Homography
    /// Plane → image coordinates.
    let toImage: Homography

    /// A side agrees with its vanishing point when its ends lie within this share of its
    /// quad's shortest side from the line through its middle and the vanishing point: the
    /// corner precision of a detected box, not an angle (a short side's angle is noisy).
    public static let agreementShare = 0.1

    /// The axes of the plane most of `quads` lie on as rectangles, or nil when fewer than
    /// `minimumCount` agree. The vanishing point of each family of sides is the point
    /// nearest all of them in the least-squares sense (sides weighted by length, in
    /// homogeneous coordinates, so parallel sides meet at infinity). Which quads lie on
    /// the plane is a consensus: the axes of each pair of quads are tried, the largest set
    /// agreeing with one (`agreementShare`) is kept, and its axes are fitted again to all
    /// of it, the quad that agrees worst then dropped until every one agrees.
    public init?(rectangles quads: [Quadrilateral], minimumCount: Int = 2) {
        let least = max(2, minimumCount)
        guard quads.count >= least, let reference = quads.max(by: { $0.area < $1.area }) else { return nil }
        let scale = max(1, quads.flatMap(\.corners).map { max(abs($0.x), abs($0.y)) }.max()!)
        let across = Line(through: reference.topLeft, reference.topRight).direction
        let fit = { (set: [Quadrilateral]) -> ([Double], [Double])? in
            let families = Self.families(of: set, along: across)
            guard let first = Self.vanishingPoint(families.0, scale: scale),
                  let second = Self.vanishingPoint(families.1, scale: scale) else { return nil }
            return (first, second)
        }
        // how far a quad's sides lie from the vanishing points, as a share of its shortest side
        let misfit = { (quad: Quadrilateral, points: ([Double], [Double])) -> Double in
            let sides = Self.sides(of: quad, along: across)
            let worst = (sides.0.map { Self.offset($0, toward: points.0, scale: scale) }
                         + sides.1.map { Self.offset($0, toward: points.1, scale: scale) }).max()!
            return worst / max(1, quad.shortestSide)
        }
        let area = { (set: [Quadrilateral]) in set.reduce(0) { $0 + $1.area } }
        var kept: [Quadrilateral] = []
        for i in quads.indices {
            for j in quads.indices where j > i {
                guard let points = fit([quads[i], quads[j]]) else { continue }
                let agreeing = quads.filter { misfit($0, points) <= Self.agreementShare }
                if agreeing.count > kept.count || (agreeing.count == kept.count && area(agreeing) > area(kept)) {
                    kept = agreeing
                }
            }
        }
        while kept.count >= least {
            guard let points = fit(kept) else { return nil }
            let misfits = kept.map { misfit($0, points) }
            let worst = misfits.indices.max { misfits[$0] < misfits[$1] }!
            if misfits[worst] > Self.agreementShare { kept.remove(at: worst); continue }
            guard let (toPlane, toImage) = Self.frame(points.0, points.1, scale: scale) else { return nil }
            // every corner on the same side of the vanishing line
            let ws = kept.flatMap(\.corners).map { toPlane.m[6] * $0.x + toPlane.m[7] * $0.y + toPlane.m[8] }
            guard ws.allSatisfy({ $0 > 0 }) || ws.allSatisfy({ $0 < 0 }) else { return nil }
            self.rectangles = kept; self.toPlane = toPlane; self.toImage = toImage
            return
        }
        return nil
    }

    /// The rectangle on the plane around every corner of `rectangles`, grown on each side
    /// by `growth` of its extent along that axis, as a quad in the image; nil when the
    /// grown rectangle reaches the vanishing line (the plane's horizon).
    public func span(grownBy growth: Double) -> Quadrilateral? {
        let onPlane = rectangles.flatMap(\.corners).map { toPlane.apply($0) }
        let xs = onPlane.map(\.x), ys = onPlane.map(\.y)
        let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        let gx = growth * (x1 - x0), gy = growth * (y1 - y0)
        let corners = [Point(x0 - gx, y0 - gy), Point(x1 + gx, y0 - gy), Point(x1 + gx, y1 + gy), Point(x0 - gx, y1 + gy)]
        let m = toImage.m
        let ws = corners.map { m[6] * $0.x + m[7] * $0.y + m[8] }
        // the side of the horizon the rectangles lie on (init keeps them all on one)
        let sign = m[6] * onPlane[0].x + m[7] * onPlane[0].y + m[8] < 0 ? -1.0 : 1.0
        guard ws.allSatisfy({ $0 * sign > 0 }) else { return nil }
        return Quadrilateral(ordering: corners.map { toImage.apply($0) })
    }

    // MARK: - Geometry

    /// A quad's sides as (start, end), split into the family running along `across` (the
    /// reference's top side: within 45° of it) and the other.
    static func sides(of quad: Quadrilateral, along across: Point) -> ([(Point, Point)], [(Point, Point)]) {
        let c = quad.corners
        let all = (0..<4).map { (c[$0], c[($0 + 1) % 4]) }
        let d = Line(through: c[0], c[1]).direction
        let topRunsAcross = abs(d.x * across.x + d.y * across.y) >= 0.5.squareRoot()
        return topRunsAcross ? ([all[0], all[2]], [all[1], all[3]]) : ([all[1], all[3]], [all[0], all[2]])
    }

    static func families(of quads: [Quadrilateral], along across: Point) -> ([(Point, Point)], [(Point, Point)]) {
        var first: [(Point, Point)] = [], second: [(Point, Point)] = []
        for q in quads { let s = sides(of: q, along: across); first += s.0; second += s.1 }
        return (first, second)
    }

    /// The homogeneous point (scaled coordinates: image / `scale`) nearest the lines
    /// through `segments`, each weighted by its length: the unit vector v minimizing
    /// Σ (length · l̂ · v)², the smallest eigenvector of Σ length² l̂ l̂ᵀ.
    static func vanishingPoint(_ segments: [(Point, Point)], scale: Double) -> [Double]? {
        var m = [Double](repeating: 0, count: 9)
        for (a, b) in segments {
            let p = [a.x / scale, a.y / scale, 1.0], q = [b.x / scale, b.y / scale, 1.0]
            var l = cross(p, q)
            let norm = (l[0] * l[0] + l[1] * l[1]).squareRoot()
            guard norm > 1e-12 else { continue }
            let weight = Polygon.distance(a, b) / scale
            l = l.map { $0 / norm * weight }
            for i in 0..<3 { for j in 0..<3 { m[3 * i + j] += l[i] * l[j] } }
        }
        return SymmetricEigen.smallestVector(m)
    }

    /// How far `segment`'s ends lie (image pixels) from the line through its middle and
    /// the homogeneous point `v` (scaled coordinates).
    static func offset(_ segment: (Point, Point), toward v: [Double], scale: Double) -> Double {
        let (a, b) = segment
        let mid = [(a.x + b.x) / 2 / scale, (a.y + b.y) / 2 / scale, 1.0]
        var l = cross(mid, v)
        let norm = (l[0] * l[0] + l[1] * l[1]).squareRoot()
        guard norm > 1e-12 else { return 0 }
        l = l.map { $0 / norm }
        let d = { (p: Point) in abs(l[0] * p.x / scale + l[1] * p.y / scale + l[2]) * scale }
        return max(d(a), d(b))
    }

    /// The maps between the image and the plane whose axes run toward the homogeneous
    /// points `first` and `second` (scaled coordinates): the vanishing line sent to
    /// infinity, then the two directions made the axes.
    static func frame(_ first: [Double], _ second: [Double], scale: Double) -> (Homography, Homography)? {
        let horizon = cross(first, second)
        guard abs(horizon[2]) > 1e-9 else { return nil }   // the horizon through the scaled origin
        let h = [horizon[0] / horizon[2], horizon[1] / horizon[2]]
        // affine rectification: (x, y, 1) → (x, y, h·(x, y) + 1)
        let project = [1, 0, 0, 0, 1, 0, h[0], h[1], 1.0]
        let d1 = Homography.multiplyVector(project, first), d2 = Homography.multiplyVector(project, second)
        // the directions the vanishing points became, as the axes
        let det = d1[0] * d2[1] - d2[0] * d1[1]
        guard abs(det) > 1e-12 else { return nil }
        let axes = [d2[1] / det, -d2[0] / det, 0, -d1[1] / det, d1[0] / det, 0, 0, 0, 1.0]
        let unscale = [1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1.0]
        let toPlane = Homography.multiply(Homography.multiply(axes, project), unscale)
        guard let inverse = Homography.inverse(toPlane) else { return nil }
        let toImage = abs(inverse[8]) > 1e-12 ? inverse.map { $0 / inverse[8] } : inverse
        return (Homography(matrix: toPlane), Homography(matrix: toImage))
    }

    static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
}

/// Eigenvectors of small symmetric matrices.
enum SymmetricEigen {
    /// The unit eigenvector of the smallest eigenvalue of the symmetric 3 × 3 matrix `m`
    /// (row-major), by cyclic Jacobi rotations; nil for a matrix of non-finite entries.
    static func smallestVector(_ m: [Double]) -> [Double]? {
        guard m.allSatisfy(\.isFinite) else { return nil }
        var a = m
        var v = [1.0, 0, 0, 0, 1, 0, 0, 0, 1]
        for _ in 0..<50 {
            let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
            if off < 1e-30 { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] {
                let apq = a[3 * p + q]
                guard abs(apq) > 1e-300 else { continue }
                let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                // a ← Jᵀ a J, v ← v J (J rotates columns p and q)
                for k in 0..<3 {
                    let akp = a[3 * k + p], akq = a[3 * k + q]
                    a[3 * k + p] = c * akp - s * akq; a[3 * k + q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[3 * p + k], aqk = a[3 * q + k]
                    a[3 * p + k] = c * apk - s * aqk; a[3 * q + k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[3 * k + p], vkq = v[3 * k + q]
                    v[3 * k + p] = c * vkp - s * vkq; v[3 * k + q] = s * vkp + c * vkq
                }
            }
        }
        let smallest = (0..<3).min { a[4 * $0] < a[4 * $1] }!
        let e = [v[smallest], v[3 + smallest], v[6 + smallest]]
        let norm = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).squareRoot()
        return norm > 0 ? e.map { $0 / norm } : nil
    }
}
