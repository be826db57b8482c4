public import ImagingCore

/// Boxes drawn with straight, axis-aligned lines in a straightened image (the boxes of a
/// form on its straightened sheet), found from the lines themselves rather than from
/// closed outlines: a line broken by blur or faint print, or crossed by a digit, still
/// counts, and a box too small for the photo-wide detector's area floor is still seen.
///
/// Ink that is thin across a direction is line ink along it (a horizontal line's pixels
/// lie in short vertical runs; a digit's or a word's strokes mostly do not). Runs of line
/// ink along each row, joined across short gaps, make segments; segments in touching rows
/// make lines. A box is two horizontal lines of matching extent with a vertical line at
/// each end spanning the height between them.
public struct LineBoxes: Sendable {
    /// A straight line found: its extent along its direction and across it (pixels,
    /// inclusive), in the orientation it was found in.
    public struct Line: Equatable, Sendable {
        /// Where it runs along its direction (x for a row's line, y for a column's).
        public var along: ClosedRange<Int>
        /// Where it lies across its direction (the rows, or columns, it covers).
        public var across: ClosedRange<Int>
        /// Its length in pixels.
        public var length: Int { along.upperBound - along.lowerBound + 1 }
        /// The middle of the rows (columns) it covers.
        public var middle: Double { Double(across.lowerBound + across.upperBound) / 2 }
    }

    /// The thickest ink counted as a line, pixels (thicker ink is strokes, blots or bars).
    public var maximumThickness: Int
    /// The longest break bridged within a line (a digit crossing it, a faint stretch).
    public var bridgedGap: Int
    /// The shortest box side (and so the shortest line) taken, pixels.
    public var minimumSide: Int
    /// The shortest distance between a box's opposite lines' middles, pixels: set where
    /// the thickest line follows the strokes' width (`forStrokes(of:)`), so that a glyph's
    /// loop drawn in such strokes is no box.
    public var minimumRoom = 0

    /// Settings for a straightened region whose longer side is `longerSide` pixels: the
    /// line thickness, gap and box size are fixed shares of it, so the same drawing is
    /// found at every resolution.
    public init(longerSide: Int) {
        maximumThickness = max(3, Int((Double(longerSide) * Self.thicknessShare).rounded()))
        bridgedGap = 2 * maximumThickness
        minimumSide = max(Self.minimumSideFloor, Int((Double(longerSide) * Self.sideShare).rounded()))
    }

    /// A line is at most this share of the region's longer side thick (a 0.3–1 mm form
    /// line, blurred, on a sheet ~300 mm long: well under 3 mm).
    public static let thicknessShare = 0.01
    /// A box's shorter side is at least this share of the region's longer side (~5 mm on
    /// a sheet: room for a written digit).
    public static let sideShare = 1.0 / 60
    /// The shortest box side taken at any size, pixels (a digit needs room).
    public static let minimumSideFloor = 12
    /// The longer side from which the shares alone set a region's line and box sizes
    /// (`minimumSideFloor / sideShare`, 720 px): smaller regions are enlarged to it.
    public static let floorFreeSide = Int((Double(minimumSideFloor) / sideShare).rounded())
    /// The share of a box's height its side lines must cover, and of its width the top
    /// and bottom lines' extents must agree within.
    static let coverage = 0.8

    /// A box found: where the middles of its four lines run, in pixel-edge coordinates
    /// (the top-left pixel spans 0…1), and its outer edges.
    public struct Box: Sendable, Equatable, Hashable {
        /// The middle of the top, bottom, left and right line.
        public var top, bottom, left, right: Double
        /// The outer edges of the lines.
        public var outer: PixelBox
    }

    /// The boxes in `ink`, largest first. Nested boxes are all returned; a box a line of
    /// the same extent crosses is returned whole and as its parts: that line may be a
    /// ruling (stacked boxes) or a digit's stroke spanning a narrow box (a 7's bar), which
    /// no line's shape tells apart, so the layout weighs the whole against its parts by
    /// the glyphs each cuts (`Layout`).
    public func boxes(in ink: BinaryImage) -> [Box] {
        let (rows, columns) = lines(in: ink)
        var found: [Box] = []
        for (ti, top) in rows.enumerated() {
            // each line below with the same extent closes a box, nearest first, while the
            // sides run on to it
            let closing = rows.indices.filter { bi in
                bi != ti && rows[bi].middle > top.middle && sameExtent(top.along, rows[bi].along)
                    && rows[bi].across.upperBound - top.across.lowerBound + 1 >= minimumSide
            }.sorted { rows[$0].middle < rows[$1].middle }
            for bi in closing {
                guard let box = box(top: top, bottom: rows[bi], columns: columns) else { break }
                found.append(box)
            }
        }
        // each box once, largest first; boxes of one size in the order found (a set's order
        // varies from run to run, and the layout weighs boxes in this order)
        var seen = Set<Box>()
        let unique = found.filter { seen.insert($0).inserted }
        return unique.enumerated().sorted { a, b in
            let (areaA, areaB) = (a.element.outer.width * a.element.outer.height, b.element.outer.width * b.element.outer.height)
            return areaA != areaB ? areaA > areaB : a.offset < b.offset
        }.map(\.element)
    }

    /// The box between two lines of the same extent, when a side line runs between them at
    /// each end.
    func box(top: Line, bottom: Line, columns: [Line]) -> Box? {
        let left = max(top.along.lowerBound, bottom.along.lowerBound)
        let right = min(top.along.upperBound, bottom.along.upperBound)
        // the sides run between the lines' inner edges (where the lines cross them, ink
        // is not thin across the side)
        let between = top.across.upperBound...max(top.across.upperBound, bottom.across.lowerBound)
        guard let l = side(near: left, spanning: between, in: columns),
              let r = side(near: right, spanning: between, in: columns), r.middle - l.middle >= Double(minimumSide)
        else { return nil }
        let outer = PixelBox(x: l.across.lowerBound, y: top.across.lowerBound,
                             width: r.across.upperBound - l.across.lowerBound + 1,
                             height: bottom.across.upperBound - top.across.lowerBound + 1)
        return Box(top: top.middle + 0.5, bottom: bottom.middle + 0.5, left: l.middle + 0.5, right: r.middle + 0.5,
                   outer: outer)
    }

    /// Whether two lines' extents agree at both ends within a fifth of their length
    /// (`1 − coverage`), at least the bridged gap.
    func sameExtent(_ a: ClosedRange<Int>, _ b: ClosedRange<Int>) -> Bool {
        let length = Double(min(a.upperBound - a.lowerBound, b.upperBound - b.lowerBound) + 1)
        let tolerance = max(Double(bridgedGap), (1 - Self.coverage) * length)
        return Double(abs(a.lowerBound - b.lowerBound)) <= tolerance && Double(abs(a.upperBound - b.upperBound)) <= tolerance
    }

    /// The column line within a line's thickness of `position` (where the box's top and
    /// bottom lines end: at the side's inner edge) covering `coverage` of `span`, the one
    /// nearest `position`.
    func side(near position: Int, spanning span: ClosedRange<Int>, in columns: [Line]) -> Line? {
        let reach = Double(maximumThickness)
        let need = Self.coverage * Double(span.upperBound - span.lowerBound + 1)
        return columns.filter { c in
            guard abs(c.middle - Double(position)) <= reach else { return false }
            let covered = min(c.along.upperBound, span.upperBound) - max(c.along.lowerBound, span.lowerBound) + 1
            return Double(covered) >= need
        }.min { abs($0.middle - Double(position)) < abs($1.middle - Double(position)) }
    }

    /// The lines in `ink` running along its rows (`along` is x) and down its columns
    /// (`along` is y): what the boxes are made of (`scanreader-bench boxes` draws them).
    public func lines(in ink: BinaryImage) -> (rows: [Line], columns: [Line]) {
        (lines(ink.bits, width: ink.width, height: ink.height), lines(ink.transposedBits(), width: ink.height, height: ink.width))
    }

    /// The horizontal lines of a row-major bit image.
    func lines(_ bits: [UInt8], width: Int, height: Int) -> [Line] {
        // ink in a vertical run no thicker than a line (rows scanned in order, each
        // column's open run counted, so memory is read as it lies)
        var thin = [UInt8](repeating: 0, count: width * height)
        var runs = [Int32](repeating: 0, count: width)
        let thickest = Int32(maximumThickness)
        bits.withUnsafeBufferPointer { src in
            thin.withUnsafeMutableBufferPointer { dst in
                runs.withUnsafeMutableBufferPointer { run in
                    for y in 0...height {
                        let row = y < height ? src.baseAddress! + y * width : nil
                        for x in 0..<width {
                            if let row, row[x] != 0 { run[x] += 1; continue }
                            let n = run[x]
                            guard n > 0 else { continue }
                            if n <= thickest { for k in (y - Int(n))..<y { dst[k * width + x] = 1 } }
                            run[x] = 0
                        }
                    }
                }
            }
        }
        // segments: runs along each row joined across gaps, long enough to be a side; a
        // gap of any length that is ink all along joins too: a digit written across the
        // line makes its ink thick there, but the line runs on under it (how much of a
        // line such gaps may take is `inkedShare`'s business)
        var segments: [[ClosedRange<Int>]] = Array(repeating: [], count: height)
        thin.withUnsafeBufferPointer { t in
            bits.withUnsafeBufferPointer { raw in
                for y in 0..<height {
                    var x = 0, start = -1, last = -1
                    while x <= width {
                        let ink = x < width && t[y * width + x] != 0
                        if ink {
                            if start < 0 || (x - last - 1 > bridgedGap
                                             && !((last + 1)..<x).allSatisfy { raw[y * width + $0] != 0 }) {
                                if start >= 0 && last - start + 1 >= minimumSide { segments[y].append(start...last) }
                                start = x
                            }
                            last = x
                        }
                        x += 1
                    }
                    if start >= 0 && last - start + 1 >= minimumSide { segments[y].append(start...last) }
                }
            }
        }
        // lines: segments of touching rows whose extents overlap (or meet within a gap)
        var open: [Line] = [], done: [Line] = []
        for y in 0..<height {
            var next: [Line] = []
            var taken = [Bool](repeating: false, count: open.count)
            for s in segments[y] {
                if let k = open.indices.first(where: { !taken[$0] && open[$0].along.lowerBound - bridgedGap <= s.upperBound
                                                      && s.lowerBound <= open[$0].along.upperBound + bridgedGap }) {
                    taken[k] = true
                    var line = open[k]
                    line.along = min(line.along.lowerBound, s.lowerBound)...max(line.along.upperBound, s.upperBound)
                    line.across = line.across.lowerBound...y
                    next.append(line)
                } else {
                    next.append(Line(along: s, across: y...y))
                }
            }
            for k in open.indices where !taken[k] { done.append(open[k]) }
            open = next
        }
        // a line is drawn through: thin ink at most places along it (the gaps bridged
        // between the letters of a word or the digits of a number add up). A line whose
        // ends ran on across a gap into other ink (a label, a speck, the line met at a
        // corner) is kept for its inked stretch (`inkedStretch`). It runs straight: it may
        // drift a little across rows (a slight tilt)
        return thin.withUnsafeBufferPointer { t in
            (done + open).compactMap { line -> Line? in
                guard let kept = inkedStretch(of: line, thin: t, width: width),
                      kept.length >= minimumSide,
                      Double(kept.across.upperBound - kept.across.lowerBound + 1)
                        <= Double(maximumThickness) + Self.drift * Double(kept.length) else { return nil }
                return kept
            }
        }
    }

    /// `line` when thin ink lies in one of its rows at `inkedShare` of its places or more.
    /// Otherwise its longest stretch inked at `trimmedInkedShare` of its places, from an
    /// inked place to an inked place, with the rows it covers there: the side of a box
    /// whose run went on past the corner, across the line met there, into a label's
    /// letters or specks. Nil when no place is inked.
    func inkedStretch(of line: Line, thin: UnsafeBufferPointer<UInt8>, width: Int) -> Line? {
        let n = line.length
        let inked = line.along.map { x in line.across.contains { thin[$0 * width + x] != 0 } }
        if Double(inked.filter { $0 }.count) >= Self.inkedShare * Double(n) { return line }
        // each inked place counts 1 − share, each blank one −share: a stretch is inked
        // enough when its sum is not negative (to rounding); the longest one from prefix
        // sums, its start a prefix minimum and its end a suffix maximum, both walked once
        let share = Self.trimmedInkedShare
        var prefix = [0.0]
        prefix.reserveCapacity(n + 1)
        for isInked in inked { prefix.append(prefix.last! + (isInked ? 1 - share : -share)) }
        var lowest = prefix, highest = prefix
        for k in 1...n { lowest[k] = min(lowest[k - 1], prefix[k]) }
        for k in stride(from: n - 1, through: 0, by: -1) { highest[k] = max(highest[k + 1], prefix[k]) }
        var (i, j, best) = (0, 0, (start: 0, end: 0))
        while i <= n && j <= n {
            if lowest[i] <= highest[j] + 1e-9 {
                if j - i > best.end - best.start { best = (i, j) }
                j += 1
            } else {
                i += 1
            }
        }
        guard var first = inked[best.start..<best.end].firstIndex(of: true),
              var last = inked[best.start..<best.end].lastIndex(of: true) else { return nil }
        first += line.along.lowerBound; last += line.along.lowerBound
        let rows = line.across.filter { y in (first...last).contains { thin[y * width + $0] != 0 } }
        guard let top = rows.first, let bottom = rows.last else { return nil }
        return Line(along: first...last, across: top...bottom)
    }

    /// The share of a line's length that must be inked: a drawn line loses a few stretches
    /// to faint print and to the digits crossing it (a 30 % loss allowed); a row of words
    /// or digits with its gaps bridged is far emptier.
    public static let inkedShare = 0.7

    /// How far a line may drift across its direction per pixel along it (about 3°: a
    /// sheet straightened from a slightly curled or imperfectly found outline).
    static let drift = 0.05
    /// The share of its places at which the stretch kept of a line that is not drawn
    /// through must be inked (`inkedStretch`): the line ran on into other ink, so what
    /// is kept of it must be drawn all but through (a stroke crossing it); a line of
    /// print, whose letters leave a gap every few pixels, keeps no stretch a box side long.
    static let trimmedInkedShare = 0.9
}

extension LineBoxes {
    /// The shares of the contrast a straightened region is thresholded at, each ink
    /// searched for boxes: a faint line shows only at the low one; at the high one a
    /// blurred line keeps only its core, a line's width again instead of a band that
    /// swallows the digits touching it.
    public static let inkFractions = [0.15, 0.5]

    /// How far across a line `GrayImage.ridges` looks, in a region whose longer side is
    /// `longerSide` pixels: past half the thickest line taken (`maximumThickness`), so
    /// that a line up to that thick is a ridge at its middle.
    public static func ridgeReach(longerSide: Int) -> Int {
        LineBoxes(longerSide: longerSide).maximumThickness / 2 + 1
    }

    /// `region` of `image` straightened at its own size, enlarged to `floorFreeSide` when
    /// smaller (its longer side at most `longestSide`), and thresholded against its paper
    /// at each of `fractions` of its contrast, and above its paper's noise (on a noisy
    /// blank sheet the contrast is the noise's, whose specks line up into rows and
    /// columns of "lines"): the inks boxes are looked for in; its `ridges` (lines too
    /// faint for any threshold, `boxes(in:ridges:largestShare:)`), and the map from its
    /// pixel-edge coordinates back to `image`'s pixel coordinates.
    public static func straightenedInk(of region: Quadrilateral, in image: GrayImage, longestSide: Int,
                                       fractions: [Double] = inkFractions)
        -> (inks: [BinaryImage], ridges: BinaryImage, toImage: (Point) -> Point)? {
        var (w, h) = region.rectifiedSize
        // a small sheet is enlarged until the shares, not the pixel floors, set the
        // line and box sizes (the floors would drop the boxes of a sheet far from the camera)
        let want = min(Double(longestSide), Double(max(w, h, floorFreeSide)))
        let scale = want / Double(max(w, h))
        w = max(8, Int(Double(w) * scale)); h = max(8, Int(Double(h) * scale))
        guard let g = image.rectified(region, width: w, height: h),
              let map = Homography(straightening: region, width: w, height: h) else { return nil }
        let darkness = g.darkness()
        let reach = ridgeReach(longerSide: max(w, h))
        return (fractions.map { g.binarizedAgainstPaper(fraction: $0, darkness: darkness, aboveNoise: true) },
                g.ridges(reach: reach, step: g.ridgeStep(reach: reach)),
                { p in let q = map.apply(p); return Point(q.x - 0.5, q.y - 0.5) })
    }
}
