import DigitClassifier
import DocumentImaging

/// A 1 written with a flag, by a writer who crosses their 7s.
///
/// Where a 1 is written with a flag off its top, as much of Europe writes it, the 7 is
/// crossed with a bar through its stem so the two are not confused; a flagged 1 alone is
/// shaped like the uncrossed 7 most of the model's training 7s are, and the model splits
/// between the two (sudoku-donshel: its flagged 1s are read as 7 with 50–99 %, or as 1 with
/// under 60 %). The sure 7s of a region (one document: one writer) say which convention
/// it is written in: where one of them is crossed (`InkCrop.hasCrossBar`), a piece of it
/// the model doubts between 7 and 1 (each the other's runner-up among the digits, the
/// runner-up with at least `doubtShare`) and that has no cross bar is a 1, as sure as the
/// model is that it is one of the two; so is a grid cell's piece the model rejects that is
/// among the digits surely a 1 or a 7 (a flag joining the stem below its top makes the
/// shape of a ruling's T, one of the model's non-digits; `FlaggedOnes` reads those surely a
/// 1 in any grid). A 7 the model does not doubt (printed) is left as
/// read, and so is every piece of a region without a crossed 7: the evidence is not taken
/// from the photo's other documents, which other hands may have filled.
///
/// Runs after `SudokuRule`: a puzzle's own rule, where it decides a cell, outranks the
/// writer's convention (wichtounet-mixed's grids are filled by many hands, crossing 7s
/// or not cell by cell).
enum CrossedSevens {
    /// The runner-up's least share of the probability for the model to be in doubt between
    /// 7 and 1 (a printed 7 leaves the 1 a millionth).
    static let doubtShare: Float = 0.01

    /// `pieces` (per region, with predictions) with each doubted, uncrossed 7 or 1 read as
    /// 1 in the regions holding a sure, crossed 7; in a grid's cell, so is a piece the
    /// model rejects (a flag joining the stem below its top is shaped like a ruling's T)
    /// that among the digits alone is surely a 1 or a 7 (the two together at least
    /// `DigitClassifier.secondLookBelow`, each the other's runner-up) and is a digit's height
    /// for the grid (`digitHeight` of the typical height of the digits read surely, as
    /// `FlaggedOnes` takes it).
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion],
                        digitHeight: Double) -> [[ReadRegion.Piece]] {
        zip(regions, pieces).map { region, list in
            let crossesSevens = list.contains { piece in
                guard let crop = piece.crop, let p = piece.prediction, p.label == 7,
                      p.confidence >= DigitClassifier.secondLookBelow else { return false }
                return crop.hasCrossBar
            }
            guard crossesSevens else { return list }
            let typical = region.kind == .grid ? FlaggedOnes.typicalSureHeight(of: list) : nil
            return list.map { piece in
                guard let crop = piece.crop, let p = piece.prediction else { return piece }
                let one: DigitPrediction?
                if !p.isRejected {
                    one = oneOrSeven(p)
                } else if piece.row != nil, let typical, Double(crop.box.height) >= digitHeight * typical {
                    one = surelyOneOrSeven(p.amongDigits)
                } else {
                    one = nil
                }
                guard let one, !crop.hasCrossBar else { return piece }
                var read = piece
                read.prediction = one
                return read
            }
        }
    }

    /// Among the digits alone, the reading as 1 of a piece surely a 1 or a 7 (the two
    /// together at least `DigitClassifier.secondLookBelow`, each the other's runner-up).
    static func surelyOneOrSeven(_ digits: DigitPrediction) -> DigitPrediction? {
        guard isOneOrSeven(digits),
              digits.probabilities[1] + digits.probabilities[7] >= DigitClassifier.secondLookBelow else { return nil }
        return digits.merging(7, into: 1)
    }

    /// The reading as 1 of a prediction that doubts between 7 and 1 (the runner-up at least
    /// `doubtShare`), with the probability of both: nil when the model reads neither, or is
    /// sure of its choice. The merged 1 outweighs every other class, the 7 or 1 read having
    /// done so alone.
    static func oneOrSeven(_ p: DigitPrediction) -> DigitPrediction? {
        guard !p.isRejected, isOneOrSeven(p.amongDigits),
              p.probabilities[p.label == 1 ? 7 : 1] >= doubtShare else { return nil }
        return p.merging(7, into: 1)
    }

    /// True when the digits' likeliest two are 1 and 7, either way round.
    static func isOneOrSeven(_ digits: DigitPrediction) -> Bool {
        let order = (0..<10).sorted { digits.probabilities[$0] > digits.probabilities[$1] }
        return Set(order.prefix(2)) == [1, 7]
    }
}
