public import ImagingCore

/// One digit-sized piece of ink cut out of a region.
public struct InkCrop: Sendable {
    /// Where it is, in the region's (rectified) pixels.
    public let box: PixelBox
    /// `box.width × box.height` ink intensities (0 paper … 255 darkest ink), other
    /// components masked out: the input of the preprocessing contract.
    public let ink: [UInt8]
    /// How much darker its darkest ink is than the paper around it in its box (the upper
    /// quartile of the box's other pixels), grey levels: pen or print against pencil. A
    /// part cut from a crop (`split`) keeps the crop's; 0 where not measured.
    public var contrast = 0
}

/// Cuts digits out of rectified regions: grid cells (one digit or none) and free
/// fields (a line or lines of digits).
///
/// Ink is taken from the binary image's components; ruling-line remnants (long thin
/// pieces touching a cell's edge), specks and faint marks are dropped; pieces of one
/// broken digit are merged by overlap in x (fields) or by all belonging to the cell
/// centre (cells).
public struct DigitSegmenter: Sendable {
    /// Components smaller than this fraction of the cell (or line) height² are specks.
    public var speckFraction = 0.012
    /// A cell's ink must be at least this fraction of the cell height tall to be read.
    public var minimumCellDigitHeight = 0.18
    /// In a grid, ink under this fraction of the grid's typical digit height, and
    /// under `minimumRelativeDigitWidth` of its width (see `gridDigits`), is a solver's
    /// candidate notes, not the cell's digit.
    public var minimumRelativeDigitHeight = 0.72
    /// See `minimumRelativeDigitHeight`.
    public var minimumRelativeDigitWidth = 0.85
    /// In a grid, ink whose centre lies this fraction of the cell's width and height or
    /// more away from the cell's centre (in a corner) and under `cornerNoteHeight` of the
    /// typical digit's height is a solver's candidate note, however wide.
    public var cornerNoteOffset = 0.2
    /// See `cornerNoteOffset`.
    public var cornerNoteHeight = 0.85
    /// In a grid, ink under this fraction of the typical digit's height is a solver's
    /// candidate note wherever it sits: candidates are pencilled in a 3 × 3 pattern, so the
    /// fifth sits at the cell's centre, at about a third of the cell's height.
    public var centredNoteHeight = 0.5
    /// Ink whose centre lies farther than this share of the cell from the cell's centre
    /// (either way) sits off the middle slot of the candidates' 3 × 3 pattern: half a
    /// slot, a sixth of the cell.
    public var middleSlot = 1.0 / 6.0
    /// In a field, ink fewer pixels tall than this is specks or print too small to read
    /// (a region of specks would otherwise make them its "typical" digits).
    public var minimumDigitPixels = 8
    /// Whether a lone piece of ink is also grown by the faint ink it runs into
    /// (`joiningBrokenDigits`): a digit whose strokes pale where the pen thinned (the bar
    /// of a 7, the top of a 6) is whole there. Off, only pieces the faint ink joins are
    /// (a pencil mark touching a dark digit would otherwise become part of it): the
    /// reader cuts a doubted piece so a second time and takes the grown glyph only where
    /// the model reads it surer (`GrownPieceReading`).
    public var growsLonePieces = false

    /// These settings with lone pieces grown (`growsLonePieces`): the second cut of a piece
    /// that looks like less than the digit it belongs to.
    public var growingLonePieces: DigitSegmenter {
        var growing = self
        growing.growsLonePieces = true
        return growing
    }

    /// Default settings.
    public init() {}

    /// The digit of every cell of a ruled region, row by row (nil: empty). Ink both
    /// shorter and narrower than the grid's typical digit (the median height and width
    /// over its cells) and off the cell's centre, shorter than it in a corner of the cell,
    /// or under half its height (or about two thirds of it both ways) anywhere, counts as empty:
    /// pencilled candidates (`isNote`, `isSmallNote`), unless, measured whole on the faint
    /// ink, it is a pale digit the threshold kept a piece of (`digit(fromCut:in:…)`), or it
    /// is one of a puzzle's givens printed small beside larger answers (`smallPrintedGivens`).
    public func gridDigits(gray: GrayImage, binary: BinaryImage, ruling: Ruling) -> [InkCrop?] {
        gridCellDigits(gray: gray, binary: binary, ruling: ruling).map(\.first)
    }

    /// The digits of each cell of a ruled grid, row by row, left to right within a cell:
    /// none, one, or — in a table of numbers — several. Two digits side by side in a cell
    /// are a solver's pencilled candidates in a puzzle, but a number in a table: the grid
    /// is a table of numbers when at least `numberCellShare` of its inked cells (and three)
    /// hold digits side by side; every inked cell is then read as a small field, as a
    /// number — a cell whose one-digit cut kept only the dark digit of a number written
    /// with a pale one (`cellContent`) reads the whole number.
    ///
    /// `faint`, when given, is the grid thresholded lower: a digit the threshold broke
    /// into pieces is made whole from it (`joiningBrokenDigits`).
    public func gridCellDigits(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil,
                               ruling: Ruling) -> [[InkCrop]] {
        gridCells(gray: gray, binary: binary, faint: faint, ruling: ruling).digits
    }

    /// `gridCellDigits`, and the cells (row-major indices) holding digits side by side that
    /// it read empty, the grid not being taken for a table of numbers: a table whose
    /// numbers are mostly set tight (touching, one piece each) is known only once they are
    /// cut apart and read (`TouchingDigits`), and then these cells hold numbers too
    /// (`numberCellDigits`).
    public func gridCells(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil,
                          ruling: Ruling) -> (digits: [[InkCrop]], apart: [Int]) {
        var crops: [InkCrop?] = [], cells: [PixelBox] = [], besides: [Bool] = [], lone: [Bool] = [], short: [Bool] = []
        for r in 0..<ruling.rowCount {
            for c in 0..<ruling.columnCount {
                cells.append(gray.cellBox(ruling, r, c))
                let content = cellContent(gray: gray, binary: binary, faint: faint, cell: cells[cells.count - 1])
                crops.append(content.digit)
                besides.append(content.digitsBeside)
                lone.append(content.alone)
                short.append(content.short)
            }
        }
        let numberCells = besides.filter { $0 }.count
        let inked = crops.filter { $0 != nil }.count + numberCells
        if numberCells >= 3, Double(numberCells) >= Self.numberCellShare * Double(inked) {
            let digits = zip(crops, zip(cells, besides)).map { crop, cellAndBeside in
                let (cell, beside) = cellAndBeside
                guard beside || crop != nil else { return [InkCrop]() }
                return fieldDigits(gray: gray, binary: binary, faint: faint, region: Self.inner(cell))
            }
            return (digits, [])
        }
        let apart = besides.indices.filter { besides[$0] }
        // notes are small both ways; a flat handwritten 2 or 5 is short but full width
        let boxes = crops.compactMap { $0?.box }
        guard boxes.count >= 3 else { return (crops.map { $0.map { [$0] } ?? [] }, apart) }
        let asCut = GlyphSize.typical(of: boxes)
        // a cell whose ink was too short for a digit may hold a thin glyph the threshold
        // broke into one short piece and crumbs (a printed 7's bar, its stem lost): cut
        // again with that piece grown by the faint ink (`growsLonePieces`), the glyph is
        // kept when it stands as tall as the grid's digits (`minimumRelativeDigitHeight`
        // of the typical one), and judged by the note rules below like any cut; a solver's
        // candidate grown whole stays a candidate's height, and the cell stays empty
        if let faint {
            for k in crops.indices where short[k] {
                let grown = growingLonePieces.cellContent(gray: gray, binary: binary, faint: faint, cell: cells[k])
                if let digit = grown.digit, Double(digit.box.height) >= minimumRelativeDigitHeight * asCut.height {
                    crops[k] = digit
                    lone[k] = grown.alone
                }
            }
        }
        // the typical glyph measured whole, only if some cut needs measuring so
        var whole: GlyphSize?
        let givens = smallPrintedGivens(crops, cells: cells, alone: lone, ruling: ruling, typical: asCut)
        let digits = crops.indices.map { k -> [InkCrop] in
            guard let crop = crops[k] else { return [] }
            return digit(fromCut: crop, in: cells[k], isGiven: givens.contains(k), gray: gray, binary: binary, faint: faint,
                         typical: asCut) { faint in
                if let whole { return whole }
                let measured = GlyphSize.typical(of: zip(crops, cells).compactMap { crop, cell in
                    crop.map { Self.wholeGlyph(of: $0, binary: binary, faint: faint, cell: cell) }
                })
                whole = measured
                return measured
            }.map { [$0] } ?? []
        }
        return (digits, apart)
    }

    /// The digits of cell `index` (row-major) of a grid read as a table of numbers: the
    /// cell's inside read as a small field, left to right.
    public func numberCellDigits(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil,
                                 ruling: Ruling, cell index: Int) -> [InkCrop] {
        let cell = gray.cellBox(ruling, index / ruling.columnCount, index % ruling.columnCount)
        return fieldDigits(gray: gray, binary: binary, faint: faint, region: Self.inner(cell))
    }

    /// See `gridCellDigits`.
    public static let numberCellShare = 0.3

    /// A cell's inside, a margin in from its ruling lines.
    static func inner(_ cell: PixelBox) -> PixelBox {
        let mx = max(1, cell.width * 8 / 100), my = max(1, cell.height * 8 / 100)
        return PixelBox(x: cell.x + mx, y: cell.y + my, width: max(1, cell.width - 2 * mx), height: max(1, cell.height - 2 * my))
    }

    /// The digit in a grid cell, or nil when the cell is empty (or holds two side by side).
    /// `faint`, when given, is the grid thresholded lower (`joiningBrokenDigits`).
    public func cellDigit(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil, cell: PixelBox) -> InkCrop? {
        cellContent(gray: gray, binary: binary, faint: faint, cell: cell).digit
    }

    /// The digit in a grid cell (nil when empty), or whether it holds digits side by side
    /// (then no digit: candidates in a puzzle, a number in a table); `alone` when the digit's
    /// pieces are all the ink the cell holds (no other candidate beside it); `short` when
    /// the cell's ink near its centre is too short for a digit (`minimumCellDigitHeight`).
    func cellContent(gray: GrayImage, binary: BinaryImage, faint: BinaryImage? = nil,
                     cell: PixelBox) -> (digit: InkCrop?, digitsBeside: Bool, alone: Bool, short: Bool) {
        // look inside a margin so the ruling lines stay out
        let inner = Self.inner(cell)
        var map = ComponentMap(binary, region: inner)
        let cw = Double(cell.width), ch = Double(cell.height)
        let centre = (x: Double(cell.x) + cw / 2, y: Double(cell.y) + ch / 2)
        let isInk = { (c: Component) -> Bool in
            let b = c.box
            // ruling remnants: thin and long along an edge (a bent or slanted line may
            // run a pixel or two inside the margin)
            let slackX = max(1, Int(Self.remnantSlack * cw)), slackY = max(1, Int(Self.remnantSlack * ch))
            let touchesX = b.x - inner.x <= slackX || inner.maxX - b.maxX <= slackX
            let touchesY = b.y - inner.y <= slackY || inner.maxY - b.maxY <= slackY
            let (thin, long) = (Self.remnantThickness, Self.remnantLength)
            if touchesY && Double(b.height) < thin * ch && Double(b.width) > long * cw { return false }
            if touchesX && Double(b.width) < thin * cw && Double(b.height) > long * ch { return false }
            return !Self.isShadowEdge(c.box, in: gray, inner: inner)
        }
        let notSpeck = { (c: Component) in Double(c.area) >= Self.cellSpeckScale * self.speckFraction * ch * ch }
        if let faint, let joined = Self.joiningBrokenDigits(binary, faint: faint, map: map,
                                                            isPiece: { isInk($0) && notSpeck($0) }, spoils: { !isInk($0) },
                                                            fits: { Double($0.width) <= Self.brokenDigitWidth * Double($0.height) },
                                                            leastPieces: growsLonePieces ? 1 : 2) {
            map = ComponentMap(joined, region: inner)
        }
        let candidates = map.components.filter { notSpeck($0) && isInk($0) }
        // the digit: the largest piece near the cell's centre
        func offset(_ b: PixelBox) -> Double {
            let cx = Double(b.x) + Double(b.width) / 2, cy = Double(b.y) + Double(b.height) / 2
            return max(abs(cx - centre.x) / cw, abs(cy - centre.y) / ch)
        }
        guard let main = candidates.filter({ offset($0.box) < Self.mainPieceOffset }).max(by: { $0.area < $1.area })
        else { return (nil, false, false, false) }
        // pieces of the same broken digit overlap its box grown by a tenth of the cell
        let gx = Int(Self.brokenPieceReach * cw), gy = Int(Self.brokenPieceReach * ch)
        let grown = PixelBox(x: main.box.x - gx, y: main.box.y - gy, width: main.box.width + 2 * gx,
                             height: main.box.height + 2 * gy)
        let kept = candidates.filter { c in
            c.label == main.label
                || (c.box.overlaps(grown) && offset(c.box) < Self.brokenPieceOffset)
        }
        // two digits side by side in a cell are a solver's candidates, not its digit
        if Self.hasDigitBeside(main, among: candidates) {
            return (nil, Double(main.box.height) >= minimumCellDigitHeight * ch, false, false)
        }
        let box = kept.map(\.box).reduce(kept[0].box) { $0.union($1) }
        guard Double(box.height) >= minimumCellDigitHeight * ch else { return (nil, false, false, true) }
        return (crop(gray: gray, map: map, labels: Set(kept.map(\.label)), box: box), false, kept.count == candidates.count, false)
    }

    /// See `cellContent`: a ruling line bent or slanted by a pixel or two runs this share
    /// of the cell inside its margin; a piece that near an edge of the cell's inside,
    /// thinner across it than `remnantThickness` of the cell and longer along it than
    /// `remnantLength`, is what is left of the line, not ink of the cell.
    static let remnantSlack = 0.05
    /// See `remnantSlack`: a line's width and blur, as a share of the cell.
    static let remnantThickness = 0.12
    /// See `remnantSlack`: a remnant runs along the edge for more than this share of the
    /// cell; a digit's stroke touching the edge is shorter.
    static let remnantLength = 0.3
    /// See `cellContent`: a cell's specks are under this share of `speckFraction` of its
    /// height squared (a cell's digit is about half its height, a line's about all of it).
    static let cellSpeckScale = 0.5
    /// See `cellContent`: the cell's digit is the largest piece whose centre lies within
    /// this share of the cell (either way) from the cell's centre.
    static let mainPieceOffset = 0.25
    /// See `cellContent`: the pieces of a digit the threshold broke overlap its largest
    /// piece's box grown by this share of the cell each way…
    static let brokenPieceReach = 0.1
    /// …and lie within this share of the cell from its centre.
    static let brokenPieceOffset = 0.3

    /// True when another piece of ink as tall as `main` (within `besideHeight`), about as
    /// heavy (`besideArea` of its area or more) and level with it stands just beside it,
    /// not above or over it: a second digit, as in a solver's "89", rather than a piece of
    /// a broken one (those overlap it across).
    static func hasDigitBeside(_ main: Component, among others: [Component]) -> Bool {
        let m = main.box
        return others.contains { c in
            let b = c.box
            guard c.label != main.label, Double(b.height) >= besideHeight * Double(m.height),
                  Double(c.area) >= besideArea * Double(main.area) else { return false }
            let across = min(m.maxX, b.maxX) - max(m.x, b.x)          // overlap in x
            let level = min(m.maxY, b.maxY) - max(m.y, b.y)           // overlap in y
            let gap = max(m.x, b.x) - min(m.maxX, b.maxX)
            return Double(across) < besideOverlap * Double(min(m.width, b.width))
                && Double(level) > besideLevel * Double(min(m.height, b.height))
                && Double(gap) < besideGap * Double(m.height)
        }
    }

    /// See `hasDigitBeside`: a second digit is at least this share of the first's height…
    static let besideHeight = 0.6
    /// …and of its area (a quarter: a 1 beside an 8)…
    static let besideArea = 0.25
    /// …overlaps it across by under this share of the narrower one's width (pieces of a
    /// broken digit overlap across)…
    static let besideOverlap = 0.15
    /// …overlaps it up and down by over this share of the shorter one's height (level)…
    static let besideLevel = 0.5
    /// …and stands within this share of the first's height of it.
    static let besideGap = 0.6

    /// See `isShadowEdge`: a band runs along at least this share of the cell's inner
    /// height or width…
    static let shadowBandLength = 0.9
    /// …and is at most this share of it across (a thicker band is a shaded part of the
    /// cell, no edge).
    static let shadowBandThickness = 0.35

    /// True for ink that is the dark side of a lighting edge rather than a stroke: a band
    /// along (nearly) the whole height or width of the cell (`shadowBandLength`, at most
    /// `shadowBandThickness` across), and the paper on one side
    /// of it is about as dark as it is (within `GrayImage.shadeShare` of the light side's
    /// contrast) while the other side is light. A stroke has light paper on both sides.
    static func isShadowEdge(_ b: PixelBox, in gray: GrayImage, inner: PixelBox) -> Bool {
        func mean(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> Double? {
            let xa = max(inner.x, x0), xb = min(inner.maxX, x1), ya = max(inner.y, y0), yb = min(inner.maxY, y1)
            guard xb > xa, yb > ya else { return nil }
            var sum = 0
            for y in ya..<yb { for x in xa..<xb { sum += Int(gray[x, y]) } }
            return Double(sum) / Double((xb - xa) * (yb - ya))
        }
        // the strips of paper either side of the band, half its thickness wide
        let before: (Int, Int, Int, Int), after: (Int, Int, Int, Int)
        if Double(b.height) >= shadowBandLength * Double(inner.height)
            && Double(b.width) <= shadowBandThickness * Double(inner.width) {
            let w = max(2, b.width / 2)
            (before, after) = ((b.x - w, b.y, b.x, b.maxY), (b.maxX, b.y, b.maxX + w, b.maxY))
        } else if Double(b.width) >= shadowBandLength * Double(inner.width)
                    && Double(b.height) <= shadowBandThickness * Double(inner.height) {
            let h = max(2, b.height / 2)
            (before, after) = ((b.x, b.y - h, b.maxX, b.y), (b.x, b.maxY, b.maxX, b.maxY + h))
        } else {
            return false
        }
        guard let own = mean(b.x, b.y, b.maxX, b.maxY), let a = mean(before.0, before.1, before.2, before.3),
              let c = mean(after.0, after.1, after.2, after.3) else { return false }
        let darkSide = min(a, c), lightSide = max(a, c)
        return lightSide - own > 0 && darkSide - own < GrayImage.shadeShare * (lightSide - own)
    }

    /// `binary` with each digit it holds in pieces made whole from `faint` (a lower
    /// threshold of the same region, holding nearly all of `binary`'s ink): a component of
    /// `faint` that joins `leastPieces` or more pieces of ink (`isPiece`: not a speck; two,
    /// or one when lone pieces grow, `growsLonePieces`), holds none
    /// that `spoils` it (the region's frame, a border's run, a ruling remnant), is mostly
    /// that ink (`brokenDigitInkShare`) and `fits` as one digit (in a field no larger
    /// than `brokenDigitWidth` × `tallestPiece` typical heights; in a cell no wider
    /// than `brokenDigitWidth` of its own height) is taken whole. A
    /// faint pen stroke thinned where the pen skipped is one digit again; digits joined
    /// by their blur, side by side, are wider than one and stay as thresholded, and
    /// specks joined by grain count for nothing. nil when nothing joins.
    static func joiningBrokenDigits(_ binary: BinaryImage, faint: BinaryImage, map: ComponentMap,
                                    isPiece: (Component) -> Bool, spoils: (Component) -> Bool,
                                    fits: (PixelBox) -> Bool, leastPieces: Int = 2) -> BinaryImage? {
        let region = map.region
        let faintMap = ComponentMap(faint, region: region)
        var pieces = [Int](repeating: 0, count: faintMap.components.count + 1)
        var inkArea = [Int](repeating: 0, count: faintMap.components.count + 1)
        var spoiled = [Bool](repeating: false, count: faintMap.components.count + 1)
        // the faint component of each piece's first pixel (a grid's ruling is stripped
        // from each threshold apart, so a piece may touch faint paper)
        var faintOf = [Int32](repeating: 0, count: map.components.count + 1)
        var seen = [Bool](repeating: false, count: map.components.count + 1)
        for (label, faintLabel) in zip(map.labels, faintMap.labels) where label != 0 && !seen[Int(label)] {
            seen[Int(label)] = true
            faintOf[Int(label)] = faintLabel
        }
        for c in map.components {
            let at = Int(faintOf[Int(c.label)])
            guard at > 0 else { continue }
            if spoils(c) { spoiled[at] = true; continue }
            inkArea[at] += c.area
            if isPiece(c) { pieces[at] += 1 }
        }
        var joins = [Bool](repeating: false, count: faintMap.components.count + 1)
        for f in faintMap.components where pieces[Int(f.label)] >= leastPieces && !spoiled[Int(f.label)]
            && Double(inkArea[Int(f.label)]) >= brokenDigitInkShare * Double(f.area)
            && fits(f.box) {
            joins[Int(f.label)] = true
        }
        guard joins.contains(true) else { return nil }
        var bits = binary.bits
        for y in 0..<region.height {
            for x in 0..<region.width where joins[Int(faintMap.labels[y * region.width + x])] {
                bits[(region.y + y) * binary.width + region.x + x] = 1
            }
        }
        return BinaryImage(width: binary.width, height: binary.height, bits: bits)
    }

    /// See `joiningBrokenDigits`: a broken stroke is mostly ink already — the faint
    /// threshold adds its gaps and a rim about as wide as the stroke — where a shadow's
    /// soft edge, dotted with specks of ink, is mostly faint.
    static let brokenDigitInkShare = 1.0 / 3.0
    /// See `joiningBrokenDigits`: a digit is at most about as wide as it (or, in a field,
    /// the typical digit) is tall (a 0 or 4 in a wide hand comes to three quarters).
    static let brokenDigitWidth = 1.0

    /// The cells of a 9 × 9 puzzle whose glyph is one of its givens printed small beside
    /// larger handwritten answers: shorter than `smallNoteShare` of the grid's `typical`
    /// glyph (as `isSmall` asks), all the ink of its cell (`alone`), in the middle slot
    /// (`inMiddleSlot`), and inked (`inkedContrastShare` of the median glyph's `InkCrop.contrast`) —
    /// when at least `fewestGivens` cells hold such a glyph. A solver's candidates are
    /// pencilled, share their cell with others or sit off its middle, and a lone centred
    /// candidate is seldom; a puzzle's givens are all centred, alone and printed in ink,
    /// and a sudoku has at least 17 of them. Empty otherwise (another grid, a puzzle of
    /// candidates).
    func smallPrintedGivens(_ crops: [InkCrop?], cells: [PixelBox], alone: [Bool], ruling: Ruling,
                            typical: GlyphSize) -> Set<Int> {
        guard ruling.rowCount == 9, ruling.columnCount == 9 else { return [] }
        let contrasts = crops.compactMap { $0?.contrast }.sorted()
        guard !contrasts.isEmpty else { return [] }
        let typicalContrast = Double(contrasts[contrasts.count / 2])
        let givens = Set(crops.indices.filter { k in
            guard let crop = crops[k], alone[k] else { return false }
            return Double(crop.box.height) < Self.smallNoteShare * typical.height && inMiddleSlot(crop.box, of: cells[k])
                && Double(crop.contrast) >= Self.inkedContrastShare * typicalContrast
        })
        return givens.count >= Self.fewestGivens ? givens : []
    }

    /// See `smallPrintedGivens`: the fewest givens a sudoku with one solution has.
    static let fewestGivens = 17

    /// See `smallPrintedGivens`: a glyph whose ink contrast is at least this share of the
    /// grid's median glyph's is inked (pen or print), not pencilled: graphite lies well under
    /// the contrast of a pen's or a press's ink.
    static let inkedContrastShare = 0.75

    /// Ink intensities inside `box`: darkness relative to the local paper level, only
    /// where the chosen components (grown by one pixel for anti-aliased edges) are.
    func crop(gray: GrayImage, map: ComponentMap, labels set: Set<Int32>, box: PixelBox) -> InkCrop {
        let labels = map.mask(of: set)
        // membership of the kept pieces over the box and a one-pixel border
        let w = box.width, h = box.height, pw = w + 2
        var member = [Bool](repeating: false, count: pw * (h + 2))
        for y in 0..<(h + 2) {
            for x in 0..<pw { member[y * pw + x] = map.belongs(box.x + x - 1, box.y + y - 1, to: labels) }
        }
        var samples = ByteHistogram()
        var darkest = 255
        for y in 0..<h {
            for x in 0..<w {
                let v = gray[box.x + x, box.y + y]
                if member[(y + 1) * pw + x + 1] { darkest = min(darkest, Int(v)) } else { samples.add(v) }
            }
        }
        let paper = samples.total >= 4 ? Int(samples.percentile(0.75)) : 255
        let range = max(24, paper - darkest)
        // the pieces grown by one pixel (their anti-aliased rims): OR across rows, then
        // down columns
        var across = member
        for y in 0..<(h + 2) {
            for x in 1..<(pw - 1) { across[y * pw + x] = member[y * pw + x - 1] || member[y * pw + x] || member[y * pw + x + 1] }
        }
        var ink = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y + 1) * pw + x + 1
                guard across[i - pw] || across[i] || across[i + pw] else { continue }
                let v = max(0, min(255, (paper - Int(gray[box.x + x, box.y + y])) * 255 / range))
                ink[y * w + x] = UInt8(v)
            }
        }
        return InkCrop(box: box, ink: ink, contrast: paper - darkest)
    }
}
