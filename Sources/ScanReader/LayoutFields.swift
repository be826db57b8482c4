import DocumentImaging
import ImagingCore

/// The layout's field stage: the quads no grid holds that hold digits.
extension Layout {
    /// Fields: the innermost quads with digits that are no grid, lie in none (nor in one
    /// of `gridOutlines`: a grid put together from parts, or found on a sheet, is no
    /// quad's parent, so what lies in it is known by where it is) and are no cell of a
    /// lattice (`inLattice`), smallest first. A drawn box whose inner fields are pieces
    /// of its own line of digits takes their place. A box a hard shadow's edge cut short
    /// is moved in `c` to its end past the lighting step.
    func fieldRegions(_ c: inout LayoutCandidates, inLattice: [Bool], gridOutlines: [Quadrilateral],
                      in pixels: PhotoPixels) -> [LaidOutRegion] {
        let image = pixels.image
        var regions: [LaidOutRegion] = []
        var isField = [Bool](repeating: false, count: c.quads.count)
        var fieldRegion: [Int: (region: Int, pieces: Int)] = [:]
        var replaced = Set<Int>()
        for i in c.quads.indices.reversed()
        where !c.isGrid(i) && !inLattice[i] && !c.quads[i].followsImageFrame && !c.liesInGrid(i)
            && !gridOutlines.contains(where: { $0.contains(c.quads[i].quad.center) }) {
            let quads = c.quads
            let inner = quads.indices.filter { j in
                (isField[j] || c.isGrid(j) || inLattice[j]) && c.ancestors(j).contains(i)
            }
            let drawnFrame = !quads[i].isHole && !quads[i].isFlatPaper && !quads[i].isLineMiddle
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
            let pieces = fieldPieceCount(gray: g, ink: meanInk, faint: faint)
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
            for j in inner { replaced.insert(j); isField[j] = false }
            isField[i] = true
            fieldRegion[i] = (regions.count, pieces)
            let b = Self.fieldInk(meanInk, of: g, zoom: zoom)
            var field = LaidOutRegion(kind: .field, quad: quad, gray: g, binary: b, faint: faint, ruling: nil,
                                      hasDrawnFrame: drawnFrame, workingGray: g.width == straightened.width ? nil : straightened)
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
    /// and the larger count taken.
    func fieldPieceCount(gray g: GrayImage, ink: BinaryImage, faint: BinaryImage?) -> Int {
        func count(_ g: GrayImage, _ ink: BinaryImage, _ faint: BinaryImage?) -> Int {
            let readable = Self.readableArea(width: g.width, height: g.height, wholePage: false)
            guard readable.width > 4, readable.height > 4 else { return 0 }
            return segmenter.fieldDigits(gray: g, binary: ink, faint: faint, region: readable).count
        }
        let upright = count(g, ink, faint)
        guard g.height > g.width else { return upright }
        return max(upright, count(g.rotated(quarterTurns: 1), ink.rotated(quarterTurns: 1),
                                  faint?.rotated(quarterTurns: 1)))
    }
}
