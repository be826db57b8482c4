import ImagingCore

/// Free fields and pages: a line or lines of digits cut from a region's ink.
extension DigitSegmenter {
    /// The digits of a free field (a box's inside, or a whole page), in reading order:
    /// lines top to bottom, digits left to right.
    ///
    /// `faint`, when given, is the region thresholded lower (a subset of it is `binary`):
    /// a digit the threshold broke into pieces is made whole from it (`joiningBrokenDigits`).
    /// `photoEdge`: the region's border is the photo's own edge (a whole page): ink touching
    /// it runs out of the picture — the desk past a sheet, an object, a glyph half in view —
    /// and is never a digit (`touchesBorder`).
    /// `paperEdge`: the region is a sheet or note found as paper, `region` its readable
    /// area inside `binary`'s margin: ink reaching that area's border that runs on through
    /// the margin to the outline (`RunsOffPaper`) goes past the paper's edge — another
    /// sheet's print the outline cuts across — and is never a digit written on it; a digit
    /// reaching into the margin stops short of the edge.
    public func fieldDigits(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil,
                            region: PixelBox, photoEdge: Bool = false, paperEdge: Bool = false) -> [InkCrop] {
        fieldGlyphs(gray: gray, binary: binary, faint: faint, region: region, photoEdge: photoEdge, paperEdge: paperEdge).digits
    }

    /// `fieldDigits`, with how many glyphs it left out as running off the paper
    /// (`paperEdge`): another sheet's letters the outline cut, which weigh in judging
    /// whether the rest are words too.
    public func fieldGlyphs(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil, region: PixelBox,
                            photoEdge: Bool = false, paperEdge: Bool = false) -> (digits: [InkCrop], offPaper: Int) {
        var map = ComponentMap(binary, region: region)
        let isInk = { (c: Component) in
            // the region's own frame and anything spanning most of it is not a digit,
            // nor is ink running along its border (a paper edge, a shadow, a frame remnant)
            Double(c.box.width) < Self.spanningWidth * Double(region.width)
                && Double(c.box.height) < Self.spanningHeight * Double(region.height)
                && !Self.runsAlongBorder(c.box, of: region) && !Self.risesFromBorder(c.box, of: region)
                && !(photoEdge && Self.touchesBorder(c.box, of: region))
        }
        var comps = map.components.filter(isInk)
        guard !comps.isEmpty else { return ([], 0) }
        // (a page's by ink squared: the desk's grain past the paper is no glyph)
        let regionTypical = { (comps: [Component]) in photoEdge ? Self.typicalHeightSquared(comps) : Self.typicalHeight(comps) }
        var typical = regionTypical(comps)
        if let faint, let joined = Self.joiningBrokenDigits(binary, faint: faint, map: map,
                                                            isPiece: isInk, spoils: { !isInk($0) }, fits: { box in
            Double(box.width) <= Self.brokenDigitWidth * typical && Double(box.height) <= Self.tallestPiece * typical
        }, leastPieces: growsLonePieces ? 1 : 2) {
            map = ComponentMap(joined, region: region)
            comps = map.components.filter(isInk)
            guard !comps.isEmpty else { return ([], 0) }
            typical = regionTypical(comps)
        }
        // each line of glyphs is judged against its own size: a number written smaller on
        // a line of its own is not a larger number's specks
        let lineTypical = Self.lineTypicalHeights(comps, regionTypical: typical)
        let typicalOf = { (c: Component) in lineTypical[c.label] ?? typical }
        // pieces are judged once merged, by the glyph they make: a stroke the threshold
        // broke leaves pieces shorter than any digit (a 5's bar above its bowl), which
        // only together stand as tall as one
        let candidates = comps.filter { c in
            let typical = typicalOf(c)
            return Double(c.area) >= speckFraction * typical * typical
                && Double(c.box.height) <= Self.tallestPiece * typical && Double(c.box.width) <= Self.widestPiece * typical
        }
        // merge pieces that overlap in x and sit on the same line (broken strokes)
        typealias Glyph = (box: PixelBox, labels: Set<Int32>, area: Int, typical: Double)
        func grouped(_ pieces: [Component]) -> [Glyph] {
            var groups: [Glyph] = []
            for c in pieces.sorted(by: { $0.box.x < $1.box.x }) {
                let own = typicalOf(c)
                if let i = groups.firstIndex(where: { g in
                    let overlap = min(g.box.maxX, c.box.maxX) - max(g.box.x, c.box.x)
                    let verticalGap = max(g.box.y, c.box.y) - min(g.box.maxY, c.box.maxY)
                    return Double(overlap) > Self.strokeOverlap * Double(min(g.box.width, c.box.width))
                        && Double(verticalGap) < Self.strokeGap * min(own, g.typical)
                }) {
                    groups[i].box = groups[i].box.union(c.box)
                    groups[i].labels.insert(c.label)
                    groups[i].area += c.area
                    groups[i].typical = max(groups[i].typical, own)
                } else {
                    groups.append((c.box, [c.label], c.area, own))
                }
            }
            return groups.filter {
                Double($0.box.height) >= Self.shortestDigit * $0.typical && $0.box.height >= minimumDigitPixels
                    && !Self.isSolidBlock(area: $0.area, box: $0.box)
            }
        }
        // ink running off the paper has set the typical size as any print does, but joins
        // no glyph: its own glyphs are only counted
        // (the whole image is labelled only once a piece reaches the readable area's border)
        var offPaper: RunsOffPaper?
        let runsOff = { (c: Component) -> Bool in
            guard paperEdge, Self.touchesBorder(c.box, of: map.region) else { return false }
            if offPaper == nil { offPaper = RunsOffPaper(binary) }
            return offPaper!.holds(c, of: map)
        }
        let off = candidates.map(runsOff)
        let digits = grouped(candidates.indices.filter { !off[$0] }.map { candidates[$0] })
        let leftOut = grouped(candidates.indices.filter { off[$0] }.map { candidates[$0] }).count
        // reading order: lines by vertical overlap, then x
        let sorted = digits.sorted { a, b in
            let overlap = min(a.box.maxY, b.box.maxY) - max(a.box.y, b.box.y)
            if Double(overlap) > Self.sameLineOverlap * Double(min(a.box.height, b.box.height)) { return a.box.x < b.box.x }
            return a.box.y < b.box.y
        }
        return (sorted.map { crop(gray: gray, map: map, labels: $0.labels, box: $0.box) }, leftOut)
    }

    /// In a field, ink taller than this many typical heights is no digit (`fieldDigits`),
    /// nor a digit joined from pieces (`joiningBrokenDigits`).
    static let tallestPiece = 2.2

    /// In a field, ink spanning this share of its width (`spanningHeight` of its height)
    /// or more is its frame or a line across it, not a digit (`fieldDigits`).
    static let spanningWidth = 0.9
    /// See `spanningWidth`.
    static let spanningHeight = 0.95
    /// In a field, ink wider than this many typical heights is no digit (`fieldDigits`):
    /// at most a few digits run together.
    static let widestPiece = 3.0
    /// In a field, two pieces are one glyph a stroke broke when they overlap in x over
    /// this share of the narrower one's width (`fieldDigits`)…
    static let strokeOverlap = 0.5
    /// …and the gap between them up or down is under this share of the typical height.
    static let strokeGap = 0.5
    /// In a field, a glyph under this share of its line's typical height is no digit
    /// (`fieldDigits`): a speck, a dot, a dash.
    static let shortestDigit = 0.5
    /// In a field's reading order, two glyphs overlapping up and down over this share of
    /// the shorter one's height stand on one line and are read left to right.
    static let sameLineOverlap = 0.4

    /// A piece touching the region's border and at least `borderRunElongation` times
    /// longer along that border than across it runs along the border.
    public static let borderRunElongation = 3.0

    /// True for ink that touches a side of `region` and stretches along that side: the
    /// edge of a sheet or note, a shadow's rim, a remnant of the frame. No digit does.
    static func runsAlongBorder(_ box: PixelBox, of region: PixelBox) -> Bool {
        let w = Double(box.width), h = Double(box.height)
        let touchesSide = box.x <= region.x + 1 || box.maxX >= region.maxX - 1
        let touchesTopOrBottom = box.y <= region.y + 1 || box.maxY >= region.maxY - 1
        return (touchesSide && h >= borderRunElongation * w) || (touchesTopOrBottom && w >= borderRunElongation * h)
    }

    /// True for ink reaching a side of `region`.
    static func touchesBorder(_ box: PixelBox, of region: PixelBox) -> Bool {
        box.x <= region.x || box.y <= region.y || box.maxX >= region.maxX || box.maxY >= region.maxY
    }

    /// True for a straight thin stroke standing on the top or bottom of `region` and
    /// reaching less than `tickReach` of the way across it: a comb's tick between two
    /// digits' places (or a divider's stub), not a 1, which stands clear of the frame or
    /// fills most of the box's height.
    static func risesFromBorder(_ box: PixelBox, of region: PixelBox) -> Bool {
        let w = Double(box.width), h = Double(box.height)
        let touchesTopOrBottom = box.y <= region.y + 1 || box.maxY >= region.maxY - 1
        return touchesTopOrBottom && h >= borderRunElongation * w && h < tickReach * Double(region.height)
    }

    /// See `risesFromBorder`.
    public static let tickReach = 0.6

    /// The height of a field's typical glyph: the median of the pieces' heights weighted by
    /// their ink, so that a few specks count for little and a single large digit among them
    /// sets it on its own. Thousands of specks can outweigh it: a page uses
    /// `typicalHeightSquared`.
    static func typicalHeight(_ comps: [Component]) -> Double {
        weightedMedianHeight(comps) { $0.area }
    }

    /// The height of a page's typical glyph: the median of the pieces' heights weighted by
    /// the square of their ink. A whole photo read as a page holds the grain of the desk
    /// past the paper, thousands of specks with more ink together than the one large digit
    /// on a note no quad outlined; weighted by its square, a piece's say grows with its
    /// size, so specks however many count for next to nothing.
    static func typicalHeightSquared(_ comps: [Component]) -> Double {
        weightedMedianHeight(comps) { $0.area * $0.area }
    }

    /// The height at which the pieces sorted by height reach half the total `weight`.
    /// - Precondition: `comps` is not empty. Complexity: O(n log n).
    private static func weightedMedianHeight(_ comps: [Component], weight: (Component) -> Int) -> Double {
        precondition(!comps.isEmpty, "the typical height of no pieces")
        let byHeight = comps.sorted { $0.box.height < $1.box.height }
        let half = comps.reduce(0) { $0 + weight($1) } / 2
        var seen = 0
        for c in byHeight {
            seen += weight(c)
            if seen >= half { return Double(c.box.height) }
        }
        return Double(byHeight.last!.box.height)
    }

    /// A line of glyphs smaller than the region's typical one is judged by its own
    /// typical height when that is at least this share of the region's (a number written
    /// smaller on a line of its own); smaller lines stay specks beside the region's digits.
    public static let smallestLineShare = 0.3

    /// See `lineTypicalHeights`: components share a line when they overlap up and down by
    /// at least this share of the shorter one's height (its tallest glyph's, for a line).
    static let lineOverlap = 0.5

    /// See `lineTypicalHeights`: a glyph of a line is at least this share of the line's
    /// typical height (of the smallest line's, before lines are made); shorter ink is a speck.
    static let lineGlyphShare = 0.5

    /// The typical height of each line of ink (components chained by vertical overlap of
    /// `lineOverlap` of the smaller one's height), by component label, for the lines smaller
    /// than `regionTypical` that hold two or more glyphs at least `lineGlyphShare` of their
    /// typical height and whose typical height is at least `smallestLineShare` of the
    /// region's. Specks under `lineGlyphShare` of the smallest such line are left out.
    static func lineTypicalHeights(_ comps: [Component], regionTypical: Double) -> [Int32: Double] {
        let smallest = smallestLineShare * regionTypical
        let glyphs = comps.filter { Double($0.box.height) >= lineGlyphShare * smallest }.sorted { $0.box.y < $1.box.y }
        var lines: [(y0: Int, y1: Int, tallest: Int, members: [Component])] = []
        for c in glyphs {
            if let k = lines.lastIndex(where: { line in
                let overlap = min(line.y1, c.box.maxY) - max(line.y0, c.box.y)
                return Double(overlap) >= lineOverlap * Double(min(line.tallest, c.box.height))
            }) {
                lines[k].y0 = min(lines[k].y0, c.box.y)
                lines[k].y1 = max(lines[k].y1, c.box.maxY)
                lines[k].tallest = max(lines[k].tallest, c.box.height)
                lines[k].members.append(c)
            } else {
                lines.append((c.box.y, c.box.maxY, c.box.height, [c]))
            }
        }
        var result: [Int32: Double] = [:]
        for line in lines {
            let own = typicalHeight(line.members)
            guard own < regionTypical, own >= smallest,
                  line.members.filter({ Double($0.box.height) >= lineGlyphShare * own }).count >= 2 else { continue }
            for c in line.members { result[c.label] = own }
        }
        return result
    }

    /// True for ink filling nearly all of its box (`solidFill`) while not thin like a
    /// stroke: a filled square or bar (a dark panel, a redaction, a shaded cell), which no
    /// digit is. A "1" drawn as a plain bar is under `barWidth` of its height wide.
    static func isSolidBlock(area: Int, box: PixelBox) -> Bool {
        Double(area) >= solidFill * Double(box.width * box.height) && Double(box.width) >= barWidth * Double(box.height)
    }

    /// See `isSolidBlock`: the share of its box a solid block's ink fills.
    static let solidFill = 0.9
    /// See `isSolidBlock`: a plain bar (a 1) is narrower than this share of its height.
    static let barWidth = 0.3
}

/// The ink of a straightened sheet or note that reaches its outline (the image's edge),
/// for `DigitSegmenter.fieldDigits`' `paperEdge`: a piece of the readable area that is
/// part of it runs off the paper.
struct RunsOffPaper {
    /// The whole image's components.
    let whole: ComponentMap
    /// Per label of `whole`: whether it reaches the image's edge.
    let reachesEdge: [Bool]

    init(_ binary: BinaryImage) {
        whole = ComponentMap(binary, region: PixelBox(x: 0, y: 0, width: binary.width, height: binary.height))
        reachesEdge = whole.mask(of: Set(whole.components.filter { c in
            c.box.x == 0 || c.box.y == 0 || c.box.maxX == binary.width || c.box.maxY == binary.height
        }.map(\.label)))
    }

    /// Whether `c`, a component of `map` (labelled over the readable area), reaches the
    /// area's border at a pixel of ink reaching the image's edge.
    func holds(_ c: Component, of map: ComponentMap) -> Bool {
        let area = map.region
        guard DigitSegmenter.touchesBorder(c.box, of: area) else { return false }
        let own = map.mask(of: [c.label])
        // the area's border lines the piece touches, within its box
        var border: [(x: Int, y: Int)] = []
        if c.box.x == area.x { border += (c.box.y..<c.box.maxY).map { (area.x, $0) } }
        if c.box.maxX == area.maxX { border += (c.box.y..<c.box.maxY).map { (area.maxX - 1, $0) } }
        if c.box.y == area.y { border += (c.box.x..<c.box.maxX).map { ($0, area.y) } }
        if c.box.maxY == area.maxY { border += (c.box.x..<c.box.maxX).map { ($0, area.maxY - 1) } }
        return border.contains { map.belongs($0.x, $0.y, to: own) && whole.belongs($0.x, $0.y, to: reachesEdge) }
    }
}
