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
        func chromaticity(_ p: Point) -> Chromaticity? { Self.chromaticity(p, gray: gray, chroma: chroma) }
        var outside: [Chromaticity] = [], inside = outside
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
        func mean(_ xs: [Chromaticity], _ f: (Chromaticity) -> Double) -> Double {
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

extension FlatZones {
    /// `paper` with each side moved in onto the edge of the paper inside it, where a strip
    /// of another colour runs along that side (a pad or sheet below a note, offset, peeking
    /// out: its outline and the note's were traced as one); nil when no such strip runs
    /// along two sides or more (a sheet below shows along at least two, offset; a shadow's
    /// band along one side is no other paper). Along each side, at nine places, the colour
    /// is followed inward from the edge until it is the paper's own (the median over its
    /// inner half), no deeper than `deepestPaperBelow` of its shorter side; a side moves
    /// onto the line through those places when six or more lie on it within one and a half
    /// chroma pixels (the sheet below may lie at an angle: its strip a wedge). A sheet's
    /// corner peeking out past the paper's corner is a wedge too thin to show along most
    /// of both sides: where `fewestWedgePlaces` or more places show a strip, the places
    /// where the paper begins at the side itself (within a sample and a half) count too.
    public static func innerPaper(of paper: Quadrilateral, gray: GrayImage, chroma: ChromaPlanes) -> Quadrilateral? {
        guard let own = paperColour(inside: paper, gray: gray, chroma: chroma) else { return nil }
        func differs(_ c: Chromaticity, by step: Double) -> Bool {
            abs(c.cb - own.cb) * own.y > step || abs(c.cr - own.cr) * own.y > step
        }
        let scale = max(1, chroma.scale)
        let deepest = deepestPaperBelow * paper.shortestSide
        var lines: [Line] = []
        var moved = 0
        for (a, side, length) in paper.sides {
            let normal = outwardNormal(side.direction)
            var edge: [Point] = []   // where the paper's own colour begins, inward
            var atSide: [Point] = [] // where it begins at the side itself (no strip there)
            for k in 0..<9 {
                let t = (0.1 + 0.1 * Double(k)) * length
                let base = Point(a.x + t * side.direction.x, a.y + t * side.direction.y)
                func colour(_ depth: Double) -> Chromaticity? {
                    chromaticity(Point(base.x - depth * normal.x, base.y - depth * normal.y), gray: gray, chroma: chroma)
                }
                guard let strip = colour(1.5 * scale) else { continue }
                guard differs(strip, by: otherPaperStep) else {
                    if !differs(strip, by: otherPaperStep / 2) {
                        atSide.append(Point(base.x - 0.75 * scale * normal.x, base.y - 0.75 * scale * normal.y))
                    }
                    continue
                }
                var depth = 2 * scale
                while depth <= deepest {
                    if let c = colour(depth), !differs(c, by: otherPaperStep / 2) {
                        let d = depth - scale / 2
                        edge.append(Point(base.x - d * normal.x, base.y - d * normal.y))
                        break
                    }
                    depth += scale / 2
                }
            }
            var line = side
            // the edge of the paper inside: a straight line (the sheet below may lie at an
            // angle, its strip a wedge), near the side's direction; a sheet's corner showing
            // past one end of the side is a wedge along part of it, whose inner edge runs on
            // through the places where the paper begins at the side
            func fit(_ points: [Point]) -> Line? {
                guard points.count >= 6, let fitted = Line(fitting: points),
                      abs(fitted.direction.x * side.direction.x + fitted.direction.y * side.direction.y) >= innerEdgeAlignment,
                      points.allSatisfy({ fitted.distance($0) <= 1.5 * scale }) else { return nil }
                return fitted
            }
            if let fitted = fit(edge) ?? (edge.count >= fewestWedgePlaces ? fit(edge + atSide) : nil) {
                let along = fitted.direction.x * side.direction.x + fitted.direction.y * side.direction.y >= 0 ? 1.0 : -1.0
                line = Line(through: fitted.point, Point(fitted.point.x + along * fitted.direction.x,
                                                        fitted.point.y + along * fitted.direction.y))
                moved += 1
            }
            lines.append(line)
        }
        guard moved >= 2 else { return nil }
        var corners: [Point] = []
        for k in 0..<4 {
            guard let c = lines[(k + 3) % 4].intersection(lines[k]) else { return nil }
            corners.append(c)
        }
        let inner = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        return inner.area > 0.5 * paper.area && paper.contains(inner.center) ? inner : nil
    }

    /// How deep a paper's sides may move in onto the paper inside (`innerPaper`): the
    /// strip of a sheet below a note, as a share of the note's shorter side.
    public static let deepestPaperBelow = 0.15
    /// See `innerPaper`: the fewest of a side's nine places showing another paper's strip
    /// for the side to be moved in through the rest (one could be a stain at the edge).
    static let fewestWedgePlaces = 2
    /// The least cosine between a side and the paper's edge found inside it (15°: the
    /// sheet below lies near the paper's angle; a strip across the side is no edge of it).
    static let innerEdgeAlignment = 0.966

    /// A colour as chromaticity: each chroma plane's difference from grey over the
    /// luminance (the same paper in shade keeps it), with the luminance.
    typealias Chromaticity = (cb: Double, cr: Double, y: Double)

    /// The chromaticity at `p` (`gray`'s coordinates); nil off the image.
    static func chromaticity(_ p: Point, gray: GrayImage, chroma: ChromaPlanes) -> Chromaticity? {
        let x = Int(p.x.rounded()), y = Int(p.y.rounded())
        let cx = Int(p.x / chroma.scale), cy = Int(p.y / chroma.scale)
        guard x >= 0, y >= 0, x < gray.width, y < gray.height, cx >= 0, cy >= 0,
              cx < chroma.blueDifference.width, cy < chroma.blueDifference.height else { return nil }
        let luminance = max(16, Double(gray.pixels[y * gray.width + x]))
        let k = cy * chroma.blueDifference.width + cx
        return ((Double(chroma.blueDifference.pixels[k]) - 128) / luminance,
                (Double(chroma.redDifference.pixels[k]) - 128) / luminance, luminance)
    }

    /// The median chromaticity over the inner half of `paper` (points a quarter and half of
    /// the way from its centre to each corner and each side's middle).
    static func paperColour(inside paper: Quadrilateral, gray: GrayImage, chroma: ChromaPlanes) -> Chromaticity? {
        let c = paper.center
        let c4 = paper.corners
        let targets = c4 + (0..<4).map { Point((c4[$0].x + c4[($0 + 1) % 4].x) / 2, (c4[$0].y + c4[($0 + 1) % 4].y) / 2) }
        var samples: [Chromaticity] = []
        for p in targets {
            for f in [0.0, 0.25, 0.5] {
                if let s = chromaticity(Point(c.x + f * (p.x - c.x), c.y + f * (p.y - c.y)), gray: gray, chroma: chroma) { samples.append(s) }
            }
        }
        guard samples.count >= 8 else { return nil }
        func median(_ f: (Chromaticity) -> Double) -> Double { samples.map(f).sorted()[samples.count / 2] }
        return (median { $0.cb }, median { $0.cr }, median { $0.y })
    }
}
