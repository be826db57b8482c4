public import ImagingCore

/// A plane projective transform, 3×3 row-major with h₃₃ normalized to 1.
public struct Homography: Sendable, Equatable {
    /// The nine entries, row by row.
    public let m: [Double]

    /// The homography taking each `source` point to the matching `destination` point,
    /// or nil when the points are degenerate (three collinear, coincident corners).
    ///
    /// Normalized DLT (Hartley 1997, "In defense of the eight-point algorithm"): both
    /// point sets are translated to their centroid and scaled to mean distance √2, the
    /// 8×8 system is solved by Gaussian elimination with partial pivoting, and the
    /// normalization is undone.
    public init?(mapping source: [Point], to destination: [Point]) {
        precondition(source.count == 4 && destination.count == 4, "four point pairs expected")
        guard let ts = Self.normalizer(source), let td = Self.normalizer(destination) else { return nil }
        let s = source.map { Self.apply(ts, $0) }, d = destination.map { Self.apply(td, $0) }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (s[i].x, s[i].y, d[i].x, d[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = LinearSystem.solve(a, smallestPivot: 1e-10) else { return nil }
        let normalized = h + [1]
        // H = Td⁻¹ · Hn · Ts
        let full = Self.multiply(Self.multiply(Self.inverse(td)!, normalized), ts)
        guard abs(full[8]) > 1e-12 else { return nil }
        m = full.map { $0 / full[8] }
        guard Self.determinant(m).magnitude > 1e-12 else { return nil }
    }

    /// The transform with entries `matrix` (row-major), as given.
    init(matrix: [Double]) { m = matrix }

    /// Maps a point (nil-free: points at infinity map to a huge finite value).
    public func apply(_ p: Point) -> Point { Self.apply(m, p) }

    /// The map from a `width × height` straightening of `quad` (as `rectified` makes it)
    /// to the image: rectified coordinates in, image coordinates out, both measured from
    /// pixel edges, so (0, 0) ↔ the top-left corner's pixel edge. nil when degenerate.
    public init?(straightening quad: Quadrilateral, width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        self.init(mapping: [Point(0, 0), Point(w, 0), Point(w, h), Point(0, h)],
                  to: quad.corners.map { Point($0.x + 0.5, $0.y + 0.5) })
    }

    /// The inverse transform, nil if singular.
    public var inverted: Homography? { Self.inverse(m).map { Homography(matrix: $0) } }

    static func apply(_ m: [Double], _ p: Point) -> Point {
        var w = m[6] * p.x + m[7] * p.y + m[8]
        if abs(w) < 1e-15 { w = w < 0 ? -1e-15 : 1e-15 }
        return Point((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    private static func normalizer(_ p: [Point]) -> [Double]? {
        let centre = Point.centroid(of: p)
        let (cx, cy) = (centre.x, centre.y)
        let mean = p.map { Polygon.distance($0, Point(cx, cy)) }.reduce(0, +) / 4
        guard mean > 1e-12 else { return nil }
        let s = 2.0.squareRoot() / mean
        return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1]
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { i in
            let r = i / 3, c = i % 3
            return a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]
        }
    }

    /// The 3 × 3 matrix `m` times the column vector `v`.
    static func multiplyVector(_ m: [Double], _ v: [Double]) -> [Double] {
        (0..<3).map { m[3 * $0] * v[0] + m[3 * $0 + 1] * v[1] + m[3 * $0 + 2] * v[2] }
    }

    static func determinant(_ m: [Double]) -> Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    static func inverse(_ m: [Double]) -> [Double]? {
        let det = determinant(m)
        guard abs(det) > 1e-300 else { return nil }
        let c: [Double] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return c.map { $0 / det }
    }
}

extension GrayImage {
    /// The region inside `quad` straightened to `width × height`: each destination
    /// pixel centre is mapped back into this image (destination → source, so there are
    /// no holes) and sampled bilinearly; outside the image reads as `outside`.
    /// Returns nil when the quad is degenerate. Complexity: O(width × height).
    public func rectified(_ quad: Quadrilateral, width: Int, height: Int,
                          outside: UInt8 = 255) -> GrayImage? {
        precondition(width > 0 && height > 0, "output \(width)x\(height)")
        guard let h = Homography(straightening: quad, width: width, height: height) else { return nil }
        let m = h.m
        let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        var out = [UInt8](repeating: outside, count: width * height)
        let sw = self.width, sh = self.height
        let paper = Double(outside)
        // where destination pixel centre (x, y) falls in the source, in pixel-index coordinates
        func source(_ x: Int, _ y: Int) -> (x: Double, y: Double) {
            let dx = Double(x) + 0.5, dy = Double(y) + 0.5
            let w = m6 * dx + m7 * dy + m8
            return ((m0 * dx + m1 * dy + m2) / w - 0.5, (m3 * dx + m4 * dy + m5) / w - 0.5)
        }
        func inside(_ p: (x: Double, y: Double)) -> Bool {
            p.x >= 0 && p.y >= 0 && p.x < Double(sw - 1) && p.y < Double(sh - 1)
        }
        let span = 16
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    var x = 0
                    while x < width {
                        let end = min(width, x + span)
                        let first = source(x, y), last = source(end - 1, y)
                        guard inside(first), inside(last) else {
                            for k in x..<end { dst[y * width + k] = Self.sampleAtEdge(src, sw, sh, source(k, y), paper: paper) }
                            x = end
                            continue
                        }
                        // Inside the image at both ends, so all along (a line maps to a line).
                        // Over a span of 16 pixels the perspective division is linear to well
                        // under a tenth of a pixel: step in 16.16 fixed point, weights in 12 bits.
                        // (Wrapping arithmetic: every value here is small and non-negative.)
                        let steps = Double(max(1, end - 1 - x))
                        var fx = Int(first.x * 65536), fy = Int(first.y * 65536)
                        let sx = Int((last.x - first.x) / steps * 65536), sy = Int((last.y - first.y) / steps * 65536)
                        for k in x..<end {
                            let x0 = fx &>> 16, y0 = fy &>> 16, wx = (fx &>> 4) & 4095, wy = (fy &>> 4) & 4095
                            let i = y0 &* sw &+ x0
                            let top = Int(src[i]) &* (4096 &- wx) &+ Int(src[i &+ 1]) &* wx
                            let bottom = Int(src[i &+ sw]) &* (4096 &- wx) &+ Int(src[i &+ sw &+ 1]) &* wx
                            dst[y &* width &+ k] = UInt8(truncatingIfNeeded: (top &* (4096 &- wy) &+ bottom &* wy &+ (1 << 23)) &>> 24)
                            fx &+= sx; fy &+= sy
                        }
                        x = end
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Bilinear sample at `p` where some neighbours may be outside the image (read as
    /// `paper`); `paper` outright when `p` is a pixel or more outside.
    private static func sampleAtEdge(_ src: UnsafeBufferPointer<UInt8>, _ sw: Int, _ sh: Int,
                                     _ p: (x: Double, y: Double), paper: Double) -> UInt8 {
        guard p.x > -1, p.y > -1, p.x < Double(sw), p.y < Double(sh) else { return UInt8(paper) }
        let x0 = Int(p.x + 1) - 1, y0 = Int(p.y + 1) - 1   // floor, for values above −1
        let fx = p.x - Double(x0), fy = p.y - Double(y0)
        func at(_ xx: Int, _ yy: Int) -> Double {
            xx < 0 || yy < 0 || xx >= sw || yy >= sh ? paper : Double(src[yy * sw + xx])
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return UInt8(top * (1 - fy) + bottom * fy + 0.5)   // non-negative: truncation rounds down
    }
}
