@testable import DigitClassifier
@testable import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A 1 written with a flag that the model rejects as a ruling fragment is read as 1 in a
/// grid's cell (`FlaggedOnes`), and nothing else the model rejects is.
@Suite("Flagged 1s in a grid's cells")
struct FlaggedOnesTests {
    /// A 3×3 grid region of 30-px cells (or a field).
    func grid(_ kind: LaidOutRegion.Kind = .grid) -> LaidOutRegion { blankGridRegion(kind) }

    /// A piece `height` px tall in cell (row, 0) (no cell in a field) whose probabilities
    /// are `reject` for no digit and the rest as given.
    func piece(row: Int, height: Int, reject: Float, digits: [Int: Float], inCell: Bool = true) -> ReadRegion.Piece {
        var p = [Float](repeating: 0, count: 11)
        for (d, v) in digits { p[d] = v }
        p[10] = reject
        let label = p.indices.max { p[$0] < p[$1] }!
        let crop = InkCrop(box: PixelBox(x: 8, y: row * 30 + 2, width: 8, height: height),
                           ink: [UInt8](repeating: 200, count: 8 * height))
        return ReadRegion.Piece(crop: crop, row: inCell ? row : nil, col: inCell ? 0 : nil, input: nil,
                                prediction: DigitPrediction(probabilities: p, label: label))
    }

    /// Two cells read surely (digits 24 px tall) and `last` in the third row.
    func reading(_ last: ReadRegion.Piece, sure: Bool = true) -> [ReadRegion.Piece] {
        let confidence: Float = sure ? 0.99 : 0.6
        return [piece(row: 0, height: 24, reject: 1 - confidence, digits: [3: confidence]),
                piece(row: 1, height: 24, reject: 1 - confidence, digits: [5: confidence]), last]
    }

    func readAs(_ pieces: [ReadRegion.Piece], in region: LaidOutRegion) -> DigitPrediction? {
        FlaggedOnes.reading([pieces], of: [region], digitHeight: DigitSegmenter().minimumRelativeDigitHeight)[0][2].prediction
    }

    @Test("A rejected piece a digit's height that, among the digits, is surely a 1 reads 1")
    func flaggedOne() throws {
        let read = try #require(readAs(reading(piece(row: 2, height: 22, reject: 0.8, digits: [1: 0.19, 7: 0.01])), in: grid()))
        #expect(read.label == 1 && read.confidence >= 0.9)
    }

    @Test("Controls: short ink, another digit, a doubtful 1, a field, a grid read surely nowhere stay rejected")
    func controls() {
        let candidates = [
            (reading(piece(row: 2, height: 12, reject: 0.8, digits: [1: 0.2])), grid()),            // a solver's note's height
            (reading(piece(row: 2, height: 22, reject: 0.8, digits: [7: 0.2])), grid()),            // a pencilled 7
            (reading(piece(row: 2, height: 22, reject: 0.8, digits: [1: 0.12, 7: 0.08])), grid()),  // a 1 or a 7
            (reading(piece(row: 2, height: 22, reject: 0.8, digits: [1: 0.2], inCell: false)), grid(.field)),
            (reading(piece(row: 2, height: 22, reject: 0.8, digits: [1: 0.2]), sure: false), grid()),
        ]
        for (pieces, region) in candidates {
            #expect(readAs(pieces, in: region)?.isRejected == true)
        }
    }

    @Test("Among the digits alone, the reject class's share is spread over the digits in proportion")
    func amongDigits() {
        var p = [Float](repeating: 0, count: 11)
        (p[1], p[7], p[10]) = (0.15, 0.05, 0.8)
        let digits = DigitPrediction(probabilities: p, label: 10).amongDigits
        #expect(digits.label == 1 && digits.probabilities.count == 10)
        #expect(abs(digits.confidence - 0.75) < 1e-6 && abs(digits.probabilities[7] - 0.25) < 1e-6)
        let tenClasses = DigitPrediction(probabilities: [0.1, 0.9] + [Float](repeating: 0, count: 8), label: 1)
        #expect(tenClasses.amongDigits == tenClasses)
    }
}
