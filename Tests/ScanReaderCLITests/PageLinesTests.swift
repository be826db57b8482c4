@testable import DigitClassifier
@testable import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A page's pieces judged line by line (`PageLines`): a line of grain or words, mostly
/// rejected or doubted, reads nothing but its numbers; a large digit beside it is a line
/// of its own.
@Suite("A page's lines of grain read no digits")
struct PageLinesTests {
    /// A piece at (x, y), `size` px tall, read as `label` (10: rejected) at probability `p`.
    static func piece(_ x: Int, _ y: Int, size: Int, _ label: Int, _ p: Float = 0.95) -> ReadRegion.Piece {
        ReadRegion.Piece(crop: InkCrop(box: PixelBox(x: x, y: y, width: size * 2 / 3, height: size),
                                       ink: [UInt8](repeating: 200, count: size * 2 / 3 * size)),
                         row: nil, col: nil, input: 0, prediction: WordsFieldTests.prediction(label, p))
    }

    /// A page region of 1000 × 800 holding `pieces`.
    static func page(_ pieces: [ReadRegion.Piece]) -> ReadRegion {
        let gray = GrayImage(width: 1000, height: 800, fill: 255)
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(999, 0), bottomRight: Point(999, 799), bottomLeft: Point(0, 799))
        let region = LaidOutRegion(kind: .page, quad: quad, gray: gray,
                                   binary: BinaryImage(width: 1000, height: 800, bits: [UInt8](repeating: 0, count: 800_000)), ruling: nil)
        return ReadRegion(region: region, pieces: pieces)
    }

    static func text(_ read: ReadRegion) -> String {
        read.result(index: 0, scale: 1, minConfidence: 0.6, unsure: "?").text
    }

    /// A row of desk grain at `y`, specks `size` px tall every 40 px: rejected, with a lone
    /// sure 1 every fifth and a doubted 8 every seventh.
    static func grain(y: Int, size: Int) -> [ReadRegion.Piece] {
        (0..<24).map { k in
            k % 5 == 2 ? piece(40 * k, y, size: size, 1) : k % 7 == 3 ? piece(40 * k, y, size: size, 8, 0.4)
                : piece(40 * k, y, size: size, 10)
        }
    }

    @Test("A large digit among rows of grain reads alone", arguments: [12, 20, 30])
    func bigDigitAmongGrain(speck: Int) {
        // a 7 of 240 px spans the rows of grain beside it, which are at most an eighth of it
        let pieces = Self.grain(y: 300, size: speck) + [Self.piece(500, 280, size: 240, 7)] + Self.grain(y: 400, size: speck)
        #expect(Self.text(Self.page(pieces)) == "7")
        #expect(Self.page(pieces).readsDigit)
        // control: without the 7 the page reads nothing
        #expect(Self.text(Self.page(Self.grain(y: 300, size: speck))) == "")
        #expect(!Self.page(Self.grain(y: 300, size: speck)).readsDigit)
    }

    @Test("Controls: a line of digits with one doubted, a number among words, two lines of digits")
    func digitsKept() {
        let line = [5, 1, 9, 0].enumerated().map { k, d in Self.piece(100 + 30 * k, 100, size: 30, d, k == 1 ? 0.5 : 0.97) }
        #expect(Self.text(Self.page(line)) == "5?90")
        // "Total 42": five letters rejected, then a number
        let words = (0..<5).map { Self.piece(100 + 30 * $0, 200, size: 30, 10) } + [Self.piece(300, 200, size: 30, 4), Self.piece(330, 200, size: 30, 2)]
        #expect(Self.text(Self.page(words)) == "42")
        // a lone sure digit among the words is a letter
        let lone = (0..<5).map { Self.piece(100 + 30 * $0, 200, size: 30, 10) } + [Self.piece(300, 200, size: 30, 1)]
        #expect(Self.text(Self.page(lone)) == "")
        // a line of digits holds no word's pieces
        #expect(PageLines.wordPieces(line).isEmpty)
    }
}
