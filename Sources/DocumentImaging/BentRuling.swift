public import ImagingCore

/// Where a grid's ruling lines really run in a region straightened by one homography: a
/// page curling towards a book's spine, a sheet that is not flat, or an outline found a
/// little off the grid's frame (a shadow, the sheet below) moves its lines off the
/// straight ruling by part of a cell, and straight cuts put the neighbours' digits into
/// a cell.
///
/// Each line is measured one cell span at a time: across the span's middle (away from
/// the crossing lines) the row (column) most inked near the line's straight position,
/// when a line's width of ink with paper beside it covers most of the span. A page bends
/// smoothly, so all the measured offsets of the horizontal lines are fitted by one smooth
/// field over the grid (a polynomial of degree two in each direction, least squares,
/// strays dropped and fitted again), and those of the vertical lines by another; spans
/// not found near the straight position are searched again along the field (a strong
/// bend carries a line out of the straight search). A line measured nowhere follows its
/// neighbours. The cells' corners are the fields at the crossings.
public struct BentRuling: Sendable, Equatable {
    /// The crossings of the ruling's lines as they run: `rows + 1` rows of `columns + 1`
    /// points (straightened pixel-edge coordinates), row by row.
    public let corners: [[Point]]
    /// The straight ruling it bends.
    public let ruling: Ruling

    /// The largest distance of a crossing from where the straight ruling puts it, as a
    /// share of the cell pitch (the smaller of the median cell width and height).
    public var largestShift: Double {
        let pitch = Self.pitch(of: ruling)
        var most = 0.0
        for r in 0...ruling.rowCount {
            for c in 0...ruling.columnCount {
                let p = corners[r][c]
                most = max(most, abs(p.x - ruling.columns[c]), abs(p.y - ruling.rows[r]))
            }
        }
        return pitch > 0 ? most / pitch : 0
    }

    /// The corners of cell (row, column): top-left, top-right, bottom-right, bottom-left.
    public func cell(_ row: Int, _ column: Int) -> [Point] {
        [corners[row][column], corners[row][column + 1], corners[row + 1][column + 1], corners[row + 1][column]]
    }

    /// A line is looked for this share of the cell pitch either side of its straight
    /// position: a bend of up to a third of a cell, with room for the line's own width
    /// (further, a straight cut holds as much of the neighbour's digit as of its own:
    /// the grid's outline is then not its frame at all).
    public static let reach = 0.4
    /// The middle share of a span that is searched (its ends lie on the crossing lines,
    /// which are inked along every row near the crossing).
    public static let spanMiddle = 0.8
    /// A row counts as the line when at least this share of the span's middle is inked
    /// in it (a printed line inks all of it, broken by blur or a digit's stroke at most
    /// in a few places; the top stroke of a 5 or a 7 inks at most about 60 % of a cell's
    /// width, three quarters of the middle).
    public static let lineCoverage = 0.8

    /// A line is at most this share of the cell pitch thick (a sudoku's box line is about
    /// a tenth of a cell, twice that blurred); a thicker inked band is a shadow or a blot.
    public static let widestLine = 0.2
    /// How far a bent line may rise or fall across one span, as a share of the span: a
    /// row's coverage counts ink this far above or below it (about 2°).
    public static let slope = 0.04
    /// A measured offset more than this share of the cell pitch (at least a pixel) off
    /// the smooth field through the other offsets is a stroke taken for the line.
    public static let offCurve = 0.05
    /// A field is fitted only when the lines were found in at least this share of their
    /// spans (a third: a few lines seen through a shadow or under a scrawl bend nothing).
    public static let fewestSpans = 1.0 / 3

    /// A bend with these crossings (`corners`, row by row) of `ruling`'s lines.
    init(corners: [[Point]], ruling: Ruling) {
        self.corners = corners
        self.ruling = ruling
    }

    /// The ruling's lines followed in `ink` (the straightened region's ink, the size the
    /// ruling's positions are measured in). Complexity: O(lines × cells × pitch²).
    public init(following ruling: Ruling, in ink: BinaryImage) {
        self.ruling = ruling
        let pitch = Self.pitch(of: ruling)
        let x0 = ruling.columns.first!, x1 = ruling.columns.last!, y0 = ruling.rows.first!, y1 = ruling.rows.last!
        // the grid's own coordinates, 0…1 each way
        let u = { (x: Double) in (x - x0) / max(1, x1 - x0) }, v = { (y: Double) in (y - y0) / max(1, y1 - y0) }
        let rows = Self.field(lines: ruling.rows, across: ruling.columns, horizontal: true, pitch: pitch, in: ink,
                              at: { along, line in (u(along), v(line)) })
        let columns = Self.field(lines: ruling.columns, across: ruling.rows, horizontal: false, pitch: pitch, in: ink,
                                 at: { along, line in (u(line), v(along)) })
        let bent = ruling.rows.map { y in
            ruling.columns.map { x in Point(x + (columns?(u(x), v(y)) ?? 0), y + (rows?(u(x), v(y)) ?? 0)) }
        }
        // a field that came out of a near-singular fit is no measurement: straight
        let finite = bent.allSatisfy { $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        corners = finite ? bent : ruling.rows.map { y in ruling.columns.map { Point($0, y) } }
    }

    /// The smooth field of offsets of the `lines` (each crossed by `dividers`), as a
    /// function of the grid's coordinates, or nil when too few spans were found to fit
    /// one (`fewestSpans`). `at` gives the grid coordinates of a point `along` a line.
    static func field(lines: [Double], across dividers: [Double], horizontal: Bool, pitch: Double, in ink: BinaryImage,
                      at: @escaping (_ along: Double, _ line: Double) -> (Double, Double)) -> ((Double, Double) -> Double)? {
        let reachPixels = max(1, Int(reach * pitch))
        let spans = Array(zip(dividers, dividers.dropFirst()))
        guard !lines.isEmpty, !spans.isEmpty else { return nil }
        let lengths = spans.map { $0.1 - $0.0 }.sorted()
        let lanes = Lanes(ink, horizontal: horizontal, drift: max(1, Int((slope * lengths[lengths.count / 2]).rounded())))
        var measured = lines.map { line in
            spans.map { offset(of: line, along: $0.0...$0.1, reach: reachPixels, pitch: pitch, in: lanes) }
        }
        func fit() -> ((Double, Double) -> Double)? {
            var points: [(u: Double, v: Double, value: Double)] = []
            for (k, line) in lines.enumerated() {
                for (c, span) in spans.enumerated() {
                    guard let value = measured[k][c] else { continue }
                    let (u, v) = at((span.0 + span.1) / 2, line)
                    points.append((u, v, value))
                }
            }
            guard Double(points.count) >= fewestSpans * Double(lines.count * spans.count) else { return nil }
            return smoothField(through: points, tolerance: max(1, offCurve * pitch))
        }
        guard let straight = fit() else { return nil }
        for (k, line) in lines.enumerated() {
            for (c, span) in spans.enumerated() where measured[k][c] == nil {
                let guide = { (t: Double) in let (u, v) = at(t, line); return straight(u, v) }
                measured[k][c] = offset(of: line, along: span.0...span.1, reach: reachPixels, pitch: pitch,
                                        in: lanes, guide: guide)
            }
        }
        guard let bent = fit() else { return nil }
        // never further than a line is looked for
        let most = reach * pitch
        return { u, v in min(most, max(-most, bent(u, v))) }
    }

    /// The cell pitch: the smaller of the median cell width and height.
    public static func pitch(of ruling: Ruling) -> Double {
        func median(_ lines: [Double]) -> Double {
            let steps = zip(lines, lines.dropFirst()).map { $1 - $0 }.sorted()
            return steps.isEmpty ? 0 : steps[steps.count / 2]
        }
        return min(median(ruling.rows), median(ruling.columns))
    }

    /// The ink seen along one direction's lines: each lane (a row for horizontal lines, a
    /// column for vertical ones) counts as inked where ink lies within `drift` lanes of it
    /// (a line sloping across a span), with running counts along each lane.
    struct Lanes {
        /// How many lanes, and how long each is.
        let count, length: Int
        /// How many lanes either side count.
        let drift: Int
        /// count × length: inked within the drift.
        let inked: [UInt8]
        /// count × (length + 1): inked positions before each position along the lane.
        let before: [Int32]

        init(_ ink: BinaryImage, horizontal: Bool, drift: Int) {
            let bits = horizontal ? ink.bits : ink.transposedBits()
            let (count, length) = horizontal ? (ink.height, ink.width) : (ink.width, ink.height)
            var inked = [UInt8](repeating: 0, count: count * length)
            var before = [Int32](repeating: 0, count: count * (length + 1))
            bits.withUnsafeBufferPointer { src in
                inked.withUnsafeMutableBufferPointer { dst in
                    before.withUnsafeMutableBufferPointer { run in
                        for lane in 0..<count {
                            let out = dst.baseAddress! + lane * length
                            for near in max(0, lane - drift)...min(count - 1, lane + drift) {
                                let from = src.baseAddress! + near * length
                                for t in 0..<length { out[t] |= from[t] }
                            }
                            let sums = run.baseAddress! + lane * (length + 1)
                            var total: Int32 = 0
                            for t in 0..<length { total &+= Int32(out[t]); sums[t + 1] = total }
                        }
                    }
                }
            }
            (self.count, self.length, self.drift, self.inked, self.before) = (count, length, drift, inked, before)
        }

        /// Inked positions of `lane` in lo..<hi (none outside the image).
        func inkedCount(_ lane: Int, _ lo: Int, _ hi: Int) -> Int {
            guard lane >= 0, lane < count else { return 0 }
            let a = max(0, lo), b = min(length, hi)
            return b > a ? Int(before[lane * (length + 1) + b] - before[lane * (length + 1) + a]) : 0
        }

        /// Whether `lane` is inked at `t` (outside the image: no).
        func isInked(_ lane: Int, _ t: Int) -> Bool {
            lane >= 0 && lane < count && t >= 0 && t < length && inked[lane * length + t] != 0
        }
    }

    /// How far from `position` a line runs across the middle of the span `along`: the
    /// offset of the most inked lane within `reach` of `guide` (the expected offset at
    /// each point along; none: straight), when it inks `lineCoverage` of the span (the
    /// centre of the run of such lanes beside it: a thick line's middle, taken only when
    /// it is a line's width with paper beside it); nil when none does.
    static func offset(of position: Double, along span: ClosedRange<Double>, reach: Int, pitch: Double,
                       in lanes: Lanes, guide: ((Double) -> Double)? = nil) -> Double? {
        let length = span.upperBound - span.lowerBound
        let lo = Int((span.lowerBound + (1 - spanMiddle) / 2 * length).rounded())
        let hi = Int((span.upperBound - (1 - spanMiddle) / 2 * length).rounded())
        guard hi > lo else { return nil }
        let need = lineCoverage * Double(hi - lo)
        // each candidate lane's inked count across the span's middle, lanes counted from
        // the one whose middle lies nearest the expected line (at each point along)
        let counts: [Int]
        if let guide {
            let centre = (lo..<hi).map { t in Int((position + guide(Double(t) + 0.5) - 0.5).rounded()) }
            counts = (-reach...reach).map { k in
                var n = 0
                for (i, t) in (lo..<hi).enumerated() where lanes.isInked(centre[i] + k, t) { n += 1 }
                return n
            }
        } else {
            let centre = Int((position - 0.5).rounded())
            counts = (-reach...reach).map { lanes.inkedCount(centre + $0, lo, hi) }
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), Double(counts[best]) >= need else { return nil }
        var first = best, last = best
        while first > 0, Double(counts[first - 1]) >= need { first -= 1 }
        while last < counts.count - 1, Double(counts[last + 1]) >= need { last += 1 }
        guard first > 0, last < counts.count - 1, Double(last - first + 1 - 2 * lanes.drift) <= widestLine * pitch,
              Double(counts[first - 1]) < need / 2 || Double(counts[last + 1]) < need / 2 else { return nil }
        let middle = Double(first + last) / 2 - Double(reach)
        return (guide?((span.lowerBound + span.upperBound) / 2) ?? 0) + middle
    }

    /// The field of degree two in each of u and v (nine terms) fitted to `points` by least
    /// squares; points more than `tolerance` off the first fit are dropped (a digit's
    /// stroke taken for the line) and the rest fitted again.
    static func smoothField(through points: [(u: Double, v: Double, value: Double)],
                            tolerance: Double) -> ((Double, Double) -> Double)? {
        func terms(_ u: Double, _ v: Double) -> [Double] {
            [1, u, u * u, v, u * v, u * u * v, v * v, u * v * v, u * u * v * v]
        }
        func solve(_ pts: [(u: Double, v: Double, value: Double)]) -> [Double]? {
            LinearSystem.leastSquares(pts.map { terms($0.u, $0.v) }, pts.map(\.value), ridge: ridge)
        }
        guard var c = solve(points) else { return nil }
        let value = { (c: [Double], u: Double, v: Double) in zip(c, terms(u, v)).reduce(0) { $0 + $1.0 * $1.1 } }
        let kept = points.filter { abs($0.value - value(c, $0.u, $0.v)) <= tolerance }
        if kept.count < points.count, let again = solve(kept) { c = again }
        return { u, v in value(c, u, v) }
    }

    /// The ridge added to the normal equations' diagonal (offsets are pixels, terms at
    /// most 1: far below what any measured point weighs).
    static let ridge = 1e-3
}

extension GrayImage {
    /// The image with `bent`'s cells moved back onto its straight ruling: each cell of
    /// the ruling filled from the quad its lines really enclose (bilinear in the cell's
    /// corners, sampled bilinearly); outside the ruling, the image as it is.
    /// Complexity: O(width × height).
    public func unbent(_ bent: BentRuling) -> GrayImage {
        guard width > 1, height > 1 else { return self }
        let insideLast = 1e-6   // (`EdgeRefiner.sample` wants a pixel to the right and below)
        var out = pixels
        let ruling = bent.ruling
        let (w, h) = (width, height)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for r in 0..<ruling.rowCount {
                    for c in 0..<ruling.columnCount {
                        let q = bent.cell(r, c)
                        let x0 = ruling.columns[c], x1 = ruling.columns[c + 1], y0 = ruling.rows[r], y1 = ruling.rows[r + 1]
                        let px0 = max(0, Int(x0.rounded())), px1 = min(w, Int(x1.rounded()))
                        let py0 = max(0, Int(y0.rounded())), py1 = min(h, Int(y1.rounded()))
                        guard px1 > px0, py1 > py0 else { continue }
                        for y in py0..<py1 {
                            let v = (Double(y) + 0.5 - y0) / (y1 - y0)
                            // the cell's row v, a segment in the bent image, walked along
                            let left = BentRuling.blend(q, 0, v), right = BentRuling.blend(q, 1, v)
                            for x in px0..<px1 {
                                let u = (Double(x) + 0.5 - x0) / (x1 - x0)
                                // pixel-index coordinates, held inside the last pixel
                                let sx = min(max(left.x + (right.x - left.x) * u - 0.5, 0), Double(w - 1) - insideLast)
                                let sy = min(max(left.y + (right.y - left.y) * u - 0.5, 0), Double(h - 1) - insideLast)
                                let value = EdgeRefiner.sample(src, width: w, height: h, sx, sy) ?? 255
                                dst[y * w + x] = UInt8(value + 0.5)
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}

extension BentRuling {
    /// The point at (u, v) ∈ [0, 1]² of the quad `q` (top-left, top-right, bottom-right,
    /// bottom-left), blending its corners bilinearly.
    static func blend(_ q: [Point], _ u: Double, _ v: Double) -> Point {
        let top = Point(q[0].x + (q[1].x - q[0].x) * u, q[0].y + (q[1].y - q[0].y) * u)
        let bottom = Point(q[3].x + (q[2].x - q[3].x) * u, q[3].y + (q[2].y - q[3].y) * u)
        return Point(top.x + (bottom.x - top.x) * v, top.y + (bottom.y - top.y) * v)
    }

    /// The same bend in the region turned a quarter clockwise (`height`: the region's
    /// height before the turn; (x, y) goes to (height − y, x), as `GrayImage.rotated`).
    public func turnedClockwise(height: Int) -> BentRuling {
        let h = Double(height), last = ruling.rowCount
        var turned = [[Point]](repeating: [Point](repeating: Point(0, 0), count: last + 1), count: ruling.columnCount + 1)
        for r in 0...last {
            for c in 0...ruling.columnCount {
                let p = corners[r][c]
                turned[c][last - r] = Point(h - p.y, p.x)
            }
        }
        return BentRuling(corners: turned, ruling: Ruling(rows: ruling.columns, columns: ruling.rows.map { h - $0 }.reversed()))
    }

    /// Where a point of the unbent image (straightened pixel-edge coordinates) lies in the
    /// bent one: through its cell's quad; outside the ruling, unmoved.
    public func bentPoint(_ p: Point) -> Point {
        guard let c = ruling.columns.indices.dropLast().last(where: { ruling.columns[$0] <= p.x }),
              let r = ruling.rows.indices.dropLast().last(where: { ruling.rows[$0] <= p.y }),
              p.x <= ruling.columns.last!, p.y <= ruling.rows.last! else { return p }
        let u = (p.x - ruling.columns[c]) / (ruling.columns[c + 1] - ruling.columns[c])
        let v = (p.y - ruling.rows[r]) / (ruling.rows[r + 1] - ruling.rows[r])
        return Self.blend(cell(r, c), u, v)
    }
}
