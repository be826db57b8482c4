import DigitClassifier
import DocumentImaging

/// A pen pressed lightly, or a blurred photo of it, leaves strokes the field's threshold
/// breaks into pieces; the model rejects a digit's pieces, and a field of them can pass
/// for a line of words. A field whose reading holds a rejected piece is cut again from its
/// faint ink (the same local means at half the contrast, `Layout.inkLevels`), where such
/// strokes are whole, and that reading replaces it when every piece of it reads as a digit
/// and it reads more digits (`prefersFaint`). Words, a label or a shadow's band cut from
/// the faint ink still leave a piece the model rejects, and stay as read.
enum FaintFieldReading {
    /// `pieces` (per region, with predictions) with the fields `prefersFaint` picks read
    /// from their faint ink: one classifier batch for all of them.
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion],
                        segmenter: DigitSegmenter, classifier: DigitClassifier) -> [[ReadRegion.Piece]] {
        var candidates: [(region: Int, crops: [InkCrop], first: Int)] = []
        var inputs: [DigitInput] = []
        for (r, region) in regions.enumerated() where region.kind == .field {
            guard let faint = region.faint, pieces[r].contains(where: { $0.prediction?.isRejected == true }) else { continue }
            let crops = segmenter.fieldDigits(gray: region.gray, binary: faint, region: Layout.readableArea(of: region))
            guard !crops.isEmpty else { continue }
            candidates.append((r, crops, inputs.count))
            inputs += crops.map(\.modelInput)
        }
        guard !inputs.isEmpty else { return pieces }
        let predictions = classifier.classify(inputs)
        var result = pieces
        for candidate in candidates {
            let faint = Array(predictions[candidate.first..<(candidate.first + candidate.crops.count)])
            guard prefersFaint(faint, over: pieces[candidate.region].compactMap(\.prediction)) else { continue }
            result[candidate.region] = zip(candidate.crops, faint).map { crop, prediction in
                ReadRegion.Piece(crop: crop, row: nil, col: nil, input: nil, prediction: prediction)
            }
        }
        return result
    }

    /// True when the faint ink's reading rejects no piece and reads more digits than the
    /// field as read.
    static func prefersFaint(_ faint: [DigitPrediction], over read: [DigitPrediction]) -> Bool {
        !faint.contains(where: \.isRejected)
            && faint.count > read.filter { !$0.isRejected }.count
    }
}
