import DigitClassifier
@testable import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore
@testable import ScanReader
import Testing

/// Touching digits the model rejects as one piece are read cut apart (`TouchingDigits`):
/// digits cut from a sample form, pushed together until they touch, with controls.
@Suite("Touching digits")
struct TouchingDigitsTests {
    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    /// The sample form's fields as read.
    static let fields = regions(of: "form-fields.jpg").filter { $0.region.kind == .field }

    /// A sample's regions as read.
    static func regions(of sample: String) -> [ReadRegion] {
        let image = try! ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/\(sample)").path,
                                          options: .init(maxDimension: ReadOptions().workingSize)).image
        return reader.readRegions(in: image)
    }

    /// `crops` side by side, bottoms level, each overlapping the one before by `overlap`
    /// columns (their ink joined by the larger value): one piece of touching glyphs.
    func joined(_ crops: [InkCrop], overlap: Int) -> InkCrop {
        let h = crops.map(\.box.height).max()!
        let w = crops.map(\.box.width).reduce(0, +) - overlap * (crops.count - 1)
        var ink = [UInt8](repeating: 0, count: w * h)
        var x0 = 0
        for c in crops {
            let dy = h - c.box.height
            for y in 0..<c.box.height {
                for x in 0..<c.box.width {
                    let i = (y + dy) * w + x0 + x
                    ink[i] = max(ink[i], c.ink[y * c.box.width + x])
                }
            }
            x0 += c.box.width - overlap
        }
        return InkCrop(box: PixelBox(x: 5, y: 5, width: w, height: h), ink: ink)
    }

    /// `crop` as a piece with the model's reading.
    func piece(_ crop: InkCrop) -> ReadRegion.Piece {
        let prediction = Self.reader.classifier.classify([crop.modelInput])[0]
        return ReadRegion.Piece(crop: crop, row: nil, col: nil, input: nil, prediction: prediction)
    }

    @Test("Two and three of a form's digits pushed together are read as those digits", arguments: [1, 2], [2, 3])
    func readApart(overlap: Int, count: Int) throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        let digits = Array(field.pieces.prefix(count))
        let touching = piece(joined(digits.map { $0.crop! }, overlap: overlap))
        try #require(touching.prediction!.isRejected, "the model reads the joined piece as one digit")
        let read = TouchingDigits.splitting([[touching]], of: [field.region], classifier: Self.reader.classifier)[0]
        #expect(read.map { $0.prediction!.label } == digits.map { $0.prediction!.label })
    }

    @Test("Controls: a wide bar stays one rejected piece; a piece read as a digit and a grid's piece are left whole")
    func leftWhole() throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 2 })
        // a bar 6 × as wide as tall
        let bar = InkCrop(box: PixelBox(x: 0, y: 0, width: 60, height: 10), ink: [UInt8](repeating: 220, count: 600))
        let barPiece = piece(bar)
        let read = TouchingDigits.splitting([[barPiece]], of: [field.region], classifier: Self.reader.classifier)[0]
        #expect(read.count == 1 && read[0].prediction!.isRejected)
        // a digit as read stays as it is, rejected or not, whatever its shape
        let digit = field.pieces[0]
        #expect(TouchingDigits.splitting([[digit]], of: [field.region], classifier: Self.reader.classifier)[0].count == 1)
        // the same touching digits in a puzzle's cell: a cell holds one digit, never cut
        let grid = try #require(Self.regions(of: "ruled-grid.jpg").first { $0.region.kind == .grid }).region
        let touching = piece(joined(field.pieces.prefix(2).map { $0.crop! }, overlap: 1))
        let cell = ReadRegion.Piece(crop: touching.crop, row: 2, col: 3, input: nil, prediction: touching.prediction)
        #expect(TouchingDigits.splitting([[cell]], of: [grid], classifier: Self.reader.classifier)[0].count == 1)
    }

    @Test("In a table of numbers (a cell read as several pieces), touching digits are cut and stay in their cell")
    func tableNumber() throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        let grid = try #require(Self.regions(of: "ruled-grid.jpg").first { $0.region.kind == .grid }).region
        let digits = Array(field.pieces.prefix(3))
        let touching = piece(joined(digits.suffix(2).map { $0.crop! }, overlap: 1))
        try #require(touching.prediction!.isRejected)
        // cell (1, 4): the first digit, then the two touching
        let first = ReadRegion.Piece(crop: digits[0].crop, row: 1, col: 4, input: nil, prediction: digits[0].prediction)
        let pair = ReadRegion.Piece(crop: touching.crop, row: 1, col: 4, input: nil, prediction: touching.prediction)
        let read = TouchingDigits.splitting([[first, pair]], of: [grid], classifier: Self.reader.classifier)[0]
        #expect(read.map { $0.prediction!.label } == digits.map { $0.prediction!.label })
        #expect(read.allSatisfy { $0.row == 1 && $0.col == 4 })
    }

    /// The sample grid, two of the sample form's digits, and those two pushed together
    /// (one piece the model rejects).
    func gridAndTouchingPair() throws -> (grid: LaidOutRegion, digits: [ReadRegion.Piece], touching: ReadRegion.Piece) {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        let grid = try #require(Self.regions(of: "ruled-grid.jpg").first { $0.region.kind == .grid }).region
        let digits = Array(field.pieces.prefix(2))
        let touching = piece(joined(digits.map { $0.crop! }, overlap: 1))
        try #require(touching.prediction!.isRejected)
        return (grid, digits, touching)
    }

    /// `p` (nil: an empty cell) placed in cell (`r`, `c`).
    func cell(_ p: ReadRegion.Piece?, _ r: Int, _ c: Int) -> ReadRegion.Piece {
        ReadRegion.Piece(crop: p?.crop, row: r, col: c, input: nil, prediction: p?.prediction)
    }

    @Test("A table whose every number is set tight (no cell read as several pieces) is cut when enough cells cut into sure digits; one such cell among a puzzle's digits is not")
    func tableOfTouchingNumbers() throws {
        let (grid, digits, touching) = try gridAndTouchingPair()
        let single = digits[0]
        // four cells of touching numbers and two of single digits: a table of numbers
        let table = [cell(touching, 0, 0), cell(single, 0, 1), cell(touching, 1, 0), cell(touching, 1, 1),
                     cell(single, 2, 0), cell(touching, 2, 1)]
        let read = TouchingDigits.splitting([table], of: [grid], classifier: Self.reader.classifier)[0]
        #expect(read.count == 4 * 2 + 2)
        #expect(read.filter { $0.row == 1 && $0.col == 0 }.map { $0.prediction!.label } == digits.map { $0.prediction!.label })
        // control: one such cell among seven single digits (a puzzle's touching
        // candidates) is left whole and rejected
        let puzzle = [cell(touching, 0, 0)] + (1..<8).map { cell(single, $0 / 3, $0 % 3) }
        let left = TouchingDigits.splitting([puzzle], of: [grid], classifier: Self.reader.classifier)[0]
        #expect(left.count == puzzle.count && left[0].prediction!.isRejected)
    }

    @Test("Cells of digits apart count with cells of digits set tight: together they make a table, whose cells apart are then read")
    func apartCellsCount() throws {
        let (grid, digits, touching) = try gridAndTouchingPair()
        let bar = piece(InkCrop(box: PixelBox(x: 0, y: 0, width: 60, height: 10), ink: [UInt8](repeating: 220, count: 600)))
        // cells (0, 0) and (0, 1) of the sample grid hold its 5 and 3; read empty here, as
        // the segmenter leaves a cell of digits side by side in a grid it takes for a puzzle
        let table = [cell(nil, 0, 0), cell(nil, 0, 1),
                     cell(touching, 1, 0), cell(touching, 1, 1), cell(touching, 1, 2),
                     cell(bar, 2, 0), cell(bar, 2, 1), cell(bar, 2, 2), cell(bar, 3, 0),
                     cell(digits[0], 3, 1), cell(digits[0], 3, 2), cell(digits[0], 4, 0), cell(digits[0], 4, 1)]
        // three cells cut into sure digits of eleven inked: under the table's share alone
        let alone = TouchingDigits.splitting([table], of: [grid], classifier: Self.reader.classifier)[0]
        #expect(alone.count == table.count)
        // with the two cells of digits apart: five of thirteen, a table
        let read = TouchingDigits.splitting([table], of: [grid], apart: [[0, 1]], classifier: Self.reader.classifier)[0]
        #expect(read.filter { $0.row == 1 && $0.col == 0 }.map { $0.prediction!.label } == digits.map { $0.prediction!.label })
        #expect(read.filter { $0.row == 0 && $0.col == 0 }.map { $0.prediction!.label } == [5])
        #expect(read.filter { $0.row == 0 && $0.col == 1 }.map { $0.prediction!.label } == [3])
    }

    @Test("Cuts read in rounds, given up at their first unsure part, read exactly as every part read at once",
          arguments: [1, 2], [2, 3])
    func roundsReadAsAllAtOnce(overlap: Int, count: Int) throws {
        let field = try #require(Self.fields.first { $0.pieces.count >= 3 })
        let touching = joined(Array(field.pieces.prefix(count)).map { $0.crop! }, overlap: overlap)
        // a wide bar, which no cut reads as digits, beside the touching digits
        let bar = InkCrop(box: PixelBox(x: 0, y: 0, width: 90, height: 12), ink: [UInt8](repeating: 220, count: 90 * 12))
        let candidates = [touching, bar].map { crop in (2...5).compactMap { crop.split(into: $0) } }
        let rounds = TouchingDigits.readingCuts(candidates, classifier: Self.reader.classifier)
        let all = Self.reader.classifier.classify(candidates.flatMap { $0.flatMap { $0.map(\.modelInput) } })
        var next = all[...]
        var whole = 0
        for (c, cuts) in candidates.enumerated() {
            for (k, cut) in cuts.enumerated() {
                let atOnce = Array(next.prefix(cut.count))
                next = next.dropFirst(cut.count)
                let sure = atOnce.allSatisfy { !$0.isRejected && $0.confidence >= TouchingDigits.partConfidence }
                if sure {
                    whole += 1
                    #expect(rounds[c][k].map(\.label) == atOnce.map(\.label))
                    #expect(zip(rounds[c][k], atOnce).allSatisfy { abs($0.confidence - $1.confidence) < 1e-6 })
                } else {
                    #expect(rounds[c][k].isEmpty)
                }
            }
        }
        // the premise: the touching digits have a cut read whole, the bar none
        #expect(whole >= 1)
        #expect(rounds[1].allSatisfy { $0.isEmpty })
    }
}
