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
        refined(quad, in: image, searchRadius: searchRadius, darkInside: darkInside, followingBends: false)?.quad
    }

    /// The corners of paper as they lie, where an end of one of `quad`'s sides bends away
    /// from the side (`bentEnd`): the corner of a curled note or sheet, whose edges sag
    /// towards it, is where the bent end meets the other side's end. nil when no end bends
    /// (the corners are `refine`'s) or refinement fails.
    public static func cornersAsTheyLie(_ quad: Quadrilateral, in image: GrayImage, searchRadius: Double,
                                        darkInside: Bool) -> Quadrilateral? {
        guard let found = refined(quad, in: image, searchRadius: searchRadius, darkInside: darkInside,
                                  followingBends: true), found.bentCorners > 0 else { return nil }
        return found.quad
    }

    /// `refine`, each side's bent ends followed when `followingBends`, with how many corners
    /// a bent end placed.
    static func refined(_ quad: Quadrilateral, in image: GrayImage, searchRadius: Double, darkInside: Bool,
                        followingBends: Bool) -> (quad: Quadrilateral, bentCorners: Int)? {
        let c = quad.corners
        // per side: edge points with their place along it (0…1), and the whole side's line
        var sides: [(points: [(t: Double, p: Point)], line: Line)] = []
        var bentEnds: [(start: (line: Line, offset: Double)?, end: (line: Line, offset: Double)?)] = []
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
            // the line of the side's straight part (most of its points), which a bent end
            // leaves: the whole side's fit leans towards the bend
            let straight = followingBends ? LineFit.consensusLine(samples.map(\.p), band: onLine) ?? line : line
            let bent = { (outward: Bool) in
                followingBends ? bentEnd(of: samples, line: straight, from: a, along: side.direction, length: length,
                                         outward: outward, in: image, radius: searchRadius, darkInside: darkInside) : nil
            }
            bentEnds.append((bent(false), bent(true)))
        }
        guard let whole = LineFit.intersect(sides.map(\.line)) else { return nil }
        // each corner from the two sides' edge points nearest it (a third of each side)
        // (a bent end's line instead, where a side bends towards the corner: it may move the
        // corner as far again as the end was followed off its side's line)
        var corners = whole.corners
        var reach = [Double](repeating: 2 * searchRadius, count: 4)
        var bentCorners = 0
        for i in 0..<4 {
            let before = sides[(i + 3) % 4], after = sides[i]
            let end = before.points.filter { $0.t > 0.67 }.map(\.p), start = after.points.filter { $0.t < 0.33 }.map(\.p)
            let endLine = end.count >= 4 ? Line(fitting: end) : nil, startLine = start.count >= 4 ? Line(fitting: start) : nil
            if let endLine, let startLine, let corner = endLine.intersection(startLine),
               Polygon.distance(corner, whole.corners[i]) < 2 * searchRadius {
                corners[i] = corner
            }
            // a side bent towards this corner: the corner is where the bent end meets the
            // other side's end, as far again from the whole lines' corner as the end was
            // followed off its line
            let bentBefore = bentEnds[(i + 3) % 4].end, bentAfter = bentEnds[i].start
            guard bentBefore != nil || bentAfter != nil, let l1 = bentBefore?.line ?? endLine,
                  let l2 = bentAfter?.line ?? startLine, let corner = l1.intersection(l2) else { continue }
            // (and no further along the other side than a bend's largest share of it)
            let sideLengths = [Polygon.distance(c[(i + 3) % 4], c[i]), Polygon.distance(c[i], c[(i + 1) % 4])]
            let allowed = 2 * searchRadius + min(bentCornerReach * max(bentBefore?.offset ?? 0, bentAfter?.offset ?? 0),
                                                 largestBend * sideLengths.min()!)
            guard Polygon.distance(corner, whole.corners[i]) < allowed else { continue }
            corners[i] = corner
            reach[i] = allowed
            bentCorners += 1
        }
        let refined = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2],
                                    bottomLeft: corners[3])
        // refinement must not move a corner far: then it locked onto something else
        for i in 0..<4 where Polygon.distance(refined.corners[i], c[i]) > reach[i] {
            return nil
        }
        return (refined, bentCorners)
    }

    /// How far past its bent end's last point (from the side's straight line) a corner may
    /// move: the end's line, extended to the corner, leaves the straight line further still.
    static let bentCornerReach = 1.5

    /// The most a bent edge's offset may change from where its last points lead, as a
    /// share of the distance between neighbouring edge points (`bentEnd`).
    static let bendPerStep = 0.1

    /// A bent end's last point lies off its side's line by at most this share of the side's
    /// length: further, the edge followed is another one (a curled sheet sags a few per
    /// cent of its height along a third to a half of its width).
    static let largestBend = 0.1

    /// Edge points an end must be followed off its side's line for (`bentEnd`).
    static let bentEndPoints = 6

    /// A bent end leaves its side's line by more than this (px) at its last point.
    static let bentEndOffset = 3.0

    /// A bent end's middle point lies off its side's line by less than this share of its
    /// last point's offset (both from where the end left the line): below the chord, as
    /// on a curve leaving the line ever faster (a parabola from its vertex: a quarter).
    static let bendBelowChord = 0.5

    /// How many edge points apart a bent end's points are compared: each lies further off
    /// the line than the one this many before it (neighbours may swap by the edge's grain).
    static let growthSpan = 3

    /// Edge points of a side within this distance (px) of its straight part's line lie on it.
    static let onLine = 1.5

    /// The line an end of a side bends to, with how far its last point lies off `line` (the
    /// side's straight part); nil when the end does not bend. From the side's middle towards
    /// the end (`outward`: towards its end corner, else its start), the `samples` on the line
    /// (within `onLine`) are taken as found until the edge first leaves it; past that the
    /// edge is searched where the last `bentEndPoints` points lead, within `bendPerStep` of
    /// the distance between points (a bend turns the edge little from point to point; a jump
    /// is another edge). The end bends when at least `bentEndPoints` points past the last one
    /// on the line were so followed, each no nearer the line than the one `growthSpan` before
    /// it (an edge wandering in noise comes back), the last more than `bentEndOffset` off it
    /// and at most `largestBend` of the side's length; their edge as steep as the line's
    /// (`sameEdgeStep`), and leaving it ever faster (`bendBelowChord`). Its line is the one
    /// through the last `bentEndPoints` points.
    static func bentEnd(of samples: [(t: Double, p: Point)], line: Line, from a: Point, along direction: Point,
                        length: Double, outward: Bool, in image: GrayImage, radius: Double,
                        darkInside: Bool) -> (line: Line, offset: Double)? {
        let normal = Point(direction.y, -direction.x)
        let count = max(12, min(80, Int(length / 6)))
        let place = { (k: Int) in 0.04 + 0.92 * Double(k) / Double(count - 1) }
        // the samples on the line, by index along the side, with their offset from it
        var onSide: [Int: Double] = [:]
        for s in samples where line.distance(s.p) < onLine {
            onSide[Int((Double(count - 1) * (s.t - 0.04) / 0.92).rounded())] =
                (s.p.x - a.x) * normal.x + (s.p.y - a.y) * normal.y
        }
        let window = max(1, bendPerStep * length * 0.92 / Double(count - 1))
        let walk = outward ? Array(count / 2..<count) : Array((0..<count / 2).reversed())
        var recent: [(t: Double, d: Double)] = [], followed: [(p: Point, step: Double)] = []
        var onLineSteps: [Double] = []
        image.pixels.withUnsafeBufferPointer { pixels in
            func edge(at t: Double, offset: Double) -> (offset: Double, step: Double)? {
                let base = Point(a.x + t * length * direction.x + offset * normal.x,
                                 a.y + t * length * direction.y + offset * normal.y)
                return strongestEdgeStep(in: pixels, width: image.width, height: image.height, at: base,
                                         normal: normal, radius: window, darkInside: darkInside)
                    .map { (offset + $0.offset, $0.step) }
            }
            for k in walk {
                let t = place(k)
                // on the line until the edge first leaves it; then followed to the end (a
                // point of grain on the line past that is no return to it)
                if followed.isEmpty, let d = onSide[k] {
                    recent.append((t, d))
                    if let found = edge(at: t, offset: d) { onLineSteps.append(found.step) }
                    continue
                }
                guard recent.count >= 3,
                      let found = edge(at: t, offset: Self.predicted(at: t, from: recent.suffix(bentEndPoints)))
                else { continue }
                recent.append((t, found.offset))
                followed.append((Point(a.x + t * length * direction.x + found.offset * normal.x,
                                       a.y + t * length * direction.y + found.offset * normal.y), found.step))
            }
        }
        // the bend: the followed points past the last one still on the line
        let away = followed.map { line.distance($0.p) }
        let departure = away.lastIndex { $0 <= onLine } ?? -1
        let bend = Array(away[(departure + 1)...])
        let start = departure >= 0 ? away[departure] : onLine
        // ever further off the line, point by point but for the grain of the edge's
        // place (half a pixel): points `growthSpan` apart never come nearer
        guard bend.count >= bentEndPoints, let last = bend.last, last > bentEndOffset, last <= largestBend * length,
              zip(bend, bend.dropFirst(growthSpan)).allSatisfy({ $1 >= $0 }),
              let bent = Line(fitting: followed.suffix(bentEndPoints).map(\.p)) else { return nil }
        // the same edge: its step as steep as on the line, within a factor `sameEdgeStep`
        // (a curled part turned from the light dims its edge a little; the edge of a sheet
        // below or of print on it, strayed onto, is another step)
        guard let lineStep = median(onLineSteps), let bendStep = median(followed[(departure + 1)...].map(\.step)),
              bendStep < sameEdgeStep * lineStep, lineStep < sameEdgeStep * bendStep else { return nil }
        // a curled edge leaves its side's line smoothly, ever faster: its middle lies
        // nearer the line than the chord from where it left the line to its end. Another
        // edge crossing the side at an angle (a sheet below) leaves it straight or slowing
        guard bend[bend.count / 2] - start < bendBelowChord * (last - start) else { return nil }
        return (bent, last)
    }

    /// See `bentEnd`: a bent end's edge is the side's own when its median step is within
    /// this factor of the side's on its line.
    static let sameEdgeStep = 2.0

    /// The middle of `values` sorted (the upper one of an even count); nil for none.
    static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.sorted()[values.count / 2]
    }

    /// The offset at `t` of the least-squares line through `recent` (t, offset) points.
    static func predicted(at t: Double, from recent: ArraySlice<(t: Double, d: Double)>) -> Double {
        let n = Double(recent.count)
        let mt = recent.reduce(0) { $0 + $1.t } / n, md = recent.reduce(0) { $0 + $1.d } / n
        var stt = 0.0, std = 0.0
        for r in recent { stt += (r.t - mt) * (r.t - mt); std += (r.t - mt) * (r.d - md) }
        guard stt > 0 else { return md }
        return md + std / stt * (t - mt)
    }

    /// Offset along `normal` (outward) of the largest bright-outside/dark-inside step.
    static func strongestEdge(in pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, at p: Point,
                              normal: Point, radius: Double, darkInside: Bool) -> Double? {
        strongestEdgeStep(in: pixels, width: width, height: height, at: p, normal: normal, radius: radius,
                          darkInside: darkInside)?.offset
    }

    /// `strongestEdge` with the step's size (grey levels per pixel).
    static func strongestEdgeStep(in pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, at p: Point,
                                  normal: Point, radius: Double, darkInside: Bool) -> (offset: Double, step: Double)? {
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
                                      darkInside: Bool) -> (offset: Double, step: Double)? {
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
        return ((offset - Double(n + 2)) * step, bestValue)
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
