@testable import DigitClassifier
@testable import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A field whose pieces the model mostly rejects is a line of words: the letters it reads
/// as digits there (l → 1, S → 5) are reported as rejected (`ReadRegion.readsAsWords`).
@Suite("A field of words reads no digits")
struct WordsFieldTests {
    /// A prediction of `label` (0–9, or 10: not a digit) at probability `p`, the rest
    /// shared evenly.
    static func prediction(_ label: Int, _ p: Float = 0.95) -> DigitPrediction {
        var probabilities = [Float](repeating: (1 - p) / 10, count: 11)
        probabilities[label] = p
        return DigitPrediction(probabilities: probabilities, label: label)
    }

    /// A region of `kind` whose pieces, left to right, read `labels` (10: rejected), each
    /// at probability `sureness[k]` (0.95 when not given).
    static func read(_ labels: [Int], kind: LaidOutRegion.Kind = .field, sureness: [Float] = []) -> ReadRegion {
        let gray = GrayImage(width: 40 * max(1, labels.count), height: 40, pixels: [UInt8](repeating: 255, count: 1600 * max(1, labels.count)))
        let w = Double(gray.width - 1)
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(w, 0), bottomRight: Point(w, 39), bottomLeft: Point(0, 39))
        let region = LaidOutRegion(kind: kind, quad: quad, gray: gray, binary: BinaryImage(width: gray.width, height: 40,
                                   bits: [UInt8](repeating: 0, count: gray.width * 40)), ruling: nil)
        let pieces = labels.enumerated().map { k, label in
            ReadRegion.Piece(crop: InkCrop(box: PixelBox(x: 40 * k + 10, y: 10, width: 20, height: 20),
                                           ink: [UInt8](repeating: 200, count: 400)),
                             row: nil, col: nil, input: k, prediction: prediction(label, k < sureness.count ? sureness[k] : 0.95))
        }
        return ReadRegion(region: region, pieces: pieces)
    }

    static func text(_ read: ReadRegion) -> String {
        read.result(index: 0, scale: 1, minConfidence: 0.6, unsure: "?").text
    }

    @Test("A word with letters read as digits (l → 1, S → 5) reads nothing; its pieces are all rejected",
          arguments: [[10, 1, 10], [10, 10, 1, 10, 5], [1, 10, 10, 10], [10, 10, 10, 10, 10, 7, 1]])
    func wordsReadNothing(labels: [Int]) {
        let read = Self.read(labels)
        #expect(read.readsAsWords)
        let result = read.result(index: 0, scale: 1, minConfidence: 0.6, unsure: "?")
        #expect(result.text == "" && result.digits.isEmpty && result.rejected.count == labels.count)
        // an overruled piece carries the model's low probability that it is no digit
        #expect(result.rejected.contains { $0.confidence < 0.1 })
    }

    @Test("Controls: digits with a blot or two, half rejected, a page's words around numbers, an empty field",
          arguments: [([2, 10, 4], LaidOutRegion.Kind.field, "24"), ([3, 10], .field, "3"), ([10, 10], .field, ""),
                      ([1, 2, 10, 10], .field, "12"), ([10, 10, 10, 4, 2], .page, "42"), ([], .field, "")])
    func digitsKept(labels: [Int], kind: LaidOutRegion.Kind, text: String) {
        let read = Self.read(labels, kind: kind)
        #expect(!read.readsAsWords)
        #expect(Self.text(read) == text)
    }

    @Test("Another sheet's text: letters the model rejects or reads as digits it doubts outnumber the sure ones: no digits")
    func doubtedLettersAreWords() {
        // seven pieces: two rejected, three read under the reader's default --min-confidence
        // (shown "?"), two read sure: as text, "?0??4"
        let labels = [10, 0, 3, 10, 8, 2, 4], sureness: [Float] = [0.95, 0.97, 0.45, 0.9, 0.5, 0.55, 0.99]
        let read = Self.read(labels, sureness: sureness)
        #expect(read.readsAsWords)
        #expect(Self.text(read) == "")
        // control: the same field with the doubted digits sure is digits with two blots
        let sure = Self.read(labels)
        #expect(!sure.readsAsWords)
        #expect(Self.text(sure) == "03824")
        // control: a number read with one doubted digit among sure ones stays as read
        let number = Self.read([5, 1, 9, 0], sureness: [0.99, 0.5, 0.97, 0.98])
        #expect(!number.readsAsWords)
        #expect(Self.text(number) == "5?90")
    }
}
