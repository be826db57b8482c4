import DigitClassifier
import DocumentImaging

/// A digit written with a pen that thinned, or blurred in the photo, keeps a dark core
/// the threshold finds, with soft edges and strokes that pale away from it: cut from its
/// ink alone (the model's input is the grey under the piece's pixels) it loses them, and
/// the model rejects or doubts it. Each such piece is cut again with lone pieces grown by
/// the faint ink they run into (`DigitSegmenter.growsLonePieces`; the faint ink of
/// `Layout.inkLevels`, `Layout.cellInks`), and the glyph it grew into takes its place when
/// the model is surer of it. A dark digit that a pencil mark touches grows into a shape
/// the model doubts more, and stays as cut.
///
/// Unlike `FaintInkReading`, which cuts a rejected field or doubted cell from the faint
/// ink alone, the glyph keeps the ink the threshold found and only gains the faint
/// strokes attached to it; a cell read empty is never asked.
enum GrownPieceReading {
    /// `pieces` (per region, with predictions) with each doubted piece
    /// (`FaintInkReading.isDoubted`: rejected, or under the second-look bar) whose glyph in the
    /// second cut (`secondCut`: the reader's segmenter's `growingLonePieces`) grew and is read surer
    /// replaced by that glyph: one classifier batch for all regions.
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion],
                        secondCut growing: DigitSegmenter, classifier: DigitClassifier) -> [[ReadRegion.Piece]] {
        var asked: [(region: Int, piece: Int, crop: InkCrop)] = []
        for (r, region) in regions.enumerated() {
            guard let faint = region.faint, pieces[r].contains(where: FaintInkReading.isDoubted) else { continue }
            if region.kind == .grid, let ruling = region.ruling {
                let inCell = FaintInkReading.piecesPerCell(pieces[r], columns: ruling.columnCount)
                // a doubted cell's one glyph (a table's number of several pieces is left as cut)
                for (i, piece) in pieces[r].enumerated() where FaintInkReading.isDoubted(piece) {
                    guard let row = piece.row, let col = piece.col, inCell[row * ruling.columnCount + col] == 1,
                          let box = piece.crop?.box,
                          let crop = growing.cellDigit(gray: region.gray, binary: region.binary, faint: faint,
                                                       cell: region.gray.cellBox(ruling, row, col)),
                          crop.box.strictlyContains(box) else { continue }
                    asked.append((r, i, crop))
                }
            } else {
                let grown = growing.fieldDigits(gray: region.gray, binary: region.binary, faint: faint,
                                                region: Layout.readableArea(of: region), photoEdge: region.kind == .page,
                                                paperEdge: region.isFlatPaper)
                let boxes = pieces[r].compactMap { $0.crop?.box }
                for (i, piece) in pieces[r].enumerated() where FaintInkReading.isDoubted(piece) {
                    guard let box = piece.crop?.box else { continue }
                    // the one glyph that grew from this piece alone
                    let from = grown.filter { $0.box.contains(box) }
                    guard from.count == 1, from[0].box.strictlyContains(box),
                          boxes.filter({ from[0].box.contains($0) }).count == 1 else { continue }
                    asked.append((r, i, from[0]))
                }
            }
        }
        guard !asked.isEmpty else { return pieces }
        let predictions = classifier.classify(asked.map(\.crop.modelInput))
        var result = pieces
        for (a, prediction) in zip(asked, predictions) {
            let old = pieces[a.region][a.piece]
            guard takes(prediction, over: old.prediction) else { continue }
            result[a.region][a.piece] = ReadRegion.Piece(crop: a.crop, row: old.row, col: old.col, input: nil,
                                                         prediction: prediction)
        }
        return result
    }

    /// True when the grown glyph's reading replaces the piece's: a digit, read surer than
    /// the piece (a rejected piece counts as read at no probability).
    static func takes(_ grown: DigitPrediction, over piece: DigitPrediction?) -> Bool {
        !grown.isRejected && grown.confidence > (piece.map { $0.isRejected ? 0 : $0.confidence } ?? 0)
    }
}
