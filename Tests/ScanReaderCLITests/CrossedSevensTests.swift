@testable import DigitClassifier
@testable import DocumentImaging
@testable import ScanReader
import Testing

/// Where the photo's writer crosses their 7s, a piece the model doubts between 7 and 1
/// that has no cross bar is read as 1 (`CrossedSevens`); nothing changes elsewhere.
@Suite("A writer who crosses 7s")
struct CrossedSevensTests {
    /// A 30-px glyph: a stem from (15, 0) to (10, 29), 3 px wide, with a bar across it at
    /// mid height when `crossed`.
    func crop(crossed: Bool) -> InkCrop {
        var ink = [UInt8](repeating: 0, count: 30 * 30)
        for y in 0..<30 {
            let x = 15 - y * 5 / 29
            for dx in -1...1 { ink[y * 30 + x + dx] = 220 }
        }
        if crossed { for x in 5..<22 { for y in 14...15 { ink[y * 30 + x] = 220 } } }
        return InkCrop(box: PixelBox(x: 0, y: 0, width: 30, height: 30), ink: ink)
    }

    /// A piece of a field read with the given probabilities of 1 and 7 (the rest to 4).
    func piece(one: Float, seven: Float, crossed: Bool = false) -> ReadRegion.Piece {
        var p = [Float](repeating: 0, count: 11)
        (p[1], p[7], p[4]) = (one, seven, 1 - one - seven)
        let label = p.indices.max { p[$0] < p[$1] }!
        return ReadRegion.Piece(crop: crop(crossed: crossed), row: nil, col: nil, input: nil,
                                prediction: DigitPrediction(probabilities: p, label: label))
    }

    /// A crossed 7 read surely beside `pieces`, and what the rule reads them as.
    func read(_ pieces: [ReadRegion.Piece], besideCrossedSeven: Bool = true) -> [DigitPrediction] {
        let seven = piece(one: 0, seven: 0.995, crossed: besideCrossedSeven)
        return CrossedSevens.reading([[seven], pieces])[1].compactMap(\.prediction)
    }

    @Test("An uncrossed 7 the model doubts against 1 reads 1, as sure as the model is of the two", arguments: [
        (Float(0.3), Float(0.68)), (0.05, 0.94), (0.011, 0.985), (0.55, 0.44),
    ])
    func doubtedSevenReadsOne(one: Float, seven: Float) throws {
        let read = try #require(read([piece(one: one, seven: seven)]).first)
        #expect(read.label == 1)
        #expect(abs(read.confidence - (one + seven)) < 1e-5)
        #expect(read.probabilities[7] == 0)
    }

    @Test("Controls: a 7 the model is sure of, a crossed 7, another runner-up, no crossed 7 beside, a crossed 7 read unsurely")
    func controls() {
        let sure = piece(one: 0.000_001, seven: 0.999)            // a printed 7
        let crossed = piece(one: 0.3, seven: 0.68, crossed: true)  // the writer's own 7, doubted
        var other = [Float](repeating: 0, count: 11)
        (other[7], other[2], other[1]) = (0.6, 0.3, 0.1)            // a 7 or a 2 first
        let otherRunnerUp = ReadRegion.Piece(crop: crop(crossed: false), row: nil, col: nil, input: nil,
                                             prediction: DigitPrediction(probabilities: other, label: 7))
        for kept in [sure, crossed, otherRunnerUp] {
            #expect(read([kept]) == [kept.prediction!])
        }
        let doubted = piece(one: 0.3, seven: 0.68)
        #expect(read([doubted], besideCrossedSeven: false) == [doubted.prediction!])
        // the crossed 7 beside it read at 0.8: not sure enough to say how the writer writes
        let unsureCrossed = piece(one: 0.15, seven: 0.8, crossed: true)
        #expect(CrossedSevens.reading([[unsureCrossed, doubted]])[0][1].prediction == doubted.prediction)
    }

    @Test("A 1 the model doubts against 7 keeps its 1, sure of the two together")
    func doubtedOne() throws {
        let read = try #require(read([piece(one: 0.55, seven: 0.4)]).first)
        #expect(read.label == 1 && abs(read.confidence - 0.95) < 1e-5)
    }
}
