import DocumentImaging
import ImagingCore

/// A region to read, straightened.
struct LaidOutRegion {
    enum Kind: String { case field, grid, page }
    let kind: Kind
    /// Corners in the working image.
    let quad: Quadrilateral
    /// The rectified region and its ink.
    let gray: GrayImage
    let binary: BinaryImage
    /// Its ink at a lower threshold, from which digits the threshold broke are made whole
    /// (`DigitSegmenter.joiningBrokenDigits`); nil for a page.
    var faint: BinaryImage? = nil
    /// The ruling, for grids.
    var ruling: Ruling?
    /// For a grid put together from its cells (`CellLattice`): the quad each tile of
    /// `gray` was cut from, row by row, each tile `ruling`'s cell; nil otherwise.
    var tiles: [Quadrilateral]? = nil
    /// True for a field whose quad is the outer edge of a drawn frame (a box's line lies
    /// just inside it), false for paper or a box's inside found as a hole.
    var hasDrawnFrame = false
    /// True for a field found as a flat zone of paper (a sheet or note,
    /// `DetectedQuad.isFlatPaper`): ink running off it past its outline is not written on
    /// it (`DigitSegmenter.fieldDigits`' `paperEdge`).
    var isFlatPaper = false
    /// For a field straightened larger from the photo's finer copy (`Layout.enlarged`):
    /// the same quad straightened at its working size, where its frame is measured.
    var workingGray: GrayImage? = nil
    /// For a field of paper (a note, a sheet, a box's inside found as a hole) whose edges
    /// bend towards a corner (a curled note's sag): its corners as they lie
    /// (`EdgeRefiner.cornersAsTheyLie`), reported instead of where its straight sides meet;
    /// nil where no edge bends. It is straightened along its straight sides all the same.
    var paperCorners: Quadrilateral? = nil
    /// For a grid: the sides whose outer row or column may lie past its frame
    /// (`Layout.edgesMaybePastFrame`).
    var edgesMaybePastFrame: Set<Edge> = []
    /// For a grid whose lines bend (`Layout.bendShare`): where they run in the region as
    /// straightened; `gray` and `binary` are then its cells moved back onto `ruling`.
    var bend: BentRuling? = nil
    /// The clockwise quarter turns (0…3) the region's image lies from the photo as read
    /// when the layout turned it (a comb whose ticks hang from its top, `TickComb`): its
    /// glyphs then vote on the photo's orientation in that frame (`OrientationVote`).
    var turnedFromPhoto = 0

    /// A side of a straightened region.
    enum Edge { case top, right, bottom, left }
}

/// Decides which rectangles of a photo hold digits and how: ruled grids, innermost
/// boxes with ink (fields), or — when neither is found — the whole page.
struct Layout {
    var detector = QuadDetector()
    var segmenter = DigitSegmenter()
    /// Longer side of a straightened quad (larger ones are scaled down to it): the copy
    /// its ruling is looked for in and, if it is read, the one read. A 9×9 grid's cells
    /// are then 50 px; reading at 600 or 900 px was no more accurate and cost more.
    var rectifiedSide = 450

    /// The regions of `image`: laid out from the detector's quads, then again with the
    /// boxes drawn on its sheets added (`addingSheetBoxes`; a form's sheet no quad outlines
    /// is recovered from the fields laid out on it) where there are any: a sheet on which a
    /// grid was read is not searched.
    func regions(in pixels: PhotoPixels) -> [LaidOutRegion] {
        let detected = detector.detect(in: pixels.image, chroma: pixels.chroma)
        let plain = regions(in: pixels, quads: detected)
        let grids = plain.filter { $0.kind == .grid }.map(\.quad.center)
        let fields = plain.filter { $0.kind == .field }.map(\.quad)
        // a grid of rows and columns both (a puzzle, a table; not a comb)
        let pageOfGrid = plain.contains { ($0.ruling?.rowCount ?? 1) > 1 && ($0.ruling?.columnCount ?? 1) > 1 }
        let boxed = addingSheetBoxes(to: detected, in: pixels.image, skipping: grids, fields: fields, pageOfGrid: pageOfGrid)
        return boxed.count == detected.count ? plain : regions(in: pixels, quads: boxed)
    }

    /// `regions(in:)` of an image with no finer copy.
    func regions(in image: GrayImage) -> [LaidOutRegion] { regions(in: PhotoPixels(image)) }

    /// `regions(in:quads:)` of an image with no finer copy.
    func regions(in image: GrayImage, quads: [DetectedQuad]) -> [LaidOutRegion] {
        regions(in: PhotoPixels(image), quads: quads)
    }

    /// The regions made of `quads` (largest first, as the detector lists them): grids
    /// first — each quad's own ruling (`takeRulings`), grids put together from their parts
    /// (`GridAssembly`), outer rows and columns past a frame trimmed, grids of cells found
    /// one by one (`cellLattices`) — then fields among the quads no grid holds
    /// (`fieldRegions`); when there is neither, the whole page.
    func regions(in pixels: PhotoPixels, quads detected: [DetectedQuad]) -> [LaidOutRegion] {
        let image = pixels.image
        var candidates = LayoutCandidates(quads: detected)
        takeRulings(&candidates, in: image)
        assembleGrids(&candidates)
        assembleNeighbours(&candidates, in: image)
        assembleStacked(&candidates, in: image)
        trimPastFrame(&candidates)
        // grids whose lines bend: their cells, found one by one, put side by side
        let (lattices, inLattice) = cellLattices(candidates, in: image)
        var regions = lattices + gridRegions(candidates, in: image)
        regions += fieldRegions(&candidates, inLattice: inLattice, gridOutlines: regions.map(\.quad), in: pixels)
        if regions.isEmpty {
            let w = Double(image.width - 1), h = Double(image.height - 1)
            let page = Quadrilateral(topLeft: Point(0, 0), topRight: Point(w, 0), bottomRight: Point(w, h), bottomLeft: Point(0, h))
            regions.append(LaidOutRegion(kind: .page, quad: page, gray: image,
                                         binary: Self.pageInk(of: image, less: candidates.quads), ruling: nil))
        }
        return readingOrder(regions)
    }

    /// See `readingOrder`: regions overlapping up and down by more than this share of the
    /// shorter one's height stand side by side and are read left to right.
    static let sameRowOverlap = 0.5

    /// A field inside a drawn box spanning at least this share of the box's shorter side
    /// (its height, for a box drawn for a line of digits) may be a piece of the box's own
    /// line: digits touching the box's line close an outline, or a run of blurred glyphs
    /// is outlined whole. When the box cuts more pieces of ink than its inner fields
    /// together, the box is the field. A sheet's boxes span a small share of it.
    static let linePieceShare = 0.5

    /// A cell whose inner part is inked under this share is blank.
    static let blankInk = 0.02
    /// The boxes found inside a grid are its cells when their median area is within this
    /// share of a ruling cell's (a box is its cell less the ruling around it).
    static let latticeCellArea = 0.4...1.5

    /// A grid whose lines run further than this share of a cell from where its straight
    /// ruling puts them (`BentRuling`) is read from its cells as the lines enclose them:
    /// a shift under a tenth of a cell stays inside the margin a cell's cut leaves around
    /// its digit.
    static let bendShare = 0.1

    /// A grid with at least this many cells is taken as it is: grids inside it are its
    /// boxes, not a better reading.
    static let trustedCellCount = 16
    /// A quad making up at least this share of a trusted grid around it is looked at as a
    /// grid of its own (and taken when it has more cells): a grid's own boxes and cells
    /// (a ninth of it at most, a 3×3 box of a 9×9 puzzle) are not.
    static let innerGridShare = 0.25
    /// A hole inside a few-cell grid's outline is one of its cells from this share of a
    /// cell's area (the hole encloses the cell's paper and the digit in it; a digit's
    /// loop in a run of touching digits is a small part of one "cell" its strokes make).
    /// A field's outline is a box's when it rings a hole of this share of one glyph's
    /// cell, a square as high as the box: a word's letters or digits run together ring
    /// only their loops.
    static let cellHoleShare = 0.25

    /// Whether `quad`'s outline rings a hole of at least `cellHoleShare` of a cell making
    /// up `cellShare` of the quad (true when its holes were not measured): a box's or a
    /// grid's cell, not a loop of the glyphs in a blob of ink.
    static func ringsCell(_ quad: DetectedQuad, cellShare: Double) -> Bool {
        guard let holes = quad.holeShares else { return true }
        return holes.contains { $0 >= cellHoleShare * cellShare }
    }

    /// Whether one of `ruling`'s inner lines in the straightened region `g` is the dark
    /// side of a lighting step rather than a drawn line (`GrayImage.isLightingStep`, looked
    /// at `stepReach` of the cell pitch either side of the line, along the ruling's extent).
    static func dividesAlongStep(_ ruling: Ruling, in g: GrayImage) -> Bool {
        let reach = max(3, Int(stepReach * BentRuling.pitch(of: ruling)))
        func span(_ lines: [Double]) -> Range<Int> { Int(lines.first!.rounded())..<Int(lines.last!.rounded()) }
        return ruling.rows.dropFirst().dropLast().contains { y in
            g.isLightingStep(at: y, horizontal: true, span: span(ruling.columns), reach: reach)
        } || ruling.columns.dropFirst().dropLast().contains { x in
            g.isLightingStep(at: x, horizontal: false, span: span(ruling.rows), reach: reach)
        }
    }

    /// How far either side of a ruling line, as a share of the cell pitch, its paper is
    /// compared (`dividesAlongStep`): past a line's width and its blur, inside the cell.
    static let stepReach = 0.25

    /// A coarse ruling (the thick lines of a puzzle whose thin lines are faint in places)
    /// made finer by the lines found band by band between its own lines, or nil. The
    /// finer ruling must keep every coarse line.
    static func refined(_ coarse: Ruling, lines: FoundLines, paper: BinaryImage) -> Ruling? {
        let finer = RulingFinder.ruling(lines, width: paper.width, height: paper.height,
                                        supportingRows: RulingFinder.linesInBands(of: coarse, in: paper, horizontal: true),
                                        supportingColumns: RulingFinder.linesInBands(of: coarse, in: paper, horizontal: false))
        guard let finer, finer.cellCount > coarse.cellCount else { return nil }
        // finer means every coarse line is still a line, the borders included
        func keeps(_ coarse: [Double], _ fine: [Double]) -> Bool {
            let cell = (fine.last! - fine.first!) / Double(fine.count - 1)
            return coarse.allSatisfy { c in fine.contains { abs($0 - c) < RulingFinder.lineTolerance * cell } }
        }
        return keeps(coarse.rows, finer.rows) && keeps(coarse.columns, finer.columns) ? finer : nil
    }

    /// The part of a straightened field searched for digits: inside a margin of a 25th of
    /// its shorter side (at least 2 px), where its frame lies. A whole page has no margin.
    static func readableArea(width: Int, height: Int, wholePage: Bool) -> PixelBox {
        let inset = wholePage ? 0 : max(2, min(width, height) / 25)
        return PixelBox(x: inset, y: inset, width: width - 2 * inset, height: height - 2 * inset)
    }

    /// The part of a laid-out field or page its digits are read in: `readableArea`, and
    /// in a drawn box past what of its frame's lines the margin left inside
    /// (`BinaryImage.insideFrame`, within `frameZone` of the area's shorter side, a line
    /// covering `frameCover` of a side): a digit written against the frame is otherwise
    /// one piece with it, no digit (seed 1 00386: "91325" read "9132").
    static func readableArea(of region: LaidOutRegion) -> PixelBox {
        let area = readableArea(width: region.gray.width, height: region.gray.height, wholePage: region.kind == .page)
        guard region.hasDrawnFrame, area.width > 4, area.height > 4 else { return area }
        let zone = max(1, Int((frameZone * Double(min(area.width, area.height))).rounded()))
        return region.binary.insideFrame(of: area, zone: zone, cover: frameCover)
    }

    /// See `readableArea(of:)`: how far in from the readable area's sides a frame's line
    /// is looked for, as a share of its shorter side — the line's own width and the few
    /// pixels the quad may lie outside it. 0.05 and 0.2 read seed 1 the same.
    static let frameZone = 0.1
    /// See `readableArea(of:)`: the share of a side a row or column of ink covers to be a
    /// frame's line; a digit, or digits set side by side, never cover nearly all of it
    /// (0.8 read a comb's digits and ticks as one more 1 on seed 1).
    static let frameCover = 0.9

    /// A ruled form's cells are mostly paper: the inner part of the median cell
    /// (`innerInk`) holds under `blankCellInk` ink. Textures (wood grain, fabric, text)
    /// that happen to show evenly spaced "lines" fail this.
    static func cellsLookBlank(_ binary: BinaryImage, _ ruling: Ruling) -> Bool {
        var fractions: [Double] = []
        for r in 0..<ruling.rowCount {
            for c in 0..<ruling.columnCount {
                if let share = innerInk(binary, x: ruling.columns[c]...ruling.columns[c + 1],
                                        y: ruling.rows[r]...ruling.rows[r + 1]) { fractions.append(share) }
            }
        }
        guard !fractions.isEmpty else { return false }
        return fractions.sorted()[fractions.count / 2] < blankCellInk
    }

    /// See `cellsLookBlank`: the most ink the inner part of a ruled grid's median cell
    /// holds (a digit fills far less of its cell; a texture's "cells" are inked all over).
    static let blankCellInk = 0.4

    /// See `innerInk`: the share of a cell's width (height) left out at either side, where
    /// the ruling around it lies.
    static let cellRulingInset = 0.15

    /// The share of ink in the inner part of the cell spanning `x` × `y`, `cellRulingInset`
    /// of it in from each side (nil when that is empty): the ruling around the cell stays out.
    static func innerInk(_ binary: BinaryImage, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double? {
        let w = x.upperBound - x.lowerBound, h = y.upperBound - y.lowerBound
        let ix0 = max(0, Int(x.lowerBound + cellRulingInset * w)), ix1 = min(binary.width, Int(x.upperBound - cellRulingInset * w))
        let iy0 = max(0, Int(y.lowerBound + cellRulingInset * h)), iy1 = min(binary.height, Int(y.upperBound - cellRulingInset * h))
        guard ix1 > ix0, iy1 > iy0 else { return nil }
        var ink = 0
        for yy in iy0..<iy1 {
            for xx in ix0..<ix1 where binary.bits[yy * binary.width + xx] != 0 { ink += 1 }
        }
        return Double(ink) / Double((ix1 - ix0) * (iy1 - iy0))
    }

    /// Rectifies a quad at its own resolution (its longer side capped at `rectifiedSide`).
    func straighten(_ quad: Quadrilateral, in image: GrayImage) -> GrayImage? {
        var (w, h) = quad.rectifiedSize
        let scale = min(1, Double(rectifiedSide) / Double(max(w, h)))
        w = max(8, Int(Double(w) * scale)); h = max(8, Int(Double(h) * scale))
        return image.rectified(quad, width: w, height: h)
    }

    /// A field's shorter side, working pixels, below which it is straightened larger from
    /// the photo's finer copy: digits fill about half a box's height, and the classifier
    /// sees a digit 20 px tall (MNIST's convention), so a box under 40 px holds digits
    /// smaller than the model's own.
    static let legibleFieldSide = 40.0

    /// A grid `straightened` (with `ruling`) whose cells are under `legibleFieldSide` on
    /// their shorter side, straightened again from `image` so they reach it, with the
    /// ruling scaled to match; nil when the cells are legible already. A 9×9 puzzle at
    /// `rectifiedSide` has cells of 50 px; a table of a dozen rows, 35 px or less. Where
    /// the working copy has fewer pixels than that (a small grid in a small photo) the
    /// straightening interpolates: strokes one or two pixels wide then threshold and
    /// segment as strokes, not as broken specks (corpus seed 1 exact +0.5 %, seed 2
    /// +0.1 %). Not from the finer copy: decoding it for every small grid cost a tenth of
    /// the Kubiesa run, small puzzles read as well without, tables gained 0.4 % of digits.
    func legible(_ quad: Quadrilateral, straightened g: GrayImage, ruling: Ruling,
                 in image: GrayImage) -> (GrayImage, Ruling)? {
        let cell = min(Double(g.width) / Double(ruling.columnCount), Double(g.height) / Double(ruling.rowCount))
        guard cell < Self.legibleFieldSide else { return nil }
        let zoom = Self.legibleFieldSide / cell
        guard zoom > Self.worthwhileZoom else { return nil }
        let (zw, zh) = (Int(Double(g.width) * zoom), Int(Double(g.height) * zoom))
        guard let larger = image.rectified(quad, width: zw, height: zh) else { return nil }
        let (sx, sy) = (Double(zw) / Double(g.width), Double(zh) / Double(g.height))
        return (larger, Ruling(rows: ruling.rows.map { $0 * sy }, columns: ruling.columns.map { $0 * sx }))
    }

    /// `legible` straightens a grid again only when that enlarges it by more than this:
    /// a few per cent more pixels change nothing the classifier sees.
    static let worthwhileZoom = 1.1

    /// `quad` straightened from the finer copy of `pixels` at up to `finerScale` times its
    /// working size, so its shorter side nears `legibleFieldSide` (its longer side at most
    /// `rectifiedSide`) — or, with no finer copy, interpolated from the working copy to
    /// that size; nil when it is legible already.
    func enlarged(_ quad: Quadrilateral, in pixels: PhotoPixels) -> GrayImage? {
        let (w, h) = quad.rectifiedSize
        guard Double(min(w, h)) < Self.legibleFieldSide else { return nil }
        let legible = min(Self.legibleFieldSide / Double(min(w, h)), Double(rectifiedSide) / Double(max(w, h)))
        func size(_ zoom: Double) -> (Int, Int)? {
            let (zw, zh) = (Int(Double(w) * zoom), Int(Double(h) * zoom))
            return zw * zh > w * h ? (zw, zh) : nil
        }
        if pixels.finerScale > 1, let (zw, zh) = size(min(pixels.finerScale, legible)),
           let finer = pixels.finerRectified(quad, width: zw, height: zh) {
            return finer
        }
        // no finer copy (a small photo, or its decode failed): interpolated, as a grid's
        // cells are (`legible`), so strokes a pixel or two wide threshold whole
        guard let (zw, zh) = size(legible) else { return nil }
        return pixels.image.rectified(quad, width: zw, height: zh)
    }

    /// The ruling of a straightened quad `g` (nil: none), the paper-relative ink it was
    /// looked for in and the lines found there: ink coverage first (it follows bent
    /// lines), grey-level profiles for faint ones, and when neither shows a grid and
    /// `faintLines` allows, the profiles' lines standing out of their background (thin
    /// lines blurred beside a heavy frame or jigsaw region lines, or into a noisy
    /// photo's grain: `RulingFinder.strongestLineShare`, `ProfileLevels`); last, a grid of
    /// square cells whose lines one way are all found fills the other way's that are only
    /// partly found (`RulingFinder.squareRuling`: the thin lines of a puzzle lost under a
    /// shadow beside its heavy region lines).
    static func ruling(of g: GrayImage, faintLines: () -> Bool = { false })
        -> (Ruling?, paper: BinaryImage, lines: FoundLines) {
        let darkness = g.darkness()
        let paper = g.binarizedAgainstPaper(darkness: darkness)
        let lines = FoundLines(in: paper)
        if let ruling = RulingFinder.ruling(lines, width: g.width, height: g.height) { return (ruling, paper, lines) }
        let levels = ProfileLevels(of: g, darkness: darkness)
        let ruling = RulingFinder.ruling(levels) ?? (faintLines() ? RulingFinder.ruling(levels, againstBackground: true) : nil)
            ?? RulingFinder.squareRuling(lines, width: g.width, height: g.height)
        return (ruling, paper, lines)
    }

    /// Top to bottom; regions overlapping vertically by `sameRowOverlap` of the shorter
    /// one's height go left to right.
    func readingOrder(_ regions: [LaidOutRegion]) -> [LaidOutRegion] {
        func span(_ r: LaidOutRegion) -> (Double, Double, Double) {
            let ys = r.quad.corners.map(\.y), xs = r.quad.corners.map(\.x)
            return (ys.min()!, ys.max()!, xs.min()!)
        }
        return regions.sorted { a, b in
            let (a0, a1, ax) = span(a), (b0, b1, bx) = span(b)
            let overlap = min(a1, b1) - max(a0, b0)
            if overlap > Self.sameRowOverlap * min(a1 - a0, b1 - b0) { return ax < bx }
            return a0 < b0
        }
    }
}
