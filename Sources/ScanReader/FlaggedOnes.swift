import DigitClassifier
import DocumentImaging

/// A 1 written with a flag, as much of Europe writes it, that the model takes for no
/// digit. The model's non-digits include the fragments of ruling a cell's cut can leave —
/// corners and Ts of lines (`Models/digits-lenet.md`) — and a stroke with a flag off its
/// upper part is shaped like one. In a grid's cell the ruling has been stripped from the
/// cell's edges (`DigitSegmenter.cellContent`): a piece the model rejects there that is a
/// digit's height for the grid (`DigitSegmenter.minimumRelativeDigitHeight` of its typical
/// digit: `GlyphSize.typical` of the digits it reads surely) and that, among the digits
/// alone (`DigitPrediction.amongDigits`), is surely a 1 (`DigitClassifier.secondLookBelow`)
/// is read as that 1.
///
/// Only the 1: the other digits a cell's rejected piece favours are as often a solver's
/// pencilled digit beside the printed ones, which a puzzle reads empty (Kubiesa's grids
/// hold 100 rejected pieces, nearly all such pencilled digits; none favours 1).
enum FlaggedOnes {
    /// `pieces` (per region, with predictions) with each grid cell's rejected piece that
    /// is a flagged 1 read as 1.
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion],
                        digitHeight: Double) -> [[ReadRegion.Piece]] {
        var result = pieces
        for (r, region) in regions.enumerated() where region.kind == .grid {
            guard let typical = typicalSureHeight(of: pieces[r]) else { continue }
            for (i, piece) in pieces[r].enumerated() {
                guard piece.row != nil, let crop = piece.crop, let p = piece.prediction, p.isRejected,
                      Double(crop.box.height) >= digitHeight * typical else { continue }
                let digits = p.amongDigits
                if digits.label == 1, digits.confidence >= DigitClassifier.secondLookBelow {
                    result[r][i].prediction = digits
                }
            }
        }
        return result
    }

    /// The typical height (`GlyphSize.typical`) of the digits read surely (at least
    /// `DigitClassifier.secondLookBelow`) among `pieces`; nil when none is.
    static func typicalSureHeight(of pieces: [ReadRegion.Piece]) -> Double? {
        let sure = pieces.compactMap { piece -> PixelBox? in
            guard let crop = piece.crop, let p = piece.prediction, !p.isRejected,
                  p.confidence >= DigitClassifier.secondLookBelow else { return nil }
            return crop.box
        }
        return sure.isEmpty ? nil : GlyphSize.typical(of: sure).height
    }
}
