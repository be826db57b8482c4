public import ImagingCore

/// Paper found by its flatness rather than by its outline's darkness: on a copy coarse
/// enough that print and desk texture blur away, neighbouring pixels closer than a step
/// set by the copy's own noise are joined (λ-flat zones); a sheet or note is then one
/// zone of flat pixels (every neighbour within the step), bounded by its edge whichever
/// side is darker (a blue note on a beige desk is the darker one, and only a tenth
/// darker: under any ink threshold). A soft shadow across a sheet is crossed, since its
/// change is spread over many pixels. With the photo's colour (`ChromaPlanes`), two flat
/// neighbours of different colour are not joined: a pink note can be exactly as bright as
/// a grey desk.
public enum FlatZones {
    /// Longer side of the coarse copy, pixels: notes and sheets (at least a few per cent
    /// of the photo's side) stay tens of pixels wide; print and texture blur away.
    public static let coarseSide = 240

    /// The joining step is this many times the copy's typical neighbour difference (its
    /// noise and leftover texture), so that it follows the photo, not a constant.
    public static let stepOverNoise = 3.0

    /// The smallest step, grey levels: on a very clean copy a noise-sized step would cut
    /// paper at every faint gradient.
    public static let smallestStep = 2

    /// The smallest step in a colour plane, grey levels: twice `smallestStep`, as JPEG
    /// quantizes chroma about twice as coarsely as luminance (its standard tables) and
    /// leaves ripples of a few levels around every edge (measured on corpus seed 1: 2
    /// splits paper at them; 3 to 6 do the same).
    public static let smallestColourStep = 4

    /// A zone is kept when it covers at least this share of the copy (paper, not specks)
    /// and at most `largestShare` (not the whole desk).
    public static let smallestShare = 0.004
    /// See `smallestShare`.
    public static let largestShare = 0.8

    /// The zones of `image` large enough to be paper, each as a binary mask of the coarse
    /// copy (1 inside), with the coarse copy and the reduction that made it. With the
    /// photo's `chroma`, neighbours are joined only where they are close in colour too
    /// (each plane with its own step): a note as bright as the desk but of another colour
    /// is a zone of its own. `colour`: the chroma planes laid out as the coarse copy.
    public static func zones(of image: GrayImage, chroma: ChromaPlanes? = nil)
        -> (factor: Int, coarse: GrayImage, masks: [BinaryImage], colour: [GrayImage]) {
        let factor = max(1, Int((Double(max(image.width, image.height)) / Double(coarseSide)).rounded(.up)))
        let coarse = image.reduced(by: factor)
        let w = coarse.width, h = coarse.height, n = w * h
        guard n > 0 else { return (factor, coarse, [], []) }
        let colour = chroma?.resampled(reducedBy: factor, width: w, height: h) ?? []
        let step = joiningStep(coarse)
        let colourSteps = colour.map { max(smallestColourStep, joiningStep($0)) }
        // union–find over the 4-neighbour joins, roots the smallest index of their zone
        var label = [Int32](0..<Int32(n))
        var area = [Int32](repeating: 0, count: n)
        label.withUnsafeMutableBufferPointer { parentBuffer in
            let parent = parentBuffer.baseAddress!
            func root(_ i: Int32) -> Int32 {
                var r = i
                while parent[Int(r)] != r { r = parent[Int(r)] }
                var j = i
                while parent[Int(j)] != r { let next = parent[Int(j)]; parent[Int(j)] = r; j = next }
                return r
            }
            func join(_ a: Int, _ b: Int) {
                let ra = root(Int32(a)), rb = root(Int32(b))
                if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
            }
            // a pixel on an edge (some neighbour further than the step) joins nothing: a
            // slanted edge, averaged into a ramp that changes little from pixel to pixel
            // along it, would otherwise chain the paper to the desk
            var flat = [Bool](repeating: false, count: n)
            coarse.pixels.withUnsafeBufferPointer { px in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let i = row + x, v = Int(px[i])
                        flat[i] = (x == 0 || abs(Int(px[i - 1]) - v) <= step) && (x + 1 == w || abs(Int(px[i + 1]) - v) <= step)
                            && (y == 0 || abs(Int(px[i - w]) - v) <= step) && (y + 1 == h || abs(Int(px[i + w]) - v) <= step)
                    }
                }
            }
            // two flat neighbours of different colour are not joined (the colour planes,
            // smoother than the gray, only cut joins: their edges would widen the border)
            func sameColour(_ i: Int, _ j: Int) -> Bool {
                for (plane, limit) in zip(colour, colourSteps) where abs(Int(plane.pixels[i]) - Int(plane.pixels[j])) > limit {
                    return false
                }
                return true
            }
            for y in 0..<h {
                let row = y * w
                for x in 0..<w where flat[row + x] {
                    let i = row + x
                    if x + 1 < w, flat[i + 1], sameColour(i, i + 1) { join(i, i + 1) }
                    if y + 1 < h, flat[i + w], sameColour(i, i + w) { join(i, i + w) }
                }
            }
            // roots come before their members: one pass flattens every chain
            for i in 0..<n { parent[i] = parent[Int(parent[i])] }
        }
        for i in 0..<n { area[Int(label[i])] += 1 }
        let smallest = Int32(smallestShare * Double(n)), largest = Int32(largestShare * Double(n))
        var masks: [BinaryImage] = []
        for r in 0..<n where label[r] == Int32(r) && area[r] >= smallest && area[r] <= largest {
            let zone = Int32(r)
            masks.append(BinaryImage(width: w, height: h, bits: label.map { $0 == zone ? 1 : 0 }))
        }
        masks += shadowSplitUnions(label: label, area: area, in: coarse, largest: largest, noiseStep: step)
        return (factor, coarse, masks, colour)
    }

    /// Two zones facing each other across a thin line of edge pixels (`widestBorder`), or
    /// across a wider ramp between their levels (a soft shadow's penumbra, up to
    /// `widestRampShare` of the smaller one's breadth), along at least `sharedBorder` of
    /// the smaller one's breadth, where that border cuts across both and its step runs on
    /// past them, or the smaller lies along it as a strip of even thickness (`crossesOn`):
    /// a sheet or note a shadow's edge cuts in two (each part alone is no quad, or one cut
    /// short), or a note and its darker sticky strip. Each such pair is returned joined (the edge
    /// pixels between them filled), for the paper test to judge like any zone. Parts count
    /// from a quarter of `smallestShare`.
    static func shadowSplitUnions(label: [Int32], area: [Int32], in coarse: GrayImage, largest: Int32,
                                  noiseStep: Int) -> [BinaryImage] {
        let w = coarse.width, h = coarse.height, n = w * h
        let smallestPart = Int32(smallestShare / 4 * Double(n))
        func isPart(_ zone: Int32) -> Bool { area[Int(zone)] >= smallestPart && area[Int(zone)] <= largest }
        // pairs facing across a band of up to `widestBorder` edge pixels (or a wider ramp),
        // right or down, with where they face (a pixel of one, the step towards the other
        // and how many steps away the other lies)
        var bridges: [Int: [Bridge]] = [:]
        let px = coarse.pixels
        // a band wider than `widestBorder` is a soft shadow's ramp: every pixel between
        // the two sides' levels (within the noise step), never turning back
        func isRamp(from i: Int, across d: Int, step: Int) -> Bool {
            let v0 = Int(px[i]), v1 = Int(px[i + d * step]), rising = v1 >= v0
            var previous = v0
            for k in 1..<d {
                let v = Int(px[i + k * step])
                if v < min(v0, v1) - noiseStep || v > max(v0, v1) + noiseStep { return false }
                if (rising ? previous - v : v - previous) > noiseStep { return false }
                previous = v
            }
            return true
        }
        // the widest band a zone of `zoneArea` pixels is joined across
        func widestBand(_ zoneArea: Int32) -> Int { max(widestBorder, Int(widestRampShare * Double(zoneArea).squareRoot())) }
        func face(_ i: Int, _ a: Int32, step: Int, room: Int) {
            guard room >= 2 else { return }
            for d in 2...min(room, widestBand(area[Int(a)]) + 1) {
                let b = label[i + d * step]
                if b == a { return }                        // the zone goes on: no border here
                guard isPart(b) else { continue }
                guard d - 1 <= widestBand(min(area[Int(a)], area[Int(b)])),
                      d - 1 <= widestBorder || isRamp(from: i, across: d, step: step) else { return }
                bridges[Int(min(a, b)) * n + Int(max(a, b)), default: []].append(Bridge(pixel: i, step: step, reach: d))
                return
            }
        }
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x, a = label[i]
                guard isPart(a) else { continue }
                if x + 1 < w, label[i + 1] != a { face(i, a, step: 1, room: w - 1 - x) }
                if y + 1 < h, label[i + w] != a { face(i, a, step: w, room: h - 1 - y) }
            }
        }
        var unions: [BinaryImage] = []
        for key in bridges.keys.sorted() {   // in a fixed order: a dictionary's varies by run
            let pairs = bridges[key]!, a = Int32(key / n), b = Int32(key % n)
            let breadth = Double(min(area[Int(a)], area[Int(b)])).squareRoot()
            guard Double(pairs.count) >= sharedBorder * breadth, area[Int(a)] + area[Int(b)] <= largest,
                  crossesOn(pairs, between: [a, b], label: label, in: coarse,
                            strip: area[Int(a)] <= area[Int(b)] ? a : b, stripArea: min(area[Int(a)], area[Int(b)]))
            else { continue }
            var bits = label.map { $0 == a || $0 == b ? UInt8(1) : 0 }
            for bridge in pairs {
                let step = bridge.step
                var k = bridge.pixel + step
                while label[k] != a && label[k] != b { bits[k] = 1; k += step }
            }
            unions.append(BinaryImage(width: w, height: h, bits: bits))
        }
        return unions
    }

    /// True when the border between two zones (the line through the middles of the
    /// `bridges` between them) cuts across both — past its ends lies neither — and either
    /// its step runs on past them at either end, the same way and at least half as strong
    /// relative to the level there (a shadow dims by a factor: on a darker desk its step is
    /// fewer grey levels): a shadow's edge falls across the desk too, where the border
    /// between two different things lying side by side ends with them; or the zone `strip`
    /// (of `stripArea` pixels, the smaller) lies along the whole border as a strip of even
    /// thickness (`isEvenStrip`): a note's darker sticky strip or a shaded fold along one
    /// side, which ends with the paper as its border does, where another paper beside it
    /// would not keep to the border's line.
    static func crossesOn(_ bridges: [Bridge], between zones: [Int32], label: [Int32], in coarse: GrayImage,
                          strip: Int32? = nil, stripArea: Int32 = 0) -> Bool {
        let w = coarse.width
        let middles = bridges.map { bridge in
            let i = bridge.pixel, j = i + bridge.step * bridge.reach
            return Point(Double(i % w + j % w) / 2, Double(i / w + j / w) / 2)
        }
        // grey is read this far either side of the border: past the band of edge pixels
        let halfBand = Double(bridges.reduce(0) { $0 + $1.reach }) / Double(max(1, bridges.count)) / 2
        let reachOut = max(3, halfBand + 1)
        guard let line = Line(fitting: middles) else { return false }
        let normal = FlatZones.outwardNormal(line.direction)
        let ts = middles.map { ($0.x - line.point.x) * line.direction.x + ($0.y - line.point.y) * line.direction.y }
        guard let t0 = ts.min(), let t1 = ts.max(), t1 - t0 >= shortestBorder else { return false }
        // the mean step across the line (outside minus inside) and the same relative to
        // the lighter side's level
        func step(from: Double, to: Double) -> (difference: Double, relative: Double)? {
            var outsides = 0.0, insides = 0.0, count = 0.0
            for k in 0..<12 {
                let t = from + (to - from) * Double(k) / 11
                guard let outside = grey(coarse, from: line.point, along: line.direction, normal: normal, at: t, offset: reachOut),
                      let inside = grey(coarse, from: line.point, along: line.direction, normal: normal, at: t, offset: -reachOut)
                else { continue }
                outsides += outside; insides += inside; count += 1
            }
            guard count >= 6 else { return nil }
            let difference = (outsides - insides) / count
            return (difference, difference / max(1, max(outsides, insides) / count))
        }
        let length = t1 - t0, margin = 2 * reachOut
        // the border cuts the pair right across: past its ends lies neither zone (a
        // border along part of one zone's side is that side, with something beside it);
        // looked for twice as far past the ends as to the sides, where a zone's side
        // meeting the border aslant still leaves room
        for t in [t0 - margin, t1 + margin] {
            for offset in [-reachOut, reachOut] {
                let x = Int((line.point.x + t * line.direction.x + offset * normal.x).rounded())
                let y = Int((line.point.y + t * line.direction.y + offset * normal.y).rounded())
                if x >= 0, y >= 0, x < w, y < coarse.height, zones.contains(label[y * w + x]) { return false }
            }
        }
        guard let along = step(from: t0 + 0.1 * length, to: t1 - 0.1 * length), abs(along.difference) >= edgeContrast else { return false }
        if let strip, Double(stripArea) / length <= stripShare * length,
           isEvenStrip(strip, along: line, normal: normal, from: t0, to: t1, skipping: reachOut, label: label, width: w,
                       height: coarse.height) {
            return true
        }
        // past each end, as far as half the border's length or the photo's edge
        func reach(from t: Double, by sign: Double) -> Double {
            var s = 0.0
            while s + 1 <= 0.5 * length {
                let u = t + sign * (s + 1)
                let inside = [-reachOut, reachOut].allSatisfy { offset in
                    let x = line.point.x + u * line.direction.x + offset * normal.x
                    let y = line.point.y + u * line.direction.y + offset * normal.y
                    return x >= 0 && y >= 0 && x <= Double(w - 1) && y <= Double(coarse.height - 1)
                }
                if !inside { break }
                s += 1
            }
            return s
        }
        let after = reach(from: t1 + margin, by: 1), before = reach(from: t0 - margin, by: -1)
        let past = [after >= shortestBorder ? step(from: t1 + margin, to: t1 + margin + after) : nil,
                before >= shortestBorder ? step(from: t0 - margin - before, to: t0 - margin) : nil]
        // a shadow dims by a factor: on a darker desk its step is as large a share of the
        // level, not as many grey levels
        return past.contains { c in c.map { $0.relative * along.relative > 0 && abs($0.relative) >= 0.5 * abs(along.relative) } ?? false }
    }

    /// True when the zone `strip` lies along the border `line` (from `t0` to `t1`) as a
    /// strip of even thickness: its pixels counted across the border, as far as the
    /// thickest strip taken (`stripShare` of the border's length, past `skipping` pixels of
    /// edge band; flecks of the paper's tone in it, noise where two close tones meet, do
    /// not end the count) at every tenth of the way from a tenth to nine tenths, the thinnest
    /// and the thickest measure left out, it is everywhere thick and nowhere more than
    /// `evenStripRatio` times as thick as elsewhere: a tapering wedge (another paper's
    /// corner, a tint cut aslant) is no strip.
    static func isEvenStrip(_ strip: Int32, along line: Line, normal: Point, from t0: Double, to t1: Double,
                            skipping: Double, label: [Int32], width w: Int, height h: Int) -> Bool {
        var thicknesses: [Int] = []
        let reach = skipping + 1 + stripShare * (t1 - t0)
        for share in stride(from: 0.1, through: 0.9, by: 0.1) {
            let t = t0 + share * (t1 - t0)
            let start = Point(line.point.x + t * line.direction.x, line.point.y + t * line.direction.y)
            var best = 0
            for side in [-1.0, 1.0] {
                var count = 0, d = 0.0
                while d < reach {
                    d += 1
                    let x = Int((start.x + side * d * normal.x).rounded()), y = Int((start.y + side * d * normal.y).rounded())
                    guard x >= 0, y >= 0, x < w, y < h else { break }
                    if label[y * w + x] == strip { count += 1 }
                }
                best = max(best, count)
            }
            thicknesses.append(best)
        }
        // the thinnest and the thickest measure left out: a corner's edge band nibbles an end
        let kept = thicknesses.sorted().dropFirst().dropLast()
        guard let thinnest = kept.first, thinnest > 0 else { return false }
        return Double(kept.last!) <= evenStripRatio * Double(thinnest)
    }

    /// See `crossesOn`: a zone along its border at most this share of the border's length
    /// thick is a strip of the paper beside it (a note's sticky strip, a shaded fold)…
    static let stripShare = 0.25
    /// …when nowhere more than this many times as thick as elsewhere along it
    /// (`isEvenStrip`): perspective changes a note's scale across it by far less.
    static let evenStripRatio = 2.0

    /// Where two zones face each other across a band of edge pixels: a pixel of one, the
    /// index step towards the other (1 right, the width down) and how many steps away it lies.
    struct Bridge {
        let pixel: Int, step: Int, reach: Int
    }

    /// See `shadowSplitUnions`: the widest band of edge pixels between two zones taken for
    /// one border (a hard shadow's edge, averaged into the coarse copy, with the pixels
    /// beside it that its step makes edge pixels too).
    static let widestBorder = 4

    /// See `crossesOn`: the shortest stretch of a border, or of its step past the zones,
    /// that is evidence (coarse pixels; a hard shadow's edge there is about as wide).
    static let shortestBorder = 4.0

    /// See `shadowSplitUnions`: a wider band between two zones is a soft shadow's ramp
    /// (its penumbra) when it is a ramp and at most this share of the smaller zone's
    /// breadth: narrower than the parts it joins.
    static let widestRampShare = 0.25

    /// See `shadowSplitUnions`: the shared border, as a share of the smaller zone's breadth
    /// (the square root of its area).
    static let sharedBorder = 0.5

    /// `stepOverNoise` times the median absolute difference of horizontal neighbours, at
    /// least `smallestStep`.
    public static func joiningStep(_ image: GrayImage) -> Int {
        var histogram = ByteHistogram()
        image.pixels.withUnsafeBufferPointer { px in
            for y in 0..<image.height {
                let row = y * image.width
                for x in 0..<(image.width - 1) { histogram.add(UInt8(abs(Int(px[row + x + 1]) - Int(px[row + x])))) }
            }
        }
        let typical = Double(histogram.percentile(0.5))
        return max(smallestStep, Int((stepOverNoise * typical).rounded()))
    }

    /// Per side of `quad` (in `image`'s coordinates, clockwise), the mean grey just
    /// inside minus just outside (sampled `offset` pixels either side) along three
    /// stretches of its line: `before` its first corner, its `middle` 80 %, and `after`
    /// its second corner (each stretch `past` of the side's length). nil for a stretch
    /// off the image.
    public static func sideContrasts(of quad: Quadrilateral, in image: GrayImage, offset: Double = 2,
                                     past: Double = 0.3) -> [(before: Double?, middle: Double, after: Double?)] {
        quad.sides.map { a, side, length in
            let normal = outwardNormal(side.direction)
            func contrast(from t0: Double, to t1: Double) -> Double? {
                var difference = 0.0, count = 0.0
                for k in 0..<16 {
                    let t = (t0 + (t1 - t0) * Double(k) / 15) * length
                    guard let vin = grey(image, from: a, along: side.direction, normal: normal, at: t, offset: -offset),
                          let vout = grey(image, from: a, along: side.direction, normal: normal, at: t, offset: offset)
                    else { continue }
                    difference += vin - vout; count += 1
                }
                return count < 8 ? nil : difference / count
            }
            return (contrast(from: -past, to: -0.05), contrast(from: 0.1, to: 0.9) ?? 0, contrast(from: 1.05, to: 1 + past))
        }
    }

    /// True when the zone's outline `quad` is the edge of something lying there (a sheet
    /// or a note): every side an edge (inside and outside differ by `edgeContrast`) that
    /// ends at the corners. A side whose step runs on past both its corners, the same way
    /// and at least half as strong, is a shadow's edge or a fold crossing the paper: the
    /// zone is a stretch of paper it cuts off, not a sheet.
    /// With `colour` (chroma planes laid out as `image`), each side is judged in the plane
    /// where it is the strongest edge.
    public static func outlinesPaper(_ quad: Quadrilateral, in image: GrayImage, colour: [GrayImage] = []) -> Bool {
        let planes = ([image] + colour).map { sideContrasts(of: quad, in: $0) }
        return (0..<4).map { k in planes.map { $0[k] }.max { abs($0.middle) < abs($1.middle) }! }.allSatisfy { side in
            guard abs(side.middle) >= edgeContrast else { return false }
            func continues(_ c: Double?) -> Bool {
                guard let c else { return false }
                return c * side.middle > 0 && abs(c) >= 0.5 * abs(side.middle)
            }
            return !(continues(side.before) && continues(side.after))
        }
    }

    /// The least difference (grey levels, coarse copy) between the two sides of a zone's
    /// outline for it to count as an edge.
    public static let edgeContrast = 2.0

    /// The outward normal of a side running along `direction` of a clockwise (on screen) quad.
    static func outwardNormal(_ direction: Point) -> Point { Point(direction.y, -direction.x) }

    /// The grey of the pixel nearest the point `t` pixels along a side (from `a` along
    /// `direction`), moved `offset` pixels along `normal` (outward when positive); nil off
    /// the image. What the paper tests here and `QuadDetector.isRimOfDesk` sample.
    static func grey(_ image: GrayImage, from a: Point, along direction: Point, normal: Point,
                     at t: Double, offset: Double) -> Double? {
        let x = Int((a.x + t * direction.x + offset * normal.x).rounded())
        let y = Int((a.y + t * direction.y + offset * normal.y).rounded())
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return nil }
        return Double(image.pixels[y * image.width + x])
    }
}
