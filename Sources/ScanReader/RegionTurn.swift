import DigitClassifier
import DocumentImaging
import Foundation
import ImagingCore

/// A document lying more than 45° from upright in an upright photo is straightened on its
/// side or upside down: its quad's corners are ordered by where they lie in the photo, not
/// by the document. Each region's glyphs are asked of the glyph-turn model
/// (`GlyphTurnClassifier`) which quarter turn they show; regions that lie square to each
/// other (one document's fields, or a note on its sheet) share their evidence, each in its
/// own frame; a region whose evidence, so pooled, makes a turn decisively likelier than as
/// read is turned and read again. The photo's own orientation is left as it is: the
/// region's corners are reordered, the document's top-left first.
enum RegionTurn {
    /// At most this many crops of each region's cut are asked (evenly spaced).
    static let sampleSize = 16
    /// How much likelier, as a natural logarithm, a turn must make the pooled crops than
    /// the region as read: e³ ≈ 20 to 1, as for a whole photo (`OrientationVote`).
    static let decisiveLogOdds = 3.0
    /// Two regions are taken for one document's, and pool their evidence, when their
    /// frames' angles differ by a multiple of a quarter turn give or take this many
    /// degrees (perspective bends the sides of one sheet's boxes by a few degrees; notes
    /// dropped on a desk lie at any angle).
    static let squareTolerance = 12.0

    /// For each region, the clockwise quarter turns (0…3) that put it upright. A grid's
    /// cells are the same cells in every turn, so its crops are asked as cut; a field's or
    /// a page's glyphs are grouped into lines, and a line stood on end groups wrongly (its
    /// digits fall into one crop), so it is also cut again from its image turned a quarter
    /// — a half turn groups as none does, so two cuts cover the four turns. A page (the
    /// whole photo read where no outline was found) is turned as a document is: in the
    /// default orientation mode, digits written on a sheet photographed on its side read
    /// upright without turning the photo.
    /// Each turn comes with whether it was taken on a mere lean (`choose`).
    static func turns(of regions: [ReadRegion], segmenter: DigitSegmenter, model: GlyphTurnClassifier)
        -> [(turn: Int, onLean: Bool)] {
        choose(evidence: regions.map { Self.evidence(of: $0, segmenter: segmenter, model: model) },
               frameAngles: regions.map { frameAngle($0.region.quad) },
               cutNothing: regions.map(cutNothing))
    }

    /// The turn each region takes from its glyphs' `evidence` for turns 0…3 (nil: it cut
    /// none, and is left as it is) pooled with that of the regions square to it (their
    /// `frameAngles` in degrees, `quarterTurns(from:to:)`): the likeliest turn, when it
    /// beats the region as read by `decisiveLogOdds`; else 0.
    ///
    /// A field or page that `cutNothing` as read (its glyphs, if any, only in the cut a
    /// quarter turned: a lone 1 lying across a note is a bar no upright cut takes) reads
    /// nothing upright or upside down, so it loses no reading by turning: the likelier
    /// quarter turn is taken when the pooled evidence favours it over the region as read
    /// at all; `confirmed` then asks more of what the turn reads. Each turn comes with
    /// whether it was taken on such a lean, short of `decisiveLogOdds`.
    static func choose(evidence: [[Double]?], frameAngles: [Double], cutNothing: [Bool]? = nil)
        -> [(turn: Int, onLean: Bool)] {
        evidence.indices.map { r in
            guard evidence[r] != nil else { return (0, false) }
            var pooled = [Double](repeating: 0, count: 4)
            for s in evidence.indices {
                guard let e = evidence[s], let k = quarterTurns(from: frameAngles[r], to: frameAngles[s]) else { continue }
                // s's frame lies k quarter turns clockwise of r's: when r needs t, s needs t + k
                for t in 0..<4 { pooled[t] += e[(t + k) % 4] }
            }
            let onItsSide = cutNothing?[r] ?? false
            guard let best = (onItsSide ? [1, 3] : [1, 2, 3]).max(by: { pooled[$0] < pooled[$1] }) else { return (0, false) }
            if pooled[best] >= pooled[0] + decisiveLogOdds { return (best, false) }
            return onItsSide && pooled[best] > pooled[0] ? (best, true) : (0, false)
        }
    }

    /// A region's glyphs' summed evidence for turns t = 0…3 (the clockwise quarter turns
    /// that would make it upright), nil when it is a grid of tiles or cut nothing.
    static func evidence(of region: ReadRegion, segmenter: DigitSegmenter, model: GlyphTurnClassifier) -> [Double]? {
        guard region.region.tiles == nil else { return nil }
        let asCut = sample(region.pieces.compactMap(\.crop))
        guard !asCut.isEmpty || region.region.kind != .grid else { return nil }
        // a field that cut nothing as read may hold a line on its side of digits that lie
        // across it as bars spanning it (a run of 1s): cut a quarter turned, they are glyphs
        let quarter = region.region.kind != .grid
            ? sample(OrientationVote.glyphs(of: region.region, turned: [1], segmenter: segmenter)[0]) : []
        guard !asCut.isEmpty || !quarter.isEmpty else { return nil }
        let logp = model.turnEvidence((asCut + quarter).map(\.modelInput))
        var total = [Double](repeating: 0, count: 4)
        for (n, p) in logp.enumerated() {
            // a glyph cut from the image turned `frame` quarters shows turn (frame − t)
            // when the region needs t
            let frame = n < asCut.count ? 0 : 1
            for t in 0..<4 { total[t] += p[(frame - t + 8) % 4] }
        }
        return total
    }

    /// The digit classifier's word on a turn of `quarterTurns` the glyph-turn model
    /// chose: of the region's pieces read turned, no smaller a share are sure digits that
    /// tell the turn (`telling`) than as read. A blur of unreadable blots that only seemed
    /// to lean one way reads no better turned; a frame's edge read as 1s tells nothing.
    /// A turn taken `onLean` (a region that cut nothing as read, `choose`) is kept only
    /// when every piece it reads is a digit read sure (`ReadRegion.readsSure`): the
    /// letters of a word cut by a sheet's edge read as unsure digits or none.
    static func confirmed(_ turned: ReadRegion, over asRead: ReadRegion, quarterTurns: Int, onLean: Bool = false) -> Bool {
        if onLean {
            let read = turned.pieces.compactMap(\.prediction)
            return !read.isEmpty && read.allSatisfy(ReadRegion.readsSure)
        }
        return tellingShare(turned, quarterTurns: quarterTurns) >= tellingShare(asRead, quarterTurns: quarterTurns)
    }

    /// Whether `region` is a field or page that cut no glyph as read (`choose`).
    static func cutNothing(_ region: ReadRegion) -> Bool {
        region.region.kind != .grid && !region.pieces.contains { $0.crop != nil }
    }

    /// The share of `region`'s pieces read as sure digits (at least `sureDigit`) that
    /// read as no digit, or as another, when turned `quarterTurns`: a 1 is a bar in
    /// either quarter turn, and a 0, 1, 6, 8 or 9 reads as a digit upside down too.
    static func tellingShare(_ region: ReadRegion, quarterTurns: Int) -> Double {
        let untelling: Set<Int> = quarterTurns % 2 == 0 ? [0, 1, 6, 8, 9] : [1]
        let read = region.pieces.compactMap(\.prediction)
        let telling = read.filter { !$0.isRejected && $0.confidence >= sureDigit && !untelling.contains($0.label) }
        return Double(telling.count) / Double(max(1, read.count))
    }

    /// A digit at least this likely is sure (`tellingShare`).
    static let sureDigit: Float = 0.9

    /// The direction of a quad's top side, in degrees clockwise from the photo's x axis.
    static func frameAngle(_ quad: Quadrilateral) -> Double {
        atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / .pi
    }

    /// How many quarter turns clockwise (0…3) a frame at `to` degrees lies from one at
    /// `from`, when the two are square to each other within `squareTolerance`; else nil.
    static func quarterTurns(from: Double, to: Double) -> Int? {
        let d = to - from
        let k = (d / 90).rounded()
        guard abs(d - 90 * k) <= squareTolerance else { return nil }
        return ((Int(k) % 4) + 4) % 4
    }

    /// Up to `sampleSize` of `crops`, evenly spaced.
    static func sample(_ crops: [InkCrop]) -> [InkCrop] {
        let step = max(1, (crops.count + sampleSize - 1) / sampleSize)
        return Array(stride(from: 0, to: crops.count, by: step).map { crops[$0] })
    }

    /// `region` turned `quarterTurns` clockwise: its image, its quad's corners (the new
    /// top-left is the corner the turn brings there), its ruling and its edges.
    static func turned(_ region: LaidOutRegion, quarterTurns: Int) -> LaidOutRegion {
        var gray = region.gray, binary = region.binary, faint = region.faint
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
            faint = faint?.rotated(quarterTurns: 1)
        }
        var turned = LaidOutRegion(kind: region.kind,
                                   quad: Quadrilateral(topLeft: corners[0], topRight: corners[1],
                                                       bottomRight: corners[2], bottomLeft: corners[3]),
                                   gray: gray, binary: binary, faint: faint, ruling: ruling,
                                   hasDrawnFrame: region.hasDrawnFrame)
        turned.edgesMaybePastFrame = edges
        turned.isFlatPaper = region.isFlatPaper
        turned.bend = bend
        return turned
    }
}
