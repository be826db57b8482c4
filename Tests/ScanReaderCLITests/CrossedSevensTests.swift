@testable import DigitClassifier
@testable import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// Where a region's writer crosses their 7s, a piece of it the model doubts between 7 and 1
/// that has no cross bar is read as 1, and so is a grid cell's piece the model rejects that
/// among the digits is surely a 1 or a 7 (`CrossedSevens`); nothing changes elsewhere.
@Suite("A writer who crosses 7s")
struct CrossedSevensTests {
    /// A 3×3 grid region of 30-px cells, or a field.
    func region(_ kind: LaidOutRegion.Kind = .grid) -> LaidOutRegion { blankGridRegion(kind) }

    /// A glyph `height` px tall in a 30-px box: a stem leaning from (15, 0) to (10, bottom),
    /// 3 px wide, with a bar across it at mid height when `crossed`.
    func crop(crossed: Bool, height: Int = 30) -> InkCrop {
        var ink = [UInt8](repeating: 0, count: 30 * height)
        for y in 0..<height {
            let x = 15 - y * 5 / (height - 1)
            for dx in -1...1 { ink[y * 30 + x + dx] = 220 }
        }
        if crossed { for x in 5..<22 { for y in (height / 2 - 1)...(height / 2) { ink[y * 30 + x] = 220 } } }
        return InkCrop(box: PixelBox(x: 0, y: 0, width: 30, height: height), ink: ink)
    }

    /// A piece in a grid's cell (or a field's, `inCell` false) with the given class
    /// probabilities.
    func piece(_ p: [Int: Float], crossed: Bool = false, height: Int = 30, inCell: Bool = true) -> ReadRegion.Piece {
        var probabilities = [Float](repeating: 0, count: 11)
        for (k, v) in p { probabilities[k] = v }
        let label = probabilities.indices.max { probabilities[$0] < probabilities[$1] }!
        return ReadRegion.Piece(crop: crop(crossed: crossed, height: height), row: inCell ? 1 : nil, col: inCell ? 1 : nil,
                                input: nil, prediction: DigitPrediction(probabilities: probabilities, label: label))
    }

    /// A piece read as 1 or 7 (the rest to 4).
    func read(one: Float, seven: Float, crossed: Bool = false) -> ReadRegion.Piece {
        piece([1: one, 7: seven, 4: 1 - one - seven], crossed: crossed)
    }

    /// A piece the model rejects (0.9) whose remaining tenth, among the digits, is 1 and 7
    /// as given (the rest to 4).
    func rejected(one: Float, seven: Float, crossed: Bool = false, height: Int = 30, inCell: Bool = true) -> ReadRegion.Piece {
        piece([10: 0.9, 1: one / 10, 7: seven / 10, 4: (1 - one - seven) / 10], crossed: crossed, height: height, inCell: inCell)
    }

    /// What the rule reads `pieces` as, beside a 7 read surely (crossed unless said
    /// otherwise) in the same region.
    func readBeside(_ pieces: [ReadRegion.Piece], crossedSeven: Bool = true,
                    in kind: LaidOutRegion.Kind = .grid) -> [DigitPrediction] {
        let seven = piece([7: 0.995, 4: 0.005], crossed: crossedSeven)
        return CrossedSevens.reading([[seven] + pieces], of: [region(kind)], digitHeight: DigitSegmenter().minimumRelativeDigitHeight)[0]
            .dropFirst().compactMap(\.prediction)
    }

    @Test("An uncrossed 7 the model doubts against 1 reads 1, as sure as the model is of the two", arguments: [
        (Float(0.3), Float(0.68)), (0.05, 0.94), (0.011, 0.985), (0.55, 0.44),
    ])
    func doubtedSevenReadsOne(one: Float, seven: Float) throws {
        let read = try #require(readBeside([read(one: one, seven: seven)]).first)
        #expect(read.label == 1)
        #expect(abs(read.confidence - (one + seven)) < 1e-5)
        #expect(read.probabilities[7] == 0)
    }

    @Test("A grid cell's rejected piece, among the digits surely a 1 or a 7 and uncrossed, reads 1", arguments: [
        (Float(0.6), Float(0.35)), (0.3, 0.65), (0.9, 0.07),
    ])
    func rejectedOneOrSevenReadsOne(one: Float, seven: Float) throws {
        let read = try #require(readBeside([rejected(one: one, seven: seven)]).first)
        #expect(read.label == 1 && abs(read.confidence - (one + seven)) < 1e-4)
    }

    @Test("Controls: a 7 the model is sure of, a crossed 7, another runner-up, no crossed 7 beside, a crossed 7 read unsurely or in another region")
    func controls() {
        let sure = read(one: 0.000_001, seven: 0.999)           // a printed 7
        let crossed = read(one: 0.3, seven: 0.68, crossed: true)  // the writer's own 7, doubted
        let otherRunnerUp = piece([7: 0.6, 2: 0.3, 1: 0.1])       // a 7 or a 2 first
        for kept in [sure, crossed, otherRunnerUp] {
            #expect(readBeside([kept]) == [kept.prediction!])
        }
        let doubted = read(one: 0.3, seven: 0.68)
        #expect(readBeside([doubted], crossedSeven: false) == [doubted.prediction!])
        let digitHeight = DigitSegmenter().minimumRelativeDigitHeight
        // the crossed 7 beside it read at 0.8: not sure enough to say how the writer writes
        let unsureCrossed = read(one: 0.15, seven: 0.8, crossed: true)
        #expect(CrossedSevens.reading([[unsureCrossed, doubted]], of: [region()], digitHeight: digitHeight)[0][1].prediction
                == doubted.prediction)
        // a sure, crossed 7 in another region (another document, maybe another hand)
        let elsewhere = piece([7: 0.995, 4: 0.005], crossed: true)
        #expect(CrossedSevens.reading([[elsewhere], [doubted]], of: [region(), region()], digitHeight: digitHeight)[1][0].prediction
                == doubted.prediction)
    }

    @Test("Controls: a rejected piece crossed, short as a solver's note, in a field, or not surely a 1 or a 7 stays rejected")
    func rejectedControls() {
        let pieces = [
            rejected(one: 0.6, seven: 0.35, crossed: true),
            rejected(one: 0.6, seven: 0.35, height: 14),
            rejected(one: 0.5, seven: 0.3),                 // a 4 holds a fifth
        ]
        for kept in pieces {
            #expect(readBeside([kept]).first?.isRejected == true)
        }
        #expect(readBeside([rejected(one: 0.6, seven: 0.35, inCell: false)], in: .field).first?.isRejected == true)
    }

    @Test("A 1 the model doubts against 7 keeps its 1, sure of the two together")
    func doubtedOne() throws {
        let read = try #require(readBeside([read(one: 0.55, seven: 0.4)]).first)
        #expect(read.label == 1 && abs(read.confidence - 0.95) < 1e-5)
    }
}
