import DigitClassifier
import DocumentImaging
import Foundation
import ImagingCore

/// Which quarter turn puts a photo upright, decided from the glyphs its reading has
/// already cut: the glyph-turn model (`GlyphTurnClassifier`) says of each sampled crop
/// how likely it shows each quarter turn, and the photo takes the turn under which its
/// crops are jointly likeliest. No region is laid out again to decide.
///
/// A grid's cells are the same in every turn, so its crops serve as cut. A field's or
/// a page's glyphs are grouped into lines, and lines stood on end group wrongly (the
/// digits of a sideways field fall into one crop), so those regions are also cut once
/// more with their image turned a quarter; a half turn groups like no turn, so two cuts
/// cover all four.
enum OrientationVote {
    /// At most this many crops of each cut are asked (evenly spaced through the reading).
    static let sampleSize = 32

    /// How much likelier, as a natural logarithm, the best turn must make the crops than
    /// the photo as read: e³ ≈ 20 to 1.
    static let decisiveLogOdds = 3.0

    /// For turns t = 0…3 (clockwise quarter turns that would make the photo as read
    /// upright), the sampled crops' summed evidence for t (`GlyphTurnClassifier
    /// .turnEvidence`: the log-probability of the turn each crop then shows). nil when
    /// the reading cut no crop.
    static func evidence(of regions: [ReadRegion], segmenter: DigitSegmenter, model: GlyphTurnClassifier) -> [Double]? {
        votes(of: regions, segmenter: segmenter, model: model)?.total
    }

    /// `evidence` with the crops asked: each with the frame it was cut in (the clockwise
    /// quarter turns its image lies from the photo as read: 1 for a field's glyphs cut
    /// turned a quarter, a tick comb's turn upright for its cells) and its own evidence for
    /// turns 0…3 of that frame.
    static func votes(of regions: [ReadRegion], segmenter: DigitSegmenter, model: GlyphTurnClassifier)
        -> (total: [Double], crops: [(input: DigitInput, frame: Int, evidence: [Double])])? {
        // crops cut from the image as read (frame 0), turned a quarter (frame 1), and the
        // cells of grids laid out turned (`LaidOutRegion.turnedFromPhoto`)
        var asRead: [InkCrop] = [], quarter: [InkCrop] = []
        var turnedCells: [[InkCrop]] = [[], [], []]   // frames 1…3
        for region in regions {
            switch region.region.kind {
            case .grid where region.region.turnedFromPhoto != 0:
                turnedCells[region.region.turnedFromPhoto - 1] += region.pieces.compactMap(\.crop)
            case .grid:    // cells are cells in every turn
                asRead += region.pieces.compactMap(\.crop)
            case .field:   // as read, its glyphs were cut just as they are cut turned
                asRead += region.pieces.compactMap(\.crop)
                quarter += glyphs(of: region.region, turned: [1], segmenter: segmenter)[0]
            case .page:    // both cuts from the same halved copy: ink one cut keeps and the
                           // other drops (a shadow's edge) would otherwise vote one way
                let cuts = glyphs(of: region.region, turned: [0, 1], segmenter: segmenter)
                asRead += cuts[0]
                quarter += cuts[1]
            }
        }
        // only the sampled crops are made into the model's input
        let frames = [sample(asRead), sample(quarter + turnedCells[0]), sample(turnedCells[1]), sample(turnedCells[2])]
            .map { $0.map(\.modelInput) }
        guard frames.contains(where: { !$0.isEmpty }) else { return nil }
        let logp = model.turnEvidence(frames.flatMap { $0 })
        var total = [Double](repeating: 0, count: 4), start = 0
        var asked: [(input: DigitInput, frame: Int, evidence: [Double])] = []
        for (frame, crops) in frames.enumerated() {
            for (input, p) in zip(crops, logp[start..<(start + crops.count)]) {
                // a glyph in an image turned `frame` quarters shows turn (frame − t) when
                // the photo needs t quarter turns
                for t in 0..<4 { total[t] += p[(frame - t + 8) % 4] }
                asked.append((input, frame, p))
            }
            start += crops.count
        }
        return (total, asked)
    }

    /// The quarter turn (0…3, clockwise) that puts the photo upright: the likeliest
    /// under `evidence`, when it beats the photo as read by `decisiveLogOdds`; else 0.
    static func turn(from evidence: [Double]?) -> Int {
        guard let evidence, let best = (1...3).max(by: { evidence[$0] < evidence[$1] }),
              evidence[best] >= evidence[0] + decisiveLogOdds else { return 0 }
        return best
    }

    /// The glyphs cut from a field's or page's image turned each of `turns` quarter turns
    /// clockwise (a page from its halved copy). The ink is the region's own (a field's)
    /// or found once on the halved copy (a page's), and turned with the image, so every
    /// turn is cut from the same ink.
    static func glyphs(of region: LaidOutRegion, turned turns: [Int], segmenter: DigitSegmenter) -> [[InkCrop]] {
        // a page is the whole working image: halved, it still shows its glyphs
        let source = region.kind == .page ? region.gray.reduced(by: 2) : region.gray
        let ink = region.kind == .page ? Layout.pageInk(of: source) : region.binary
        return turns.map { t in
            let (gray, binary) = (source.rotated(quarterTurns: t), ink.rotated(quarterTurns: t))
            let inner = Layout.readableArea(width: gray.width, height: gray.height, wholePage: region.kind == .page)
            guard inner.width > 4, inner.height > 4 else { return [] }
            return segmenter.fieldDigits(gray: gray, binary: binary, region: inner, photoEdge: region.kind == .page)
        }
    }

    /// The clockwise quarter turns (0…3) that bring the documents of a reading nearest to
    /// level in the photo, when the regions that read a digit lie as one document's do:
    /// each region's top side (its quad's, corners ordered by `RegionTurn` when it turned
    /// one; the outline reported only moves sides in a little, at the cost of thresholding
    /// the region again) within `RegionTurn.squareTolerance` of their mean direction
    /// (perspective bends one sheet's boxes apart by that much). The mean is taken to the
    /// nearest quarter turn. 0 when none read a digit, when they point different ways, or
    /// when the mean lies within `levelTolerance` of a diagonal (which quarter turn is
    /// nearer is then within what a region's sides are measured to).
    /// A photo whose documents all had to be turned on their own was read the wrong way up;
    /// one whose documents lie near a diagonal was read level by a turn either way, and is
    /// turned to the nearer one.
    static func uprightTurn(of regions: [ReadRegion]) -> Int {
        let tops = regions.filter { $0.region.kind != .page && $0.readsDigit }.map { region -> Double in
            let q = region.region.quad
            return atan2(q.topRight.y - q.topLeft.y, q.topRight.x - q.topLeft.x)
        }
        guard !tops.isEmpty else { return 0 }
        let mean = atan2(tops.reduce(0) { $0 + sin($1) }, tops.reduce(0) { $0 + cos($1) })
        let apart = { (a: Double, b: Double) in abs(remainder(a - b, 2 * Double.pi)) * 180 / .pi }
        guard tops.allSatisfy({ apart($0, mean) <= RegionTurn.squareTolerance }) else { return 0 }
        let quarters = mean / (Double.pi / 2)
        let k = quarters.rounded()
        guard abs(quarters - k) * 90 <= 45 - levelTolerance else { return 0 }
        // the documents' top points k quarter turns clockwise of the photo's x axis
        return (4 - ((Int(k) % 4) + 4) % 4) % 4
    }

    /// Degrees either side of a diagonal within which the documents' top side tells no
    /// nearer quarter turn (`uprightTurn`): how far a found region's top side lies from
    /// the document's (corpus seed 1, `--orientation auto`: 95 % of regions found within
    /// 0.4°, 99 % within 1.4°).
    static let levelTolerance = 1.5

    /// Up to `sampleSize` of `inputs`, evenly spaced.
    static func sample<T>(_ inputs: [T]) -> [T] {
        let step = max(1, inputs.count / sampleSize)
        return Array(stride(from: 0, to: inputs.count, by: step).prefix(sampleSize).map { inputs[$0] })
    }
}
