import ImagingCore

/// A grid's typical glyph: the median height and width over its cells' ink.
public struct GlyphSize {
    /// Median height, pixels.
    public var height: Double
    /// Median width, pixels.
    public var width: Double

    /// The medians of `boxes` (at least one).
    public static func typical(of boxes: [PixelBox]) -> GlyphSize {
        GlyphSize(height: Double(boxes.map(\.height).sorted()[boxes.count / 2]),
                  width: Double(boxes.map(\.width).sorted()[boxes.count / 2]))
    }
}

/// A solver's pencilled candidates against a cell's digit: the note rules of a grid's
/// cells, and pale digits measured whole before they are taken for notes.
extension DigitSegmenter {
    /// The digit a grid cell's cut `cut` is, or nil when it is a solver's note. A cut that
    /// looks like a note as cut (`isNote`, or small both ways, `isSmall`, against the grid's
    /// `typical` glyph as cut) is measured again whole: the glyph of faint ink its pixels
    /// lie in (`wholeGlyph`), against the grid's typical glyph measured the same way
    /// (`whole`, asked only then, of the faint ink). The threshold keeps only a piece of a
    /// digit written pale (a thinning pen, a shadow), and the piece looks like a note; the
    /// faint ink shows the digit. A glyph that is a note measured whole (`isNote`,
    /// `isSmallNote`) is dropped; else the cell is cut again with its lone piece grown
    /// (`growsLonePieces`) and the grown glyph read. A piece the faint ink does not grow (an
    /// erased digit's last trace: the broken-digit rule asks a piece for a third of its
    /// faint glyph's ink) is kept only if it was no note as cut.
    ///
    /// `isGiven`: the cut is one of a puzzle's givens printed small (`smallPrintedGivens`):
    /// being small is then no note (`isSmallNote` is not asked).
    func digit(fromCut cut: InkCrop, in cell: PixelBox, isGiven: Bool = false, gray: GrayImage, binary: BinaryImage,
               faint: BinaryImage?, typical: GlyphSize, whole: (BinaryImage) -> GlyphSize) -> InkCrop? {
        let noteAsCut = isNote(cut.box, in: cell, typical: typical)
        guard noteAsCut || Self.isSmall(cut.box, typical: typical) else { return cut }
        guard let faint else { return noteAsCut || (!isGiven && Self.isSmallNote(cut.box, typical: typical)) ? nil : cut }
        let glyph = Self.wholeGlyph(of: cut, binary: binary, faint: faint, cell: cell)
        let measured = whole(faint)
        if isNote(glyph, in: cell, typical: measured) || (!isGiven && Self.isSmallNote(glyph, typical: measured)) { return nil }
        if let grown = growingLonePieces.cellContent(gray: gray, binary: binary, faint: faint, cell: cell).digit,
           grown.box.strictlyContains(cut.box) {
            return grown
        }
        return noteAsCut ? nil : cut
    }

    /// True when ink with bounding box `box` in `cell` is a solver's pencilled candidate
    /// rather than the cell's digit. Candidates sit off the centre (a corner, the top)
    /// and are small both ways; a digit written small is still centred, and a flat
    /// handwritten 2 or 5 is short but full width. In a corner, small in height suffices
    /// (a wide pencilled 4 in the top-left corner); anywhere, under `centredNoteHeight` of
    /// the typical height suffices (the centre candidate of a 3 × 3 pattern).
    func isNote(_ box: PixelBox, in cell: PixelBox, typical: GlyphSize) -> Bool {
        let (dx, dy) = Self.offset(of: box, from: cell)
        if Double(box.height) < centredNoteHeight * typical.height { return true }
        if !inMiddleSlot(box, of: cell) && Double(box.height) < minimumRelativeDigitHeight * typical.height
            && Double(box.width) < minimumRelativeDigitWidth * typical.width { return true }
        let inCorner = dx >= cornerNoteOffset * Double(cell.width) && dy >= cornerNoteOffset * Double(cell.height)
        return inCorner && Double(box.height) < cornerNoteHeight * typical.height
    }

    /// True when `box`'s centre lies in the middle slot of `cell`'s candidates' 3 × 3
    /// pattern: within `middleSlot` of the cell's centre, both ways (half a slot, a sixth of
    /// the cell, from the centre).
    func inMiddleSlot(_ box: PixelBox, of cell: PixelBox) -> Bool {
        let (dx, dy) = Self.offset(of: box, from: cell)
        return dx <= middleSlot * Double(cell.width) && dy <= middleSlot * Double(cell.height)
    }

    /// How far `box`'s centre lies from `cell`'s, across and down, pixels.
    static func offset(of box: PixelBox, from cell: PixelBox) -> (dx: Double, dy: Double) {
        (abs(Double(box.x) + Double(box.width) / 2 - Double(cell.x) - Double(cell.width) / 2),
         abs(Double(box.y) + Double(box.height) / 2 - Double(cell.y) - Double(cell.height) / 2))
    }

    /// True when ink with bounding box `box` is small both ways (`isSmall`) and no 1,
    /// wherever it sits: a solver's candidate (the fifth of the 3 × 3 pattern sits at the
    /// cell's centre), not the cell's digit. A flat 2 is full width; a 1 (narrower than
    /// `slenderShare` of its height) is never the centre candidate.
    static func isSmallNote(_ box: PixelBox, typical: GlyphSize) -> Bool {
        isSmall(box, typical: typical) && Double(box.width) >= slenderShare * Double(box.height)
    }

    /// True when `box` is under `smallNoteShare` of the `typical` glyph both in height and
    /// in width.
    static func isSmall(_ box: PixelBox, typical: GlyphSize) -> Bool {
        Double(box.height) < smallNoteShare * typical.height && Double(box.width) < smallNoteShare * typical.width
    }

    /// See `isSmallNote`: candidates are pencilled a third of a cell tall, a cell's digit
    /// about half to two thirds of it.
    public static let smallNoteShare = 0.65
    /// See `isSmallNote`: ink narrower than this share of its height is a 1.
    public static let slenderShare = 0.45

    /// `cut`'s box grown by the components of `faint` (the cell thresholded lower, inside
    /// `cell`'s margin) that its ink in `binary` lies in: the whole glyph a pale digit's
    /// piece belongs to. Faint ink beside the piece, touching it nowhere (a neighbouring
    /// note, a ruling remnant), is not part of it.
    static func wholeGlyph(of cut: InkCrop, binary: BinaryImage, faint: BinaryImage, cell: PixelBox) -> PixelBox {
        let map = ComponentMap(faint, region: inner(cell))
        let box = cut.box, area = map.region
        var labels = Set<Int32>()
        for y in max(box.y, area.y)..<min(box.maxY, area.maxY) {
            for x in max(box.x, area.x)..<min(box.maxX, area.maxX)
            where cut.ink[(y - box.y) * box.width + x - box.x] > 0 && binary.bits[y * binary.width + x] != 0 {
                let label = map.labels[(y - area.y) * area.width + x - area.x]
                if label > 0 { labels.insert(label) }
            }
        }
        return map.components.reduce(box) { glyph, c in labels.contains(c.label) ? glyph.union(c.box) : glyph }
    }
}
