@testable import DigitClassifier
import Foundation
import Testing

@Suite("The glyph-turn model")
struct GlyphTurnTests {
    static let modelPath = Shipped.root.appendingPathComponent("Models/glyph-turn.safetensors").path

    /// The fixture's crops: 24 upright glyphs (12 MNIST test digits, 12 held-out font
    /// digits), then the same turned one, two and three quarter turns clockwise.
    static func fixture() throws -> (inputs: [DigitInput], logits: [[Double]]) {
        let fixture = try Shipped.json("turn_fixture.json")
        let inputs = (fixture["inputs"] as! [String]).map { DigitInput(normalizedPixels: Shipped.bytes(base64: $0)) }
        return (inputs, fixture["logits"] as! [[Double]])
    }

    @Test("Logits match PyTorch within 1e-4, with every kernel set (widths that pad the kernels' panels)",
          arguments: KernelSet.supported.map(\.name))
    func logitsMatchPyTorch(kernels: String) throws {
        let (inputs, expected) = try Self.fixture()
        #expect(inputs.count == 96)
        let set = KernelSet.supported.first { $0.name == kernels }!
        let model = try GlyphTurnClassifier(safetensors: [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.modelPath))),
                                            name: Self.modelPath, kernels: set)
        for batch in [inputs.count, 1, 13] {
            let worst = Shipped.largestDifference(inputs, expected: expected, classes: GlyphTurnClassifier.classes,
                                                  batch: batch, logits: model.logits)
            #expect(worst < 1e-4, "batch \(batch): largest difference \(worst)")
        }
    }

    @Test("Each group of turned glyphs votes for its own turn; single glyphs mostly do")
    func votes() throws {
        let (inputs, _) = try Self.fixture()
        let model = try GlyphTurnClassifier(contentsOf: Self.modelPath)
        let evidence = model.turnEvidence(inputs)
        for row in evidence {   // probabilities: each row's exponentials sum to at most 1
            #expect(row.allSatisfy { $0 <= 0 } && row.reduce(0) { $0 + Foundation.exp($1) } <= 1.0001)
        }
        var right = 0
        for turn in 0..<4 {
            let group = evidence[(turn * 24)..<((turn + 1) * 24)]
            right += group.filter { row in row.indices.max { row[$0] < row[$1] } == turn }.count
            let total = (0..<4).map { k in group.reduce(0.0) { $0 + $1[k] } }
            #expect(total.indices.max { total[$0] < total[$1] } == turn, "turn \(turn): \(total)")
        }
        #expect(right >= 80, "\(right) of 96 single glyphs")   // 0, 1, 8, 6/9 can't tell a half turn
    }

    @Test("A ruling cross and an empty crop say nothing: their evidence is nearly even")
    func noTurnShown() throws {
        let model = try GlyphTurnClassifier(contentsOf: Self.modelPath)
        var cross = [UInt8](repeating: 0, count: 784)
        for i in 4..<24 { cross[14 * 28 + i] = 255; cross[i * 28 + 14] = 255 }
        for input in [DigitInput(normalizedPixels: cross), DigitInput(normalizedPixels: [UInt8](repeating: 0, count: 784))] {
            let row = model.turnEvidence([input])[0]
            #expect(row.max()! - row.min()! < 0.7, "\(row)")   // under 2 to 1 between any two turns
        }
    }

    @Test("A model with the wrong number of outputs is refused, naming the file")
    func wrongModel() throws {
        #expect(throws: ModelLoadError.self) { try GlyphTurnClassifier(contentsOf: Shipped.modelPath) }
    }
}
