@testable import DigitClassifier
import Foundation
import Testing

@Suite("A second look at digits the network is unsure of")
struct SecondLookTests {
    @Test("Shifting moves every pixel by one and brings in paper at the edge")
    func shifting() {
        var pixels = [UInt8](repeating: 0, count: 784)
        for i in 0..<784 { pixels[i] = UInt8(i % 251) }
        let input = DigitInput(normalizedPixels: pixels)
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let moved = input.shifted(dx: dx, dy: dy).pixels
            for y in 0..<28 {
                for x in 0..<28 {
                    let sx = x - dx, sy = y - dy
                    let expected: UInt8 = (0..<28).contains(sx) && (0..<28).contains(sy) ? pixels[sy * 28 + sx] : 0
                    #expect(moved[y * 28 + x] == expected, "shift (\(dx), \(dy)) at (\(x), \(y))")
                }
            }
        }
    }

    @Test("Unsure inputs get the mean of five softmaxes; sure ones and a threshold of 0 one")
    func meanOfShifts() throws {
        let fixture = try Shipped.json("logits_fixture.json")
        let all = (fixture["inputs"] as! [String]).map { DigitInput(normalizedPixels: Shipped.bytes(base64: $0)) }
        let model = try DigitClassifier(contentsOf: Shipped.modelPath)
        let classes = model.classCount
        // the fixture's inputs the network is unsure of, and ten it is sure of
        let first = model.softmax(model.logits(all), count: all.count)
        let unsureIndices = all.indices.filter { first[$0].max()! < DigitClassifier.secondLookBelow }
        let inputs = (unsureIndices + all.indices.filter { !unsureIndices.contains($0) }.prefix(10)).map { all[$0] }
        let single = model.softmax(model.logits(inputs), count: inputs.count)
        #expect(model.classify(inputs, secondLookBelow: 0).map(\.probabilities) == single)
        // a threshold above every probability: every input is looked at five times
        let twice = model.classify(inputs, secondLookBelow: 1.01)
        var unsure = 0
        for (n, input) in inputs.enumerated() {
            let views = [input] + [(1, 0), (-1, 0), (0, 1), (0, -1)].map { input.shifted(dx: $0.0, dy: $0.1) }
            let each = model.softmax(model.logits(views), count: views.count)
            for c in 0..<classes {
                let mean = each.map { $0[c] }.reduce(0, +) / 5
                #expect(abs(twice[n].probabilities[c] - mean) < 1e-6)
            }
            // the default looks twice exactly where the first look was unsure (batches
            // of other sizes may round the last bit differently)
            let byDefault = model.classify([input])[0].probabilities
            let expected = single[n].max()! < DigitClassifier.secondLookBelow ? twice[n].probabilities : single[n]
            unsure += expected == single[n] ? 0 : 1
            #expect(zip(byDefault, expected).allSatisfy { abs($0 - $1) < 1e-6 })
        }
        #expect(unsure > 0, "the fixture holds inputs the network is unsure of")
    }
}
