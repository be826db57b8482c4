import DigitClassifier
import DocumentImaging
import Foundation
import ImagingCore

/// A document lying more than 45° from upright in an upright photo is straightened on its
/// side or upside down: its quad's corners are ordered by where they lie in the photo, not
/// by the document. Its glyphs then read as rejects or unsure. A region whose reading is
/// mostly unsure is asked again with its crops turned a quarter, a half and three quarters
/// (one classifier batch); when one turn reads them as sure digits far likelier than the
/// region as read, the region is turned and read again. The photo's own orientation is
/// left as it is: the region's corners are reordered, the document's top-left first.
enum RegionTurn {
    /// A region is asked again when fewer than this share of its crops read as digits of
    /// at least `sureDigit` (an upright region reads nearly all of them so), or when its
    /// crops' `meanEvidence` is under `unsureEvidence` (turned, a 0, 1, 6, 8 or 9 — and
    /// on its side a 1, a 5 or a 7 — may still read as a sure digit).
    static let unsureShare = 0.7
    /// See `unsureShare`: the crops' likeliest digits are under e⁻¹ ≈ 37 % likely, as a
    /// geometric mean.
    static let unsureEvidence = -1.0
    /// See `unsureShare`.
    static let sureDigit: Float = 0.9
    /// A turn is taken when its crops' likeliest digits are this much likelier, as a
    /// natural logarithm averaged over the crops (e ≈ 2.7 to 1 each), than as read —
    /// or when the share of them read as sure digits is `decisiveShare` higher (a field
    /// stood on end is cut into fewer crops, one unsure digit for a whole line).
    static let decisiveLogOdds = 1.0
    /// See `decisiveLogOdds`.
    static let decisiveShare = 0.5
    /// Under the turn taken, at least this share of the crops must read as sure digits.
    static let turnedSureShare = 0.5
    /// A region is turned only on the word of at least this many crops under the turn,
    /// one of them a sure digit that tells the turn (`telling`): any one blot looks like
    /// some digit when turned, and a frame's edge turned is a row of 1s.
    static let fewestCrops = 2

    /// At most this many crops of a region are asked under each turn (evenly spaced).
    static let sampleSize = 8

    /// For each region, the clockwise quarter turns (0…3) that put it upright. A grid's
    /// cells are the same cells in every turn, so its crops are turned; a field's glyphs
    /// are grouped into lines, and a line stood on end groups wrongly (its digits fall
    /// into one crop), so a field is also cut again from its image turned a quarter — a
    /// half turn groups as none does, so two cuts cover the three turns.
    static func turns(of regions: [ReadRegion], segmenter: DigitSegmenter, classifier: DigitClassifier) -> [Int] {
        // per region asked, the crops under turns 1…3 and where they start in the batch
        var asked: [(region: Int, counts: [Int], first: Int)] = []
        var inputs: [DigitInput] = []
        for (r, region) in regions.enumerated() where region.region.kind != .page && region.region.tiles == nil {
            let read = region.pieces.filter { $0.crop != nil && $0.prediction != nil }
            let asRead = read.map { $0.prediction! }
            guard !read.isEmpty, sureShare(asRead) < unsureShare || meanEvidence(asRead) < unsureEvidence else { continue }
            let crops = sample(read.map { $0.crop! })
            let quarter = region.region.kind == .grid ? crops
                : sample(OrientationVote.glyphs(of: region.region, turned: [1], segmenter: segmenter)[0])
            // turn t: the crops as cut (a grid's, or a field's cut a quarter turned) turned
            let cuts = [quarter.map { $0.turnedInk(quarterTurns: region.region.kind == .grid ? 1 : 0) },
                        crops.map { $0.turnedInk(quarterTurns: 2) },
                        quarter.map { $0.turnedInk(quarterTurns: region.region.kind == .grid ? 3 : 2) }]
            asked.append((r, cuts.map(\.count), inputs.count))
            inputs += cuts.joined().map { DigitInput.normalized(ink: $0.ink, width: $0.width, height: $0.height) }
        }
        var turns = [Int](repeating: 0, count: regions.count)
        guard !inputs.isEmpty else { return turns }
        // without the second look: the turn is only chosen here; the region is read again
        let predictions = classifier.classify(inputs, secondLookBelow: 0)
        for a in asked {
            let asRead = regions[a.region].pieces.compactMap(\.prediction)
            let (evidence, share) = (meanEvidence(asRead), sureShare(asRead))
            var best: (turn: Int, evidence: Double)?, start = a.first
            for t in 1...3 {
                let turned = Array(predictions[start..<(start + a.counts[t - 1])])
                start += turned.count
                let e = meanEvidence(turned)
                guard turned.count >= fewestCrops, telling(turned, turn: t) >= 1, sureShare(turned) >= turnedSureShare,
                      e >= evidence + decisiveLogOdds || sureShare(turned) >= share + decisiveShare else { continue }
                if best == nil || e > best!.evidence { best = (t, e) }
            }
            turns[a.region] = best?.turn ?? 0
        }
        return turns
    }

    /// Up to `sampleSize` of `crops`, evenly spaced.
    static func sample(_ crops: [InkCrop]) -> [InkCrop] {
        let step = max(1, (crops.count + sampleSize - 1) / sampleSize)
        return Array(stride(from: 0, to: crops.count, by: step).map { crops[$0] })
    }

    /// How many of `predictions` are sure digits that tell turn `turn` from none: a 1 is
    /// a bar in any turn that stands it up (a frame's or a shadow's edge turned reads as
    /// 1s), and a 0, 1, 6, 8 or 9 reads as a digit upside down too.
    static func telling(_ predictions: [DigitPrediction], turn: Int) -> Int {
        let untelling: Set<Int> = turn == 2 ? [0, 1, 6, 8, 9] : [1]
        return predictions.filter { !$0.isRejected && $0.confidence >= sureDigit && !untelling.contains($0.label) }.count
    }

    /// The share of `predictions` that are digits of at least `sureDigit`.
    static func sureShare(_ predictions: [DigitPrediction]) -> Double {
        Double(predictions.filter { !$0.isRejected && $0.confidence >= sureDigit }.count) / Double(max(1, predictions.count))
    }

    /// The mean log-probability of each crop's likeliest digit (a reject counts by the
    /// digit it comes closest to): turns cut a field into different numbers of crops.
    static func meanEvidence(_ predictions: [DigitPrediction]) -> Double {
        predictions.reduce(0) { $0 + log(max(1e-6, Double($1.bestDigit.probability))) } / Double(max(1, predictions.count))
    }

    /// `region` turned `quarterTurns` clockwise: its image, its quad's corners (the new
    /// top-left is the corner the turn brings there), its ruling and its edges.
    static func turned(_ region: LaidOutRegion, quarterTurns: Int) -> LaidOutRegion {
        var gray = region.gray, binary = region.binary
        var corners = region.quad.corners, ruling = region.ruling, edges = region.edgesMaybePastFrame
        var bend = region.bend
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
            let h = Double(gray.height)
            // clockwise: (x, y) goes to (h − y, x)
            ruling = ruling.map { Ruling(rows: $0.columns, columns: $0.rows.map { h - $0 }.reversed()) }
            bend = bend?.turnedClockwise(height: gray.height)
            corners = [corners[3], corners[0], corners[1], corners[2]]
            edges = Set(edges.map { edge -> LaidOutRegion.Edge in
                switch edge { case .top: .right; case .right: .bottom; case .bottom: .left; case .left: .top }
            })
            gray = gray.rotated(quarterTurns: 1)
            binary = binary.rotated(quarterTurns: 1)
        }
        var turned = LaidOutRegion(kind: region.kind,
                                   quad: Quadrilateral(topLeft: corners[0], topRight: corners[1],
                                                       bottomRight: corners[2], bottomLeft: corners[3]),
                                   gray: gray, binary: binary, ruling: ruling, hasDrawnFrame: region.hasDrawnFrame)
        turned.edgesMaybePastFrame = edges
        turned.bend = bend
        return turned
    }
}
