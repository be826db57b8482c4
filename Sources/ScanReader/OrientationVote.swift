import DigitClassifier

/// Which quarter turn makes a reading's glyphs look most like digits, decided from the
/// crops already cut: each is turned in place (`DigitInput.rotated`) and classified
/// again, one batch for the three other turns, instead of laying the photo out again
/// in every orientation.
enum OrientationVote {
    /// At most this many crops are turned and classified (evenly spaced through the
    /// reading): three turns of them cost one batch of 3 × this.
    static let sampleSize = 24
    /// For turns 0…3 (clockwise quarter turns of the photo as read), the mean
    /// confidence of the sampled crops' likeliest digits. Only grid cells count when
    /// there are grids (the print around a puzzle is letters). nil when the reading has
    /// no crop.
    static func scores(of regions: [ReadRegion], classifier: DigitClassifier) -> [Double]? {
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
        let upright = meanConfidence(ArraySlice(sample.map(\.prediction)))
        return [upright] + (0..<3).map { t in meanConfidence(predictions[(t * inputs.count)..<((t + 1) * inputs.count)]) }
    }

    /// The mean probability of each prediction's likeliest digit (0 for none): a
    /// continuous score, so that a few crops still separate the turns.
    static func meanConfidence(_ predictions: ArraySlice<DigitPrediction>) -> Double {
        guard !predictions.isEmpty else { return 0 }
        return predictions.reduce(0.0) { $0 + Double($1.bestDigit.probability) } / Double(predictions.count)
    }
}
