import DigitClassifier
import DocumentImaging
import ImagingCore

/// Which quarter turn makes a reading's glyphs look most like digits, decided from the
/// regions already laid out instead of laying the photo out again in every turn: a
/// grid's cells do not change with the turn, so their crops are turned in place
/// (`DigitInput.rotated`); a field's or page's glyphs are cut again from its own image
/// turned (lines of digits group differently on their side). One classifier batch.
enum OrientationVote {
    /// At most this many crops per turn are classified (evenly spaced through the reading).
    static let sampleSize = 24

    /// For turns 0…3 (clockwise quarter turns of the photo as read), the mean confidence
    /// of the sampled crops' likeliest digits. Only grid cells count when there are grids
    /// (the print around a puzzle is letters). nil when no turn has a crop.
    static func scores(of regions: [ReadRegion], segmenter: DigitSegmenter, classifier: DigitClassifier) -> [Double]? {
        var perTurn: [[DigitInput]] = [[], [], [], []]
        for region in judging(regions) {
            let inputs = region.pieces.compactMap { piece in
                piece.crop.map { DigitInput.normalized(ink: $0.ink, width: $0.box.width, height: $0.box.height) }
            }
            switch region.region.kind {
            case .grid:
                for t in 0..<4 { perTurn[t] += inputs.map { $0.rotated(quarterTurns: t) } }
            case .field:   // as read, its crops; turned, its glyphs cut again
                perTurn[0] += inputs
                for t in 1..<4 { perTurn[t] += glyphs(of: region.region, turned: t, segmenter: segmenter) }
            case .page:    // every turn cut from the same halved copy
                for t in 0..<4 { perTurn[t] += glyphs(of: region.region, turned: t, segmenter: segmenter) }
            }
        }
        let samples = perTurn.map(sample)
        guard samples.contains(where: { !$0.isEmpty }) else { return nil }
        let predictions = classifier.classify(samples.flatMap { $0 })
        var scores: [Double] = [], start = 0
        for s in samples {
            scores.append(meanConfidence(predictions[start..<(start + s.count)]))
            start += s.count
        }
        return scores
    }

    /// The inputs cut from a field's or page's image turned `t` quarter turns clockwise.
    static func glyphs(of region: LaidOutRegion, turned t: Int, segmenter: DigitSegmenter) -> [DigitInput] {
        // a page is the whole working image: halved, it still shows its glyphs
        let source = region.kind == .page ? region.gray.reduced(by: 2) : region.gray
        let gray = source.rotated(quarterTurns: t)
        let binary = t == 0 && region.kind != .page ? region.binary : Layout.ink(of: gray)
        let inner = Layout.readableArea(width: gray.width, height: gray.height, wholePage: region.kind == .page)
        guard inner.width > 4, inner.height > 4 else { return [] }
        return segmenter.fieldDigits(gray: gray, binary: binary, region: inner).map {
            DigitInput.normalized(ink: $0.ink, width: $0.box.width, height: $0.box.height)
        }
    }

    /// The regions whose crops judge a turn: the grids when there are any (the print
    /// around a puzzle is letters, in every turn), else all.
    static func judging(_ regions: [ReadRegion]) -> [ReadRegion] {
        let grids = regions.filter { $0.region.kind == .grid }
        return grids.isEmpty ? regions : grids
    }

    /// Up to `sampleSize` inputs, evenly spaced.
    static func sample(_ inputs: [DigitInput]) -> [DigitInput] {
        let step = max(1, inputs.count / sampleSize)
        return Array(stride(from: 0, to: inputs.count, by: step).prefix(sampleSize).map { inputs[$0] })
    }

    /// The mean probability of each prediction's likeliest digit (0 for none): a
    /// continuous score, so that a few crops still separate the turns.
    static func meanConfidence(_ predictions: ArraySlice<DigitPrediction>) -> Double {
        guard !predictions.isEmpty else { return 0 }
        return predictions.reduce(0.0) { $0 + Double($1.bestDigit.probability) } / Double(predictions.count)
    }
}
