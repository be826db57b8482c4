import Foundation
internal import CDigitKernels

/// Which quarter turn a glyph crop shows: a small network of the digit classifier's
/// shape (`Models/glyph-turn.md`) that answers, for a crop in the digit classifier's
/// input form (`DigitInput`), how likely it is an upright glyph turned k = 0…3 quarter
/// turns clockwise, or a crop that shows no turn (a ruling cross, a speck).
///
/// It was trained on glyphs turned uniformly at random, so its answer is the posterior:
/// a glyph that looks the same in two turns (0, 8, 6 against 9) shares the probability
/// between them and adds little to a vote; 2, 3, 4, 5 and 7 decide. Thread-safe and
/// immutable after loading, like `DigitClassifier`.
public final class GlyphTurnClassifier: Sendable {
    /// The quarter turns told apart: 0, 1, 2, 3 clockwise.
    public static let turns = 4
    /// The model's classes: the turns, then "shows no turn".
    public static let classes = turns + 1
    /// The file name the model ships under, beside the digit classifier.
    public static let defaultFileName = "glyph-turn.safetensors"

    /// The safetensors `__metadata__`.
    public let metadata: [String: String]
    let layers: LeNetLayers

    /// Loads weights from a safetensors file.
    /// - Throws: `ModelLoadError` naming the file: unreadable, malformed or not this
    ///   network (five outputs; the layer widths are read from the file).
    public convenience init(contentsOf path: String) throws(ModelLoadError) {
        try self.init(safetensors: Safetensors.bytes(at: path, what: "the glyph-turn weights file"), name: path,
                      kernels: .best)
    }

    /// Loads weights for a given instruction set.
    init(safetensors bytes: [UInt8], name: String, kernels: KernelSet) throws(ModelLoadError) {
        let file = try Safetensors(bytes: bytes, path: name)
        guard let c1 = file.tensors["conv1.bias"]?.shape.first, let c2 = file.tensors["conv2.bias"]?.shape.first,
              let hidden = file.tensors["fc1.bias"]?.shape.first else {
            throw ModelLoadError(.wrongModel, path: name, "the convolution or hidden layer's bias is missing")
        }
        guard file.tensors["fc2.bias"]?.shape == [Self.classes] else {
            throw ModelLoadError(.wrongModel, path: name, "fc2.bias must hold \(Self.classes) classes (4 quarter turns, no turn)")
        }
        metadata = file.metadata
        layers = try LeNetLayers(file: file, path: name, widths: .init(conv1: c1, conv2: c2, hidden: hidden),
                                 classes: Self.classes, isa: kernels.isa)
    }

    /// Raw scores, `inputs.count × 5`, row per input.
    public func logits(_ inputs: [DigitInput]) -> [Float] {
        layers.forward(inputs)
    }

    /// For each input, its evidence for each quarter turn k (an upright glyph turned k
    /// clockwise): log(p(k) + p(no turn) / 4), the probability of "no turn" spread
    /// evenly, so that a ruling cross or a speck says nothing.
    public func turnEvidence(_ inputs: [DigitInput]) -> [[Double]] {
        let z = logits(inputs)
        return (0..<inputs.count).map { n in
            let row = z[(n * Self.classes)..<((n + 1) * Self.classes)].map(Double.init)
            let top = row.max()!
            let e = row.map { Foundation.exp($0 - top) }
            let sum = e.reduce(0, +)
            let spread = e[Self.turns] / Double(Self.turns)
            return (0..<Self.turns).map { Foundation.log((e[$0] + spread) / sum) }
        }
    }
}
