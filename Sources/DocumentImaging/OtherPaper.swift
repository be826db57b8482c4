public import ImagingCore

extension FlatZones {
    /// True when the part of `box` around `paper` (both in `gray`'s coordinates, `paper`
    /// inside `box`) is paper of another colour: a note on a sheet peeking out around it,
    /// not the rest of one sheet. Colour is compared as chromaticity — each plane's
    /// difference from grey over the luminance — so the same paper in a shadow matches
    /// itself; they differ when, scaled to the paper's luminance, either plane is further
    /// apart than `otherPaperStep`. Sampled along each side of `paper`: halfway to `box`'s
    /// edge outside it (where that is at least 2 px away), and two chroma pixels inside;
    /// the box must reach past at least two of the paper's sides.
    public static func aroundIsOtherPaper(_ paper: Quadrilateral, in box: Quadrilateral, gray: GrayImage,
                                          chroma: ChromaPlanes) -> Bool {
        func chromaticity(_ p: Point) -> (cb: Double, cr: Double, y: Double)? {
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            let cx = Int(p.x / chroma.scale), cy = Int(p.y / chroma.scale)
            guard x >= 0, y >= 0, x < gray.width, y < gray.height, cx >= 0, cy >= 0,
                  cx < chroma.blueDifference.width, cy < chroma.blueDifference.height else { return nil }
            let luminance = max(16, Double(gray.pixels[y * gray.width + x]))
            let k = cy * chroma.blueDifference.width + cx
            return ((Double(chroma.blueDifference.pixels[k]) - 128) / luminance,
                    (Double(chroma.redDifference.pixels[k]) - 128) / luminance, luminance)
        }
        var outside: [(cb: Double, cr: Double, y: Double)] = [], inside = outside
        var sidesApart = 0
        for (a, side, length) in paper.sides {
            let before = outside.count
            let normal = outwardNormal(side.direction)
            for k in 0..<9 {
                let t = (0.1 + 0.1 * Double(k)) * length
                let base = Point(a.x + t * side.direction.x, a.y + t * side.direction.y)
                var gap = 0.0
                while gap < length, box.contains(Point(base.x + (gap + 1) * normal.x, base.y + (gap + 1) * normal.y)) { gap += 1 }
                guard gap >= 2 else { continue }
                let reach = gap / 2, depth = 2 * max(1, chroma.scale)
                if let o = chromaticity(Point(base.x + reach * normal.x, base.y + reach * normal.y)),
                   let i = chromaticity(Point(base.x - depth * normal.x, base.y - depth * normal.y)) {
                    outside.append(o); inside.append(i)
                }
            }
            if outside.count > before { sidesApart += 1 }
        }
        // other paper shows along two sides or more (a sheet below, offset); a piece of
        // one sheet cut by a shadow's edge has the rest beyond one side only
        guard sidesApart >= 2, outside.count >= 4 else { return false }
        func mean(_ xs: [(cb: Double, cr: Double, y: Double)], _ f: ((cb: Double, cr: Double, y: Double)) -> Double) -> Double {
            xs.map(f).reduce(0, +) / Double(xs.count)
        }
        let luminance = mean(inside) { $0.y }
        return abs(mean(outside) { $0.cb } - mean(inside) { $0.cb }) * luminance > otherPaperStep
            || abs(mean(outside) { $0.cr } - mean(inside) { $0.cr }) * luminance > otherPaperStep
    }

    /// See `aroundIsOtherPaper`: twice `smallestColourStep`, as the strip it is measured in
    /// is thin and its colour blurred by the chroma's coarser sampling.
    public static let otherPaperStep = 2.0 * Double(smallestColourStep)
}
