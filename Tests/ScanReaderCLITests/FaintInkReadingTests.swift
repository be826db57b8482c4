@testable import DigitClassifier
@testable import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore
@testable import ScanReader
import Testing

/// A field whose reading holds a rejected piece, or a grid's cell read as a rejected or
/// doubted piece, is read again from its faint ink (`FaintInkReading`): the sample form's
/// digits written lighter, the sample grid's cells taken as rejected or doubted, controls.
@Suite("A rejected or doubted reading read again from the faint ink")
struct FaintInkReadingTests {
    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    /// The sample form's fields as read.
    static let fields: [ReadRegion] = {
        let image = try! ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/form-fields.jpg").path,
                                          options: .init(maxDimension: ReadOptions().workingSize)).image
        return reader.readRegions(in: image).filter { $0.region.kind == .field }
    }()

    /// `region` with the digit in `box` written lighter: `fade` times as dark against the
    /// paper, and in every other band of `band` rows `skip` times (the pen skipping), its
    /// ink and faint ink thresholded again as the layout does.
    static func fading(_ region: LaidOutRegion, in box: PixelBox, fade: Double, skip: Double, band: Int) -> LaidOutRegion {
        lightened(region, in: box) { _, y in (y / band) % 2 == 0 ? fade : skip }
    }

    /// `region` with each pixel (x, y) of `box` `share(x, y)` times as dark against the
    /// paper (its 75th percentile; nil: as it is), its ink and faint ink thresholded again
    /// as the layout does.
    static func lightened(_ region: LaidOutRegion, in box: PixelBox, share: (Int, Int) -> Double?) -> LaidOutRegion {
        var g = region.gray
        var paper = ByteHistogram()
        for v in g.pixels { paper.add(v) }
        let level = Double(paper.percentile(0.75))
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX {
                guard let share = share(x, y) else { continue }
                g[x, y] = UInt8(max(0, min(255, (level - (level - Double(g[x, y])) * share).rounded())))
            }
        }
        let (ink, faint) = Layout.inkLevels(of: g)
        var r = LaidOutRegion(kind: region.kind, quad: region.quad, gray: g, binary: Layout.fieldInk(ink, of: g),
                              faint: faint, ruling: nil)
        r.hasDrawnFrame = region.hasDrawnFrame
        return r
    }

    /// The region segmented and classified as the reader does, then `FaintInkReading`.
    static func read(_ region: LaidOutRegion) -> (before: [ReadRegion.Piece], after: [ReadRegion.Piece]) {
        let crops = reader.layout.segmenter.fieldDigits(gray: region.gray, binary: region.binary,
                                                        region: Layout.readableArea(of: region))
        let predictions = crops.isEmpty ? [] : reader.classifier.classify(crops.map(\.modelInput))
        let pieces = zip(crops, predictions).map { ReadRegion.Piece(crop: $0, row: nil, col: nil, input: nil, prediction: $1) }
        let after = FaintInkReading.reading([pieces], of: [region], segmenter: reader.layout.segmenter,
                                              classifier: reader.classifier)[0]
        return (pieces, after)
    }

    static func labels(_ pieces: [ReadRegion.Piece]) -> [Int] { pieces.compactMap { $0.prediction?.label } }

    @Test("A digit a lighter pen wrote, broken by the threshold and rejected, is read whole from the faint ink")
    func paleDigitReadWhole() throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        let truth = Self.labels(field.pieces)
        var broken = 0
        // bands of 5–8 rows at 0.4 of the ink's contrast, between them 0.15 (under the
        // ink threshold, over the faint one), each of the first three digits in turn
        for band in [5, 6, 8] {
            for digit in 0..<3 {
                let box = try #require(field.pieces[digit].crop).box
                let (before, after) = Self.read(Self.fading(field.region, in: box, fade: 0.4, skip: 0.15, band: band))
                // never worse than as read
                #expect(zip(Self.labels(after), truth).filter { $0 == $1 }.count
                        >= zip(Self.labels(before), truth).filter { $0 == $1 }.count)
                // where the broken digit was rejected, the faint ink reads the field whole
                guard before.contains(where: { $0.prediction!.isRejected }) else { continue }
                broken += 1
                #expect(Self.labels(after) == truth, "band \(band), digit \(digit): \(Self.labels(before)) → \(Self.labels(after))")
            }
        }
        // the sweep holds cases the reading rejects (else it tests nothing)
        #expect(broken >= 2)
    }

    @Test("Controls: a field read with no rejected piece stays as read; a faint reading with a rejected piece is not taken")
    func controls() throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        // read whole already: its faint ink is never asked
        let (before, after) = Self.read(field.region)
        #expect(!before.contains { $0.prediction!.isRejected })
        #expect(Self.labels(after) == Self.labels(before))
        // the decision: a faint reading with a rejected piece, or no more digits, loses
        let digit = WordsFieldTests.prediction(3), rejected = WordsFieldTests.prediction(10)
        #expect(!FaintInkReading.prefersFaint([digit, digit, rejected], over: [digit, rejected]))
        #expect(!FaintInkReading.prefersFaint([digit, digit], over: [digit, digit, rejected]))
        #expect(FaintInkReading.prefersFaint([digit, digit, digit], over: [digit, rejected, rejected]))
    }

    /// A sample grid as read.
    static let grid: ReadRegion = {
        let image = try! ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/ruled-grid.jpg").path,
                                          options: .init(maxDimension: ReadOptions().workingSize)).image
        return reader.readRegions(in: image).first { $0.region.kind == .grid }!
    }()

    /// The sample grid's reading with the pieces at `indices` read as `label` at
    /// `probability` (by default rejected, as a digit broken by the threshold is), its
    /// region's grey `gray` and faint ink `faint` (by default its own).
    static func rejecting(_ indices: [Int], gray: GrayImage? = nil, faint: BinaryImage? = nil,
                          as label: Int = DigitClassifier.rejectClass, probability: Float = 0.95)
        -> (region: LaidOutRegion, pieces: [ReadRegion.Piece]) {
        var region = grid.region
        if let gray {
            region = LaidOutRegion(kind: .grid, quad: region.quad, gray: gray, binary: region.binary,
                                   faint: region.faint, ruling: region.ruling)
        }
        if let faint { region.faint = faint }
        let pieces = grid.pieces.enumerated().map { k, p in
            indices.contains(k) ? ReadRegion.Piece(crop: p.crop, row: p.row, col: p.col, input: nil,
                                                   prediction: WordsFieldTests.prediction(label, probability))
                : p
        }
        return (region, pieces)
    }

    @Test("A grid's cell read as a rejected piece is read from its faint ink when the model is sure of a digit there")
    func rejectedCellReadFromFaint() throws {
        let digits = Self.grid.pieces.indices.filter { Self.grid.pieces[$0].prediction.map { !$0.isRejected } ?? false }
        try #require(digits.count >= 4)
        let chosen = Array(digits.prefix(4))
        let (region, pieces) = Self.rejecting(chosen)
        let after = FaintInkReading.reading([pieces], of: [region], segmenter: Self.reader.layout.segmenter,
                                            classifier: Self.reader.classifier)[0]
        // each rejected cell reads its digit again; every other cell as it was
        #expect(after.map(\.prediction?.label) == Self.grid.pieces.map(\.prediction?.label))
    }

    @Test("A grid's cell read as a digit the model doubts is read from its faint ink when the model is sure there")
    func doubtedCellReadFromFaint() throws {
        let digits = Self.grid.pieces.indices.filter { Self.grid.pieces[$0].prediction.map { !$0.isRejected } ?? false }
        try #require(digits.count >= 4)
        let chosen = Array(digits.prefix(4))
        // each read as a wrong digit at 0.6
        for k in chosen {
            let wrong = (Self.grid.pieces[k].prediction!.label + 1) % 10
            let (region, pieces) = Self.rejecting([k], as: wrong, probability: 0.6)
            let after = FaintInkReading.reading([pieces], of: [region], segmenter: Self.reader.layout.segmenter,
                                                classifier: Self.reader.classifier)[0]
            #expect(after.map(\.prediction?.label) == Self.grid.pieces.map(\.prediction?.label))
            // control: the same wrong digit read at 0.95 is not doubted, and stays
            let (sureRegion, sure) = Self.rejecting([k], as: wrong, probability: 0.95)
            let kept = FaintInkReading.reading([sure], of: [sureRegion], segmenter: Self.reader.layout.segmenter,
                                               classifier: Self.reader.classifier)[0]
            #expect(kept[k].prediction?.label == wrong)
        }
    }

    @Test("Controls: a rejected cell whose faint ink is a smudge stays rejected; cells read empty are never asked")
    func smudgeStaysRejected() throws {
        let grid = Self.grid
        let ruling = try #require(grid.region.ruling)
        let k = try #require(grid.pieces.indices.first { grid.pieces[$0].prediction.map { !$0.isRejected } ?? false })
        let (row, col) = (grid.pieces[k].row!, grid.pieces[k].col!)
        // the cell holds a grey smudge over its middle, faint ink, and nothing else
        var faint = try #require(grid.region.faint)
        var gray = grid.region.gray
        let cell = DigitSegmenter.inner(gray.cellBox(ruling, row, col))
        let paper = gray[cell.x + 1, cell.y + 1]
        for y in cell.y..<cell.maxY {
            for x in cell.x..<cell.maxX {
                let inBlot = y >= cell.y + cell.height / 4 && y < cell.maxY - cell.height / 4
                    && x >= cell.x + cell.width / 4 && x < cell.maxX - cell.width / 4
                faint.bits[y * faint.width + x] = inBlot ? 1 : 0
                gray[x, y] = inBlot ? UInt8(max(0, Int(paper) - 30)) : paper
            }
        }
        let (region, pieces) = Self.rejecting([k], gray: gray, faint: faint)
        let after = FaintInkReading.reading([pieces], of: [region], segmenter: Self.reader.layout.segmenter,
                                            classifier: Self.reader.classifier)[0]
        #expect(after[k].prediction!.isRejected)
        // a reading with no rejected piece is left as it is, empty cells included
        let untouched = FaintInkReading.reading([grid.pieces], of: [grid.region], segmenter: Self.reader.layout.segmenter,
                                                classifier: Self.reader.classifier)[0]
        #expect(untouched.map(\.prediction?.label) == grid.pieces.map(\.prediction?.label))
        #expect(untouched.filter { $0.crop == nil }.count == grid.pieces.filter { $0.crop == nil }.count)
    }

    /// The sample comb as read.
    static let comb: ReadRegion = {
        let image = try! ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/comb-boxes.jpg").path,
                                          options: .init(maxDimension: ReadOptions().workingSize)).image
        return reader.readRegions(in: image).first { $0.region.kind == .grid }!
    }()

    /// `pieces` with the piece at `k` taken as a cell read empty (the threshold lost it).
    static func emptying(_ pieces: [ReadRegion.Piece], at k: Int) -> [ReadRegion.Piece] {
        var emptied = pieces
        emptied[k] = ReadRegion.Piece(crop: nil, row: pieces[k].row, col: pieces[k].col, input: nil)
        return emptied
    }

    @Test("A comb's place read empty between places read as digits is read from its faint ink")
    func combGapReadFromFaint() throws {
        let comb = Self.comb
        let ruling = try #require(comb.region.ruling)
        try #require(ruling.rowCount == 1 && comb.pieces.count >= 4)
        let labels = comb.pieces.map(\.prediction?.label)
        try #require(labels.allSatisfy { $0 != nil && $0 != DigitClassifier.rejectClass })
        // each inner place in turn
        for k in 1..<(comb.pieces.count - 1) {
            let after = FaintInkReading.reading([Self.emptying(comb.pieces, at: k)], of: [comb.region],
                                                segmenter: Self.reader.layout.segmenter, classifier: Self.reader.classifier)[0]
            #expect(after.map(\.prediction?.label) == labels, "place \(k)")
        }
        // control: the last place read empty is a place left blank, not asked
        let last = comb.pieces.count - 1
        let trailing = FaintInkReading.reading([Self.emptying(comb.pieces, at: last)], of: [comb.region],
                                               segmenter: Self.reader.layout.segmenter, classifier: Self.reader.classifier)[0]
        #expect(trailing[last].crop == nil)
        // control: a 9×9 grid's empty cell between digits is never asked (show-through)
        let grid = Self.grid
        let gridRuling = try #require(grid.region.ruling)
        let innerColumns = 1..<(gridRuling.columnCount - 1)
        let k = try #require(grid.pieces.indices.first { k in
            let p = grid.pieces[k]
            return p.prediction.map { !$0.isRejected } == true && p.col.map(innerColumns.contains) == true
        })
        let asked = FaintInkReading.reading([Self.emptying(grid.pieces, at: k)], of: [grid.region],
                                            segmenter: Self.reader.layout.segmenter, classifier: Self.reader.classifier)[0]
        #expect(asked[k].crop == nil)
    }
}
