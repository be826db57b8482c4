@testable import DigitClassifier
@testable import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A digit whose strokes pale away from a dark core, cut from its core alone and doubted,
/// is read again grown by the faint ink attached to it (`GrownPieceReading`): the sample
/// form's digits with part of each faded, controls.
@Suite("A doubted piece read again grown by its pale strokes")
struct GrownPieceReadingTests {
    static var reader: DocumentReader { FaintInkReadingTests.reader }

    /// `region` with the part of the digit in `box` on `side` (0 top, 1 bottom, 2 left, 3
    /// right; `share` of the box that way) written `fade` times as dark against the paper,
    /// its ink and faint ink thresholded again as the layout does
    /// (`FaintInkReadingTests.lightened`).
    static func paling(_ region: LaidOutRegion, in box: PixelBox, side: Int, share: Double, fade: Double) -> LaidOutRegion {
        let cutY = box.y + Int(Double(box.height) * (side == 0 ? share : 1 - share))
        let cutX = box.x + Int(Double(box.width) * (side == 2 ? share : 1 - share))
        return FaintInkReadingTests.lightened(region, in: box) { x, y in
            let pale = side == 0 ? y < cutY : side == 1 ? y >= cutY : side == 2 ? x < cutX : x >= cutX
            return pale ? fade : nil
        }
    }

    /// The region segmented and classified as the reader does, then `GrownPieceReading`.
    static func read(_ region: LaidOutRegion, segmenter: DigitSegmenter? = nil)
        -> (before: [ReadRegion.Piece], after: [ReadRegion.Piece]) {
        let crops = reader.layout.segmenter.fieldDigits(gray: region.gray, binary: region.binary, faint: region.faint,
                                                        region: Layout.readableArea(of: region))
        let predictions = crops.isEmpty ? [] : reader.classifier.classify(crops.map(\.modelInput))
        let pieces = zip(crops, predictions).map { ReadRegion.Piece(crop: $0, row: nil, col: nil, input: nil, prediction: $1) }
        let after = GrownPieceReading.reading([pieces], of: [region],
                                              secondCut: segmenter ?? reader.layout.segmenter.growingLonePieces,
                                              classifier: reader.classifier)[0]
        return (pieces, after)
    }

    static func labels(_ pieces: [ReadRegion.Piece]) -> [Int] { pieces.compactMap { $0.prediction?.label } }

    /// Each of the first three digits of a sample field with a third, a half or two thirds
    /// of it, on each side in turn, paled to 0.17–0.23 of its contrast (about the ink
    /// threshold): the cases read before and after.
    static func sweep(segmenter: DigitSegmenter? = nil) throws -> [(truth: [Int], before: [ReadRegion.Piece], after: [ReadRegion.Piece])] {
        let field = try #require(FaintInkReadingTests.fields.first { $0.pieces.count >= 3 })
        let truth = FaintInkReadingTests.labels(field.pieces)
        var cases: [(truth: [Int], before: [ReadRegion.Piece], after: [ReadRegion.Piece])] = []
        for fade in [0.17, 0.19, 0.21, 0.23] {
            for share in [1.0 / 3.0, 0.5, 2.0 / 3.0] {
                for side in 0..<4 {
                    for digit in 0..<3 {
                        let box = try #require(field.pieces[digit].crop).box
                        let (before, after) = read(paling(field.region, in: box, side: side, share: share, fade: fade),
                                                   segmenter: segmenter)
                        cases.append((truth, before, after))
                    }
                }
            }
        }
        return cases
    }

    static func right(_ pieces: [ReadRegion.Piece], _ truth: [Int]) -> Int {
        zip(labels(pieces), truth).filter { $0 == $1 }.count
    }

    @Test("A digit cut from its dark part and doubted is read sure with the faint ink around it")
    func paleStrokesReadWithTheDigit() throws {
        let cases = try Self.sweep()
        var mended = 0
        for c in cases {
            // never worse than as read
            #expect(Self.right(c.after, c.truth) >= Self.right(c.before, c.truth))
            // a doubted piece now read as its digit, sure
            mended += zip(zip(c.before, c.after), c.truth).filter { pair, truth in
                FaintInkReading.isDoubted(pair.0) && !FaintInkReading.isDoubted(pair.1)
                    && pair.1.prediction?.label == truth
            }.count
        }
        // the sweep holds digits whose dark part alone is doubted (a 2 paled on one side
        // reads 0.72 cut from its dark part, 0.999 with the faint ink)
        #expect(mended >= 2, "\(mended) of \(cases.count) cases mended")
    }

    @Test("Control: with lone pieces not grown the second cut is the first, and nothing changes")
    func withoutGrowthNothingChanges() throws {
        var plain = Self.reader.layout.segmenter
        plain.growsLonePieces = false
        // the reader's own first cut grows nothing: only the second cut does
        #expect(!Self.reader.layout.segmenter.growsLonePieces)
        #expect(Self.reader.layout.segmenter.growingLonePieces.growsLonePieces)
        for c in try Self.sweep(segmenter: plain) {
            #expect(Self.labels(c.after) == Self.labels(c.before))
        }
    }

    @Test("Controls: a sure piece is never cut again; a grown glyph the model doubts more is not taken")
    func controls() throws {
        let field = try #require(FaintInkReadingTests.fields.first { $0.pieces.count >= 3 })
        // read sure already: nothing is asked
        let sure = GrownPieceReading.reading([field.pieces], of: [field.region],
                                             secondCut: Self.reader.layout.segmenter.growingLonePieces,
                                             classifier: Self.reader.classifier)[0]
        #expect(field.pieces.allSatisfy { !FaintInkReading.isDoubted($0) })
        #expect(Self.labels(sure) == Self.labels(field.pieces))
        // doubted: rejected, or read under `FaintInkReading.doubtedBelow`
        let piece = { (label: Int, p: Float) in
            ReadRegion.Piece(crop: nil, row: nil, col: nil, input: nil, prediction: WordsFieldTests.prediction(label, p))
        }
        #expect(FaintInkReading.isDoubted(piece(4, 0.85)))
        #expect(FaintInkReading.isDoubted(piece(DigitClassifier.rejectClass, 0.95)))
        #expect(!FaintInkReading.isDoubted(piece(4, 0.999)))
        // taken only when a digit read surer than the piece
        let p = { (label: Int, q: Float) in WordsFieldTests.prediction(label, q) }
        #expect(GrownPieceReading.takes(p(7, 0.9), over: p(1, 0.85)))
        #expect(GrownPieceReading.takes(p(7, 0.5), over: p(DigitClassifier.rejectClass, 0.95)))
        #expect(!GrownPieceReading.takes(p(7, 0.8), over: p(1, 0.85)))
        #expect(!GrownPieceReading.takes(p(DigitClassifier.rejectClass, 0.99), over: p(1, 0.5)))
        // growth: a box that holds the piece's and is larger
        let box = PixelBox(x: 10, y: 10, width: 8, height: 14)
        #expect(PixelBox(x: 9, y: 4, width: 10, height: 20).strictlyContains(box))
        #expect(!box.strictlyContains(box))
        #expect(!PixelBox(x: 12, y: 4, width: 10, height: 20).strictlyContains(box))
    }
}
