import DigitClassifier
import DocumentImaging

/// A pen pressed lightly, or a blurred photo of it, leaves strokes the region's threshold
/// breaks into pieces, and the model rejects a digit's pieces (a field of them can pass
/// for a line of words). Where a reading holds a rejected piece, the region is cut again
/// from its faint ink (the same local means, or the same cells' levels, at half the
/// contrast: `Layout.inkLevels`, `Layout.cellInks`), where such strokes are whole:
/// - a field is read again whole, and that reading replaces it when every piece of it
///   reads as a digit and it reads more digits (`prefersFaint`): words, a label or a
///   shadow's band cut from the faint ink still leave a piece the model rejects;
/// - a grid's cell whose one piece is rejected, or read as a digit the model doubts
///   (`doubtedBelow`), is cut again, and read as the digit the model is sure of there
///   (`cellConfidence`). Cells read empty are not asked: faint ink alone in an empty
///   cell is as often the back's print showing through. A comb's place read empty
///   between places read as digits is the exception (`gapsBetweenDigits`): a number
///   fills a comb's places without gaps.
enum FaintInkReading {
    /// The least probability of the digit a cell's faint ink is read as: the bar a
    /// second cut must clear (`TouchingDigits.partConfidence`), a smudge's faint ink
    /// read as a doubtful digit stays rejected.
    static let cellConfidence = TouchingDigits.partConfidence
    /// A digit read under this probability is doubted (a cell's faint ink is asked, a
    /// piece is cut again grown, `GrownPieceReading`): the classifier's own bar for a
    /// second look (`DigitClassifier.secondLookBelow`).
    static let doubtedBelow = DigitClassifier.secondLookBelow

    /// True when a piece is rejected or read as a doubted digit.
    static func isDoubted(_ piece: ReadRegion.Piece) -> Bool {
        guard let p = piece.prediction else { return false }
        return p.isRejected || p.confidence < doubtedBelow
    }

    /// How many pieces each cell of a grid read with `columns` columns holds (row-major
    /// cell index): a table's number of several pieces is left as read.
    static func piecesPerCell(_ pieces: [ReadRegion.Piece], columns: Int) -> [Int: Int] {
        var inCell: [Int: Int] = [:]
        for piece in pieces {
            if let row = piece.row, let col = piece.col { inCell[row * columns + col, default: 0] += 1 }
        }
        return inCell
    }

    /// `pieces` (per region, with predictions) with the fields `prefersFaint` picks read
    /// from their faint ink and the rejected or doubted cells whose faint ink reads a sure
    /// digit read so: one classifier batch for all of them.
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion],
                        segmenter: DigitSegmenter, classifier: DigitClassifier) -> [[ReadRegion.Piece]] {
        var fields: [(region: Int, crops: [InkCrop], first: Int)] = []
        var cells: [(region: Int, piece: Int, crop: InkCrop, input: Int)] = []
        var inputs: [DigitInput] = []
        for (r, region) in regions.enumerated() {
            guard let faint = region.faint else { continue }
            if region.kind == .field, pieces[r].contains(where: { $0.prediction?.isRejected == true }) {
                let crops = segmenter.fieldDigits(gray: region.gray, binary: faint, region: Layout.readableArea(of: region),
                                                  paperEdge: region.isFlatPaper)
                // no more pieces than digits read already: it cannot read more (`prefersFaint`)
                let digits = pieces[r].filter { $0.prediction.map { !$0.isRejected } ?? false }.count
                guard crops.count > digits else { continue }
                fields.append((r, crops, inputs.count))
                inputs += crops.map(\.modelInput)
            } else if region.kind == .grid, let ruling = region.ruling {
                let inCell = piecesPerCell(pieces[r], columns: ruling.columnCount)
                let gaps = Set(gapsBetweenDigits(pieces[r], ruling: ruling))
                for (i, piece) in pieces[r].enumerated() where isDoubted(piece) || gaps.contains(i) {
                    guard let row = piece.row, let col = piece.col, inCell[row * ruling.columnCount + col] == 1,
                          let crop = segmenter.cellDigit(gray: region.gray, binary: faint,
                                                         cell: region.gray.cellBox(ruling, row, col)) else { continue }
                    cells.append((r, i, crop, inputs.count))
                    inputs.append(crop.modelInput)
                }
            }
        }
        guard !inputs.isEmpty else { return pieces }
        let predictions = classifier.classify(inputs)
        var result = pieces
        for field in fields {
            let faint = Array(predictions[field.first..<(field.first + field.crops.count)])
            guard prefersFaint(faint, over: pieces[field.region].compactMap(\.prediction)) else { continue }
            result[field.region] = zip(field.crops, faint).map { crop, prediction in
                ReadRegion.Piece(crop: crop, row: nil, col: nil, input: nil, prediction: prediction)
            }
        }
        for cell in cells {
            let prediction = predictions[cell.input]
            guard !prediction.isRejected, prediction.confidence >= cellConfidence else { continue }
            let old = pieces[cell.region][cell.piece]
            result[cell.region][cell.piece] = ReadRegion.Piece(crop: cell.crop, row: old.row, col: old.col, input: nil,
                                                               prediction: prediction)
        }
        return result
    }

    /// In a comb (a grid of one row or one column), the indices of `pieces` that are cells
    /// read empty with cells read as digits on both sides: a number is written into a
    /// comb's places without gaps, so such a place holds a digit its threshold lost (a pen
    /// pressed lightly), and it is asked of its faint ink as a doubted cell is.
    static func gapsBetweenDigits(_ pieces: [ReadRegion.Piece], ruling: Ruling) -> [Int] {
        guard ruling.rowCount == 1 || ruling.columnCount == 1 else { return [] }
        let place = { (p: ReadRegion.Piece) in ruling.rowCount == 1 ? p.col : p.row }
        let digits = pieces.compactMap { p -> Int? in
            guard let prediction = p.prediction, !prediction.isRejected else { return nil }
            return place(p)
        }
        guard let first = digits.min(), let last = digits.max() else { return [] }
        return pieces.indices.filter { i in
            guard pieces[i].crop == nil, let k = place(pieces[i]) else { return false }
            return k > first && k < last
        }
    }

    /// True when the faint ink's reading of a field rejects no piece and reads more digits
    /// than the field as read.
    static func prefersFaint(_ faint: [DigitPrediction], over read: [DigitPrediction]) -> Bool {
        !faint.contains(where: \.isRejected)
            && faint.count > read.filter { !$0.isRejected }.count
    }
}
