import DocumentImaging
import ImagingCore

/// The layout's field stage: the quads no grid holds that hold digits.
extension Layout {
    /// Fields: the innermost quads with digits that are no grid, lie in none (nor in one
    /// of `gridOutlines`: a grid put together from parts, or found on a sheet, is no
    /// quad's parent, so what lies in it is known by where it is) and are no cell of a
    /// lattice (`inLattice`), smallest first. A drawn box whose inner fields are pieces
    /// of its own line of digits takes their place; a quad whose inner fields are its own
    /// glyphs' loops (`glyphLoops`) is weighed as if they were not there. A box a hard
    /// shadow's edge cut short is moved in `c` to its end past the lighting step.
    func fieldRegions(_ c: inout LayoutCandidates, inLattice: [Bool], gridOutlines: [Quadrilateral],
                      in pixels: PhotoPixels) -> [LaidOutRegion] {
        let image = pixels.image
        var regions: [LaidOutRegion] = []
        var isField = [Bool](repeating: false, count: c.quads.count)
        var fieldRegion: [Int: (region: Int, pieces: Int)] = [:]
        var replaced = Set<Int>()
        // fields whose every glyph is an arc in a corner (`arcsOnly`): they ring nothing
        var ringsNothing = Set<Int>()
        for i in c.quads.indices.reversed()
        where !c.isGrid(i) && !inLattice[i] && !c.quads[i].followsImageFrame && !c.liesInGrid(i)
            && !gridOutlines.contains(where: { $0.contains(c.quads[i].quad.center) }) {
            let quads = c.quads
            let within = quads.indices.filter { j in
                (isField[j] || c.isGrid(j) || inLattice[j]) && c.ancestors(j).contains(i)
            }
            let drawnFrame = !quads[i].isHole && !quads[i].isFlatPaper && !quads[i].isLineMiddle
            // a large 0, 6, 8 or 9 written on paper rings its loop as a box's line rings the
            // box: an inner field ringing nothing that lies within one of this quad's own
            // glyphs is that glyph's loop, weighed as none of its fields (and dropped with them)
            let loops = Set(glyphLoops(within.filter { ringsNothing.contains($0) }.map { ($0, quads[$0].quad) },
                                       of: quads[i].quad, rectified: c.rectified[i], in: image))
            let inner = within.filter { !loops.contains($0) }
            // a box with inner regions (drawn, found as its inside — a hole its line rings,
            // parted where a digit touches both sides — or found from its lines on a sheet:
            // then its parts are the boxes a line across it makes, `LineBoxes`) is read only
            // to be weighed against inner fields that span most of it across
            // (`linePieceShare`), and paper only against its own pieces (a sheet a
            // shadow's edge cut, each part also found)
            let piecesOfIt = quads[i].isFlatPaper && !inner.isEmpty
                && inner.allSatisfy { isField[$0] && Self.isPiece(quads[$0].quad, of: quads[i].quad) }
            if !inner.isEmpty && !piecesOfIt {
                guard drawnFrame || quads[i].isLineMiddle || quads[i].isHole, inner.allSatisfy({ isField[$0] }),
                      inner.allSatisfy({ quads[$0].quad.shortestSide >= Self.linePieceShare * quads[i].quad.shortestSide })
                else { continue }
            }
            // a box a hard shadow's edge cut short: its end past the lighting step
            if !quads[i].isFlatPaper, let longer = extendedPastStep(quads[i].quad, in: image) {
                c.move(i, to: longer, straightened: straighten(longer, in: image))
            }
            let quad = c.quads[i].quad
            // flat paper is straightened only here, when it may be a field
            guard let straightened = c.rectified[i] ?? (quads[i].isFlatPaper ? straighten(quad, in: image) : nil)
            else { continue }
            // an outline ringing no hole the size of one glyph's cell (a square as high as
            // the box, `cellHoleShare` of it) is a blob of ink — a word's letters, digits run
            // together — not a box: its holes are their loops
            let glyphCellShare = Double(min(straightened.width, straightened.height))
                / Double(max(straightened.width, straightened.height))
            if drawnFrame, !Self.ringsCell(quads[i], cellShare: glyphCellShare) { continue }
            // the finer decode (about a decode's cost) only for a box on something — a
            // sheet, a note, a panel: inside another quad — or drawn on a sheet; a small
            // quad loose on the desk beside a grid is a label or a word's box
            let onPaper = quads[i].parent != nil || quads[i].isLineMiddle
            let g = (onPaper ? enlarged(quad, in: pixels) : nil) ?? straightened
            let zoom = Double(g.width) / Double(straightened.width)
            let (meanInk, faint) = Self.inkLevels(of: g, zoom: zoom)
            // candidates are weighed by the glyphs the local mean cuts (a band along a
            // shadow's edge counts as one glyph there, as it did when the layout's
            // comparisons were chosen); the field taken is read in `fieldInk`
            let (pieces, upright) = fieldPieces(gray: g, ink: meanInk, faint: faint)
            // the whole against its pieces: the glyphs the cut split are whole in it
            let innerPieces = inner.reduce(0, { $0 + fieldRegion[$1]!.pieces })
            // …and when they are its parts (each leaves a stretch of it out, `isPart`: a line
            // across it parted it), the whole is taken on a tie: that line added no glyph, and
            // a digit's stroke or a shadow's edge parts a box as a ruling does. A lone part is
            // the whole's only when what it leaves out is blank paper like its own
            // (`leavesOutPaper`): not the desk around a note another outline closed around it,
            // nor a printed sheet beside it. An inside ringed within the box keeps the tie
            let parted = inner.allSatisfy { Self.isPart(quads[$0].quad, of: quads[i].quad) }
                && (inner.count >= 2 || (inner.count == 1
                    && Self.leavesOutPaper(quads[inner[0]].quad, of: quad, straightened: g)))
            guard pieces > 0, piecesOfIt || parted ? pieces >= innerPieces : pieces > innerPieces else { continue }
            for j in inner + loops { replaced.insert(j); isField[j] = false }
            isField[i] = true
            fieldRegion[i] = (regions.count, pieces)
            if Self.arcsOnly(upright) { ringsNothing.insert(i) }
            let b = Self.fieldInk(meanInk, of: g, zoom: zoom)
            var field = LaidOutRegion(kind: .field, quad: quad, gray: g, binary: b, faint: faint, ruling: nil,
                                      hasDrawnFrame: drawnFrame, workingGray: g.width == straightened.width ? nil : straightened)
            field.isFlatPaper = quads[i].isFlatPaper
            if quads[i].isHole || quads[i].isFlatPaper {
                field.paperCorners = EdgeRefiner.cornersAsTheyLie(quad, in: image, searchRadius: detector.edgeSearchRadius(in: image),
                                                                  darkInside: !quads[i].isHole)
            }
            regions.append(field)
        }
        let dropped = Set(replaced.map { fieldRegion[$0]!.region })
        return regions.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    /// How many glyphs a candidate field's ink cuts into, for weighing it against the fields
    /// inside it (`DigitSegmenter.fieldDigits` in its `readableArea`). A field standing
    /// on end (taller than wide) may hold a line of digits written along its length, on
    /// their side until `RegionTurn` turns them: there a 1 lies across the box as a bar
    /// spanning its width, and is no glyph. Such a field is also cut a quarter turned,
    /// and the larger count taken; so is a field whose upright cut found nothing and that
    /// is no more than `paperAspect` times as wide as tall (a note holding one 1,
    /// photographed on its side: a bar too wide for its height to be a glyph). A box
    /// around a line of another sheet's print is far longer, and its letters stood on
    /// end are no digits. Also the glyphs cut upright (`fieldPieceBoxes`).
    func fieldPieces(gray g: GrayImage, ink: BinaryImage, faint: BinaryImage?)
        -> (count: Int, upright: (boxes: [PixelBox], area: PixelBox)) {
        let upright = fieldPieceBoxes(gray: g, ink: ink, faint: faint)
        let paperShaped = Double(g.width) <= Self.paperAspect * Double(g.height)
        guard g.height > g.width || (upright.boxes.isEmpty && paperShaped) else { return (upright.boxes.count, upright) }
        let turned = fieldPieceBoxes(gray: g.rotated(quarterTurns: 1), ink: ink.rotated(quarterTurns: 1),
                                     faint: faint?.rotated(quarterTurns: 1))
        return (max(upright.boxes.count, turned.boxes.count), upright)
    }

    /// See `fieldPieces`: how much longer than wide a sheet or note is at most, with room
    /// for perspective — paper formats run from square notes to index cards 1.67 times as
    /// long as wide (A-series 1.41, US letter 1.29).
    static let paperAspect = 2.0

    /// The boxes of the glyphs a straightened field's ink cuts in its `readableArea`
    /// (`DigitSegmenter.fieldDigits`), in its pixels, with that area.
    func fieldPieceBoxes(gray g: GrayImage, ink: BinaryImage, faint: BinaryImage?) -> (boxes: [PixelBox], area: PixelBox) {
        let readable = Self.readableArea(width: g.width, height: g.height, wholePage: false)
        guard readable.width > 4, readable.height > 4 else { return ([], readable) }
        return (segmenter.fieldDigits(gray: g, binary: ink, faint: faint, region: readable).map(\.box), readable)
    }

    /// Whether every glyph cut in a field (`fieldPieceBoxes`, at least one) reaches two
    /// sides of its readable area that meet at a corner (within a pixel): an outline that
    /// is a glyph's loop, straightened, shows only its ring's arcs where the straight sides
    /// leave the round line, and holds nothing of its own (a box's digit written against
    /// its frame stands clear of one of the two sides).
    static func arcsOnly(_ pieces: (boxes: [PixelBox], area: PixelBox)) -> Bool {
        let area = pieces.area
        return !pieces.boxes.isEmpty && pieces.boxes.allSatisfy { box in
            (box.x <= area.x + 1 || box.maxX >= area.maxX - 1) && (box.y <= area.y + 1 || box.maxY >= area.maxY - 1)
        }
    }

    /// The fields among `candidates` (quads lying in `quad`) that lie within one glyph
    /// `quad`'s ink cuts (`fieldPieceBoxes` of it straightened at working size): each
    /// candidate's corners, carried into the straightened quad, within that glyph's box
    /// grown by `loopMargin` of its height on every side. `quad` is straightened (when
    /// not already) only when there are candidates.
    func glyphLoops(_ candidates: [(index: Int, quad: Quadrilateral)], of quad: Quadrilateral, rectified: GrayImage?,
                    in image: GrayImage) -> [Int] {
        guard !candidates.isEmpty, let g = rectified ?? straighten(quad, in: image),
              let toG = Homography(straightening: quad, width: g.width, height: g.height)?.inverted else { return [] }
        let (ink, faint) = Self.inkLevels(of: g)
        let glyphs = fieldPieceBoxes(gray: g, ink: ink, faint: faint).boxes
        return candidates.filter { candidate in
            let corners = candidate.quad.corners.map { toG.apply(Point($0.x + 0.5, $0.y + 0.5)) }
            let (x0, y0) = (Int(corners.map(\.x).min()!.rounded(.down)), Int(corners.map(\.y).min()!.rounded(.down)))
            let (x1, y1) = (Int(corners.map(\.x).max()!.rounded(.up)), Int(corners.map(\.y).max()!.rounded(.up)))
            let loop = PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            return glyphs.contains { $0.contains(loop, margin: Int((Self.loopMargin * Double($0.height)).rounded(.up))) }
        }.map(\.index)
    }

    /// See `glyphLoops`: how far past a glyph's box a loop's corners may lie, as a share
    /// of the glyph's height — the few pixels a quad's corner stands off a round line.
    static let loopMargin = 0.1
}
