import DigitClassifier

/// Which quarter turn makes a reading's glyphs look most like digits, decided from the
/// crops already cut: each is turned in place (`DigitInput.rotated`) and classified
/// again, one batch for the three other turns, instead of laying the photo out again
/// in every orientation.
enum OrientationVote {
    /// At most this many crops are turned and classified (evenly spaced through the
    /// reading): three turns of them cost one batch of 3 × this.
    static let sampleSize = 24
    /// A crop counts as a sure digit at this probability or more (as `sureShare`).
    static let sureProbability: Float = 0.98

    /// For turns 0…3 (clockwise quarter turns of the photo as read), the share of the
    /// sampled crops read as a digit with probability ≥ `sureProbability`. Only grid
    /// cells count when there are grids (the print around a puzzle is letters). nil
    /// when the reading has no crop.
    static func sureShares(of regions: [ReadRegion], classifier: DigitClassifier) -> [Double]? {
        let grids = regions.filter { $0.region.kind == .grid }
        var crops: [(crop: InkCrop, prediction: DigitPrediction)] = []
        for region in grids.isEmpty ? regions : grids {
            for piece in region.pieces {
                if let crop = piece.crop, let prediction = piece.prediction { crops.append((crop, prediction)) }
            }
        }
        guard !crops.isEmpty else { return nil }
        let step = max(1, crops.count / sampleSize)
        let sample = Array(stride(from: 0, to: crops.count, by: step).prefix(sampleSize).map { crops[$0] })
        let inputs: [DigitInput] = sample.map { s in
            DigitInput.normalized(ink: s.crop.ink, width: s.crop.box.width, height: s.crop.box.height)
        }
        var turned: [DigitInput] = []
        for t in 1...3 { turned += inputs.map { $0.rotated(quarterTurns: t) } }
        let predictions = classifier.classify(turned)
        func share(_ ps: ArraySlice<DigitPrediction>) -> Double {
            Double(ps.filter { !$0.isRejected && $0.confidence >= sureProbability }.count) / Double(ps.count)
        }
        let upright = share(ArraySlice(sample.map(\.prediction)))
        return [upright] + (0..<3).map { t in share(predictions[(t * inputs.count)..<((t + 1) * inputs.count)]) }
    }
}
