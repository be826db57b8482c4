import DigitClassifier
import DocumentImaging
import Foundation
import ImagingCore

/// A laid-out region with its cut-out digits and their predictions.
struct ReadRegion {
    struct Piece {
        let crop: InkCrop?
        let row: Int?, col: Int?
        /// Index into the classifier batch.
        let input: Int?
        var prediction: DigitPrediction? = nil
    }

    let region: LaidOutRegion
    let pieces: [Piece]
    /// For a field of paper: the glyphs its cut left out as running off the paper
    /// (`DigitSegmenter.fieldGlyphs`), counted as doubted pieces in `readsAsWords`.
    var piecesOffPaper = 0

    /// This reading without the outer rows and columns its grid marks as maybe past its
    /// frame (`LaidOutRegion.edgesMaybePastFrame`) in which nothing was read as a digit:
    /// paper the quad took in (the sheet below, a shadow), not cells. Two rows and two
    /// columns are always kept; a grid of tiles is its own cells and is never trimmed.
    func trimmedPastFrame() -> ReadRegion {
        guard let ruling = region.ruling, !region.edgesMaybePastFrame.isEmpty, region.tiles == nil else { return self }
        func readsNothing(_ inStrip: (Piece) -> Bool) -> Bool {
            !pieces.contains { inStrip($0) && $0.prediction.map { !$0.isRejected } == true }
        }
        let edges = region.edgesMaybePastFrame
        var rows = ruling.rows, columns = ruling.columns
        var (firstRow, firstColumn) = (0, 0)
        if edges.contains(.bottom), rows.count >= 4, readsNothing({ $0.row == ruling.rowCount - 1 }) { rows.removeLast() }
        if edges.contains(.top), rows.count >= 4, readsNothing({ $0.row == 0 }) { rows.removeFirst(); firstRow = 1 }
        if edges.contains(.right), columns.count >= 4, readsNothing({ $0.col == ruling.columnCount - 1 }) { columns.removeLast() }
        if edges.contains(.left), columns.count >= 4, readsNothing({ $0.col == 0 }) { columns.removeFirst(); firstColumn = 1 }
        guard rows.count != ruling.rows.count || columns.count != ruling.columns.count else { return self }
        var trimmed = region
        trimmed.ruling = Ruling(rows: rows, columns: columns)
        trimmed.edgesMaybePastFrame = []
        let kept = pieces.compactMap { p -> Piece? in
            guard let row = p.row, let col = p.col else { return p }
            let (r, c) = (row - firstRow, col - firstColumn)
            guard r >= 0, c >= 0, r < rows.count - 1, c < columns.count - 1 else { return nil }
            return Piece(crop: p.crop, row: r, col: c, input: p.input, prediction: p.prediction)
        }
        return ReadRegion(region: trimmed, pieces: kept)
    }

    /// Maps rectified-region pixels to working-image pixels (for a grid of tiles, through
    /// the quad its tile was cut from).
    var toImage: (Point) -> Point {
        if let tiles = region.tiles, let ruling = region.ruling {
            let tile = ruling.columns.count > 1 ? ruling.columns[1] - ruling.columns[0] : 1
            let maps = tiles.map { Homography(straightening: $0, width: Int(tile), height: Int(tile)) }
            return { p in
                let c = min(ruling.columnCount - 1, max(0, Int(p.x / tile))), r = min(ruling.rowCount - 1, max(0, Int(p.y / tile)))
                guard let h = maps[r * ruling.columnCount + c] else { return p }
                let q = h.apply(Point(p.x - Double(c) * tile, p.y - Double(r) * tile))
                return Point(q.x - 0.5, q.y - 0.5)
            }
        }
        guard let bend = region.bend else { return straightToImage }
        let straight = straightToImage
        return { straight(bend.bentPoint($0)) }
    }

    /// Maps rectified-region pixels to working-image pixels through the region's quad
    /// alone (for a grid whose lines bend, as if they did not).
    var straightToImage: (Point) -> Point {
        if region.kind == .page { return Self.pageMap(region.quad, width: region.gray.width, height: region.gray.height) }
        return Self.map(through: region.quad, width: region.gray.width, height: region.gray.height) ?? { $0 }
    }

    /// A page's pixels are the working image's own: the identity. A page turned upright
    /// on its own (`RegionTurn.turned`) maps back through the turn: its quad's corners, the
    /// image's corner pixels in a new order, taken to the image's corner edges.
    static func pageMap(_ quad: Quadrilateral, width: Int, height: Int) -> (Point) -> Point {
        let corners = quad.corners
        guard corners[0] != Point(0, 0) else { return { $0 } }
        // each corner pixel's centre moved half a pixel out to the image's outer edge
        let e = corners.map { Point($0.x > 0 ? $0.x + 0.5 : -0.5, $0.y > 0 ? $0.y + 0.5 : -0.5) }
        let edges = Quadrilateral(topLeft: e[0], topRight: e[1], bottomRight: e[2], bottomLeft: e[3])
        return Homography(straightening: edges, width: width, height: height)?.apply ?? { $0 }
    }

    /// Maps pixel-edge coordinates of `quad` straightened to `width` × `height` to the
    /// working image's pixel coordinates; nil for a degenerate quad.
    static func map(through quad: Quadrilateral, width: Int, height: Int) -> ((Point) -> Point)? {
        guard let h = Homography(straightening: quad, width: width, height: height) else { return nil }
        return { p in let q = h.apply(p); return Point(q.x - 0.5, q.y - 0.5) }
    }

    /// The region's corners in the working image. A grid's are where its outer ruling
    /// lines cross: the quad found may hold a margin or a tinted panel around the grid.
    /// An outer line within `edgeSnapShare` of the quad's edge is the grid's frame, whose outer edge
    /// the quad already follows: the edge is kept.
    ///
    /// A field's are the middle of its box's line (where a form's box is drawn), when the
    /// quad follows the line's outer edge: moved in to the line's middle, side by side
    /// (`frameMiddles`), the line measured on ink against the paper (a faint line the
    /// field's local-mean ink misses still counts). A side with no such line whose strip
    /// just inside is the paper below a sheet lying on it (a note on a pile of sheets, its
    /// outline taken with the sheet beneath) is moved in to the upper sheet's own edge
    /// (`InnerPaperEdge`), which may slant against the quad's side. A field of paper whose
    /// edges bend towards a corner gives its corners as they lie (`LaidOutRegion.paperCorners`).
    var outline: Quadrilateral {
        if region.tiles != nil { return region.quad }   // a grid of tiles: its corner cells' corners
        if let corners = region.paperCorners { return corners }
        if region.kind == .field {
            let g = region.workingGray ?? region.gray
            let middles = region.hasDrawnFrame ? Self.frameMiddles(g.binarizedAgainstPaper(darkness: g.darkness())) : (0, 0, 0, 0)
            let w = Double(g.width), h = Double(g.height)
            guard let map = Self.map(through: region.quad, width: g.width, height: g.height) else { return region.quad }
            // a side with no line of its own may be the paper below a sheet lying on it
            let paper = [middles.0, middles.1, middles.2, middles.3].contains(0)
                ? InnerPaperEdge.sides(of: g, depthShare: Self.paperBelowShare, contrastPercent: Layout.inkContrast)
                : [nil, nil, nil, nil]
            func inset(_ side: Int, _ middle: Double) -> (start: Double, end: Double) {
                middle == 0 ? paper[side] ?? (0, 0) : (middle, middle)
            }
            let (top, right, bottom, left) = (inset(0, middles.0), inset(1, middles.1), inset(2, middles.2), inset(3, middles.3))
            // each side a line in the straightened box; the corners where they cross
            let topLine = Line(through: Point(0, top.start), Point(w, top.end))
            let bottomLine = Line(through: Point(0, h - bottom.start), Point(w, h - bottom.end))
            let leftLine = Line(through: Point(left.start, 0), Point(left.end, h))
            let rightLine = Line(through: Point(w - right.start, 0), Point(w - right.end, h))
            guard let tl = topLine.intersection(leftLine), let tr = topLine.intersection(rightLine),
                  let br = bottomLine.intersection(rightLine), let bl = bottomLine.intersection(leftLine)
            else { return region.quad }
            return Quadrilateral(topLeft: map(tl), topRight: map(tr), bottomRight: map(br), bottomLeft: map(bl))
        }
        guard let r = region.ruling, var x0 = r.columns.first, var x1 = r.columns.last,
              var y0 = r.rows.first, var y1 = r.rows.last else { return region.quad }
        let w = Double(region.gray.width), h = Double(region.gray.height)
        // a border within `edgeSnapShare` of the region's edge is that edge
        if x0 < Self.edgeSnapShare * w { x0 = 0 }
        if x1 > (1 - Self.edgeSnapShare) * w { x1 = w }
        if y0 < Self.edgeSnapShare * h { y0 = 0 }
        if y1 > (1 - Self.edgeSnapShare) * h { y1 = h }
        // the frame the straight ruling gives, also where the lines bend inside it: a
        // bend is fitted from the lines within, and at the corners it would be guessed
        let map = straightToImage
        return Quadrilateral(topLeft: map(Point(x0, y0)), topRight: map(Point(x1, y0)),
                             bottomRight: map(Point(x1, y1)), bottomLeft: map(Point(x0, y1)))
    }

    /// How far in (rectified pixels) the middle of a box's line lies from each edge of
    /// the straightened box (top, right, bottom, left): per side the median, over its
    /// middle 60 %, of the middle of the first run of ink met going in from the edge. The
    /// edge found is where the line's outer flank is steepest, so a blurred line's ink may
    /// begin a little inside it: a gap of paper before the run is allowed when no wider
    /// than the run itself (wider, the ink is a digit near the edge, not the edge's line).
    /// Gap and run together are capped at `largestFrameShare` of the box across them. A
    /// side with no such line in most places has middle 0.
    static func frameMiddles(_ ink: BinaryImage) -> (Double, Double, Double, Double) {
        let w = ink.width, h = ink.height
        func middle(_ x: Int, _ y: Int, _ dx: Int, _ dy: Int, _ limit: Int) -> Double {
            func isInk(_ n: Int) -> Bool {
                let (px, py) = (x + n * dx, y + n * dy)
                return px >= 0 && py >= 0 && px < w && py < h && ink.bits[py * w + px] == 1
            }
            var gap = 0
            while gap < limit, !isInk(gap) { gap += 1 }
            var run = 0
            while gap + run < limit, isInk(gap + run) { run += 1 }
            guard run > 0, gap <= run else { return 0 }
            return Double(gap) + Double(run) / 2
        }
        func median(_ middles: [Double]) -> Double {
            guard !middles.isEmpty else { return 0 }
            return middles.sorted()[middles.count / 2]
        }
        let across = { (n: Int) in max(1, Int(largestFrameShare * Double(n))) }
        let columns = Array(stride(from: w / 5, to: w - w / 5, by: max(1, w / 40)))
        let rows = Array(stride(from: h / 5, to: h - h / 5, by: max(1, h / 40)))
        return (median(columns.map { middle($0, 0, 0, 1, across(h)) }), median(rows.map { middle(w - 1, $0, -1, 0, across(w)) }),
                median(columns.map { middle($0, h - 1, 0, -1, across(h)) }), median(rows.map { middle(0, $0, 1, 0, across(w)) }))
    }

    /// Where a field's outline is paper below a sheet lying on it (a note on a pile of
    /// sheets), the sheet's own edge is looked for this share of the field across in from
    /// the outline (`InnerPaperEdge`): the paper below shows a few per cent of the sheet.
    static let paperBelowShare = 0.1

    /// See `outline`: a grid's ruling border lying within this share of its straightened
    /// region's side from the region's edge is that edge (the quad already follows the
    /// frame; a line's width is no reason to move it).
    static let edgeSnapShare = 0.02

    /// A box's line is at most this share of the box across it (thicker ink at an edge
    /// is a digit or a shadow, not the line).
    static let largestFrameShare = 0.15

    /// A box in rectified pixels as [x, y, w, h] in full-resolution image pixels, through
    /// `map` (`toImage`, made once per region: a grid of tiles builds a homography per tile).
    func imageBox(_ b: PixelBox, scale: Double, map: (Point) -> Point) -> [Int] {
        let pts = [Point(Double(b.x), Double(b.y)), Point(Double(b.maxX), Double(b.y)),
                   Point(Double(b.maxX), Double(b.maxY)), Point(Double(b.x), Double(b.maxY))].map(map)
        let x0 = pts.map(\.x).min()! * scale, y0 = pts.map(\.y).min()! * scale
        let x1 = pts.map(\.x).max()! * scale, y1 = pts.map(\.y).max()! * scale
        return [Int(x0.rounded()), Int(y0.rounded()), Int((x1 - x0).rounded()), Int((y1 - y0).rounded())]
    }

    /// A field whose pieces the model mostly rejects or doubts (at least `shortestWord`
    /// of them) is a line of words — a label, a sentence in a box, print at a photo's
    /// edge, a block of another sheet's text: the pieces read as digits there are letters
    /// (l, I, S, O), as often shown unsure (`shownUnsureBelow`) as read sure, and are reported
    /// as rejected. The glyphs a paper field's cut left out as running off the paper
    /// (`piecesOffPaper`: another sheet's letters its outline cut) count among the
    /// doubted. A page is judged line by line instead (`PageLines`, through
    /// `piecesReadAsWords`).
    var readsAsWords: Bool {
        guard region.kind == .field else { return false }
        let read = pieces.compactMap(\.prediction)
        let sure = read.filter(Self.readsSure).count
        let judged = read.count + piecesOffPaper
        return judged >= Self.shortestWord && judged - sure > sure
    }

    /// See `readsAsWords`: a digit read under the reader's default `--min-confidence` is
    /// one it shows as unsure (not `FaintInkReading.doubtedBelow`, the classifier's
    /// second-look bar, under which a cell's faint ink is asked).
    static let shownUnsureBelow = ReadOptions.defaultMinConfidence

    /// Whether the model read a digit it is sure of: not rejected, and not shown unsure
    /// (`shownUnsureBelow`). Words are judged by how many of their pieces are not.
    static func readsSure(_ p: DigitPrediction) -> Bool {
        !p.isRejected && Double(p.confidence) >= shownUnsureBelow
    }

    /// The indices of `pieces` reported as rejected though the model read a digit: all of
    /// a field that reads as words (`readsAsWords`), on a page those of its lines that do
    /// (`PageLines`).
    var piecesReadAsWords: Set<Int> {
        if readsAsWords { return Set(pieces.indices) }
        return region.kind == .page ? PageLines.wordPieces(pieces) : []
    }

    /// Whether a piece reads as a digit: the model did not reject it and it is no word's
    /// (`piecesReadAsWords`).
    var readsDigit: Bool {
        let words = piecesReadAsWords
        return pieces.indices.contains { !words.contains($0) && (pieces[$0].prediction.map { !$0.isRejected } ?? false) }
    }

    /// The fewest pieces `readsAsWords` judges: one or two rejected pieces beside a
    /// digit are a blot or a stroke, not words.
    static let shortestWord = 3

    func result(index: Int, scale: Double, minConfidence: Double, unsure: Character) -> RegionResult {
        let words = piecesReadAsWords
        var digits: [DigitResult] = [], rejected: [RejectedCrop] = []
        var cells: [CellResult] = []
        var text = ""
        var lowest = 1.0
        let map = toImage
        for (index, piece) in pieces.enumerated() {
            var cellText = "", cellConfidence = 1.0
            if let crop = piece.crop, let p = piece.prediction {
                let box = imageBox(crop.box, scale: scale, map: map)
                if p.isRejected || words.contains(index) {
                    // the model's probability that it is no digit (low for a letter of
                    // a word it read as a digit)
                    let reject = DigitClassifier.rejectClass
                    let notDigit = p.isRejected ? p.confidence : p.probabilities.count > reject ? p.probabilities[reject] : 0
                    rejected.append(RejectedCrop(box: box, confidence: round4(notDigit), row: piece.row, col: piece.col))
                    cellConfidence = Double(notDigit)
                } else {
                    let confidence = Double(p.confidence)
                    digits.append(DigitResult(value: p.label, confidence: round4(p.confidence), box: box, row: piece.row, col: piece.col))
                    cellText = confidence < minConfidence ? String(unsure) : String(p.label)
                    cellConfidence = confidence
                }
                lowest = min(lowest, cellConfidence)
            }
            if let row = piece.row, let col = piece.col {
                // a table's number comes as several pieces of one cell, left to right
                if let last = cells.last, last.row == row, last.col == col {
                    let joined = last.text + cellText
                    cells[cells.count - 1] = CellResult(row: row, col: col, text: joined,
                                                        confidence: min(last.confidence, round4(Float(cellConfidence))))
                    if last.text.isEmpty && !cellText.isEmpty { text.removeLast() }
                    text += cellText
                } else {
                    cells.append(CellResult(row: row, col: col, text: cellText, confidence: round4(Float(cellConfidence))))
                    text += cellText.isEmpty ? "." : cellText
                }
            } else {
                text += cellText
            }
        }
        // a working pixel's centre i is the centre of the full-resolution pixels
        // i·scale … i·scale + scale − 1
        let half = (scale - 1) / 2
        let corners = outline.corners.map { [round1($0.x * scale + half), round1($0.y * scale + half)] }
        let grid = region.ruling.map { GridResult(rows: $0.rowCount, cols: $0.columnCount, cells: cells) }
        return RegionResult(index: index, kind: region.kind.rawValue, corners: corners, text: text,
                            confidence: round4(Float(lowest)), digits: digits, rejected: rejected, grid: grid)
    }
}

func round4(_ x: Float) -> Double { (Double(x) * 10_000).rounded() / 10_000 }
func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
