extension BinaryImage {
    /// A straight side (from `a` to `b`) and how far either side of it, pixels, ink counts
    /// as lying along it.
    public struct Side: Sendable {
        /// The side's ends.
        public let a: Point, b: Point
        /// Half the width of the band around the side.
        public let band: Double

        /// A side from `a` to `b` with a band `band` px either side.
        public init(a: Point, b: Point, band: Double) {
            (self.a, self.b, self.band) = (a, b, band)
        }
    }

    /// The ink less every component lying within the band of one of `sides` (wholly, and
    /// no further past its ends than the band) and at least `elongation` times longer
    /// along it than across: an edge's own darkness, its shade or a frame's remnant,
    /// never a glyph standing clear of it. Complexity: O(pixels + ink × sides near it).
    public func clearingRuns(along sides: [Side], elongation: Double) -> BinaryImage {
        let map = ComponentMap(self, region: PixelBox(x: 0, y: 0, width: width, height: height))
        guard !map.components.isEmpty, !sides.isEmpty else { return self }
        // each component's pixels (offsets into the image), gathered in one pass
        var start = [Int](repeating: 0, count: map.components.count + 2)
        for c in map.components { start[Int(c.label) + 1] = c.area }
        for k in 1..<start.count { start[k] += start[k - 1] }
        var fill = start
        var pixels = [Int](repeating: 0, count: start.last!)
        for (i, label) in map.labels.enumerated() where label != 0 {
            pixels[fill[Int(label)]] = i
            fill[Int(label)] += 1
        }
        var bits = self.bits
        for c in map.components {
            let box = c.box
            let runs = sides.contains { side in
                // the side's band around its bounding box must reach the component's
                let lo = Point(min(side.a.x, side.b.x) - side.band, min(side.a.y, side.b.y) - side.band)
                let hi = Point(max(side.a.x, side.b.x) + side.band, max(side.a.y, side.b.y) + side.band)
                guard Double(box.x) >= lo.x, Double(box.maxX) <= hi.x + 1, Double(box.y) >= lo.y,
                      Double(box.maxY) <= hi.y + 1 else { return false }
                let length = Polygon.distance(side.a, side.b)
                guard length > 0 else { return false }
                let u = Point((side.b.x - side.a.x) / length, (side.b.y - side.a.y) / length)
                var (t0, t1, d0, d1) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
                for i in pixels[start[Int(c.label)]..<start[Int(c.label) + 1]] {
                    let px = Double(i % width) - side.a.x, py = Double(i / width) - side.a.y
                    let t = px * u.x + py * u.y, d = py * u.x - px * u.y
                    guard abs(d) <= side.band, t >= -side.band, t <= length + side.band else { return false }
                    (t0, t1, d0, d1) = (min(t0, t), max(t1, t), min(d0, d), max(d1, d))
                }
                return t1 - t0 + 1 >= elongation * (d1 - d0 + 1)
            }
            guard runs else { continue }
            for i in pixels[start[Int(c.label)]..<start[Int(c.label) + 1]] { bits[i] = 0 }
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }
}
