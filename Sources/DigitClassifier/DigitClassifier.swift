import Foundation
internal import CDigitKernels

/// What the classifier says about one input.
public struct DigitPrediction: Sendable, Equatable {
    /// Softmax probabilities: indices 0–9 the digits, then the reject class if the model
    /// has one.
    public let probabilities: [Float]
    /// The most probable class: 0–9, or `DigitClassifier.rejectClass`.
    public let label: Int
    /// Its probability.
    public var confidence: Float { probabilities[label] }
    /// True when the model says the crop is not a digit.
    public var isRejected: Bool { label == DigitClassifier.rejectClass }
    /// The same answer among the digits alone: the reject class's probability (if the
    /// model has one) spread over the digits in proportion to theirs.
    public var amongDigits: DigitPrediction {
        excluding([DigitClassifier.rejectClass]).map { p in
            DigitPrediction(probabilities: Array(p.probabilities.prefix(10)), label: p.label)
        } ?? self
    }

    /// The answer when the classes in `excluded` are ruled out: their probability spread
    /// over the other classes (the reject class among them) in proportion to theirs; nil
    /// when those have none.
    public func excluding(_ excluded: Set<Int>) -> DigitPrediction? {
        let kept = probabilities.enumerated().map { excluded.contains($0.offset) ? 0 : $0.element }
        let total = kept.reduce(0, +)
        guard total > 0 else { return nil }
        let p = kept.map { $0 / total }
        return DigitPrediction(probabilities: p, label: p.indices.max { p[$0] < p[$1] }!)
    }

    /// The answer when what the model calls `merged` is known to be `kept`: `merged`'s
    /// probability added to `kept`'s, the label the more probable class after it.
    public func merging(_ merged: Int, into kept: Int) -> DigitPrediction {
        var p = probabilities
        p[kept] += p[merged]
        p[merged] = 0
        return DigitPrediction(probabilities: p, label: p.indices.max { p[$0] < p[$1] }!)
    }

    /// The most probable digit, ignoring the reject class, and its probability.
    public var bestDigit: (digit: Int, probability: Float) {
        let d = (0..<10).max { probabilities[$0] < probabilities[$1] }!
        return (d, probabilities[d])
    }
}

/// The digit CNN: TensorFlow's MNIST tutorial network (conv 5×5×32 → max-pool 2 →
/// conv 5×5×64 → max-pool 2 → fc 1024 → fc 10 or 11, ReLU), run on the CPU.
///
/// Loads safetensors weights (F16 or F32). Thread-safe and immutable after loading:
/// share one instance; concurrent calls run in parallel. It starts no threads; it is
/// meant to be called from the caller's own workers (matrix products by the
/// `CDigitKernels` target, AVX-512, AVX2 or portable, chosen from the CPU).
public final class DigitClassifier: Sendable {
    /// The label of the "not a digit" class in 11-class models.
    public static let rejectClass = 10

    /// Number of output classes (10 or 11).
    public let classCount: Int
    /// The safetensors `__metadata__` (architecture, preprocessing, seed …).
    public let metadata: [String: String]
    let layers: LeNetLayers

    /// Loads weights from a safetensors file.
    /// - Throws: `ModelLoadError` naming the file: unreadable, malformed (truncated,
    ///   not safetensors) or the wrong model (missing tensor, wrong shape or dtype).
    public convenience init(contentsOf path: String) throws(ModelLoadError) {
        try self.init(safetensors: Safetensors.bytes(at: path, what: "the weights file"), name: path)
    }

    /// Loads weights from safetensors bytes; `name` is used in error messages.
    public convenience init(safetensors bytes: [UInt8], name: String) throws(ModelLoadError) {
        try self.init(safetensors: bytes, name: name, kernels: .best)
    }

    /// Loads weights for a given instruction set (tests run every one the CPU has).
    init(safetensors bytes: [UInt8], name: String, kernels: KernelSet) throws(ModelLoadError) {
        let file = try Safetensors(bytes: bytes, path: name)
        guard let classes = file.tensors["fc2.bias"]?.shape.first, classes == 10 || classes == 11 else {
            throw ModelLoadError(.wrongModel, path: name, "fc2.bias must hold 10 or 11 classes")
        }
        classCount = classes
        metadata = file.metadata
        layers = try LeNetLayers(file: file, path: name, widths: .digits, classes: classes, isa: kernels.isa)
    }

    /// Raw scores (before softmax), `inputs.count × classCount`, row per input.
    /// Inputs are scaled bytes/255 as the contract says. Complexity: O(n) GEMMs.
    public func logits(_ inputs: [DigitInput]) -> [Float] {
        layers.forward(inputs)
    }

    /// The name of the instruction set the matrix products use ("avx512", "avx2",
    /// "portable").
    public var kernelName: String { String(cString: dk_isa_name(layers.isa)) }

    /// The top probability below which an input gets a second look (see `classify`).
    public static let secondLookBelow: Float = 0.9

    /// Classifies a batch. Batches of 32–128 amortize the GEMMs best.
    ///
    /// An input whose most probable class has probability below `secondLookBelow` (by
    /// default `DigitClassifier.secondLookBelow`; 0 turns the second look off) gets a
    /// second look: its probabilities become the mean of the network's over the input and
    /// its four one-pixel shifts (left, right, up, down). A digit the network is unsure of
    /// is often one whose strokes sit a pixel off where it learnt them; about 1 % of the
    /// MNIST test digits are looked at twice (measured in Models/digits-lenet.md).
    /// - Complexity: one forward pass per input, five for the unsure ones.
    public func classify(_ inputs: [DigitInput], secondLookBelow threshold: Float = DigitClassifier.secondLookBelow)
        -> [DigitPrediction] {
        var probabilities = softmax(logits(inputs), count: inputs.count)
        let unsure = probabilities.indices.filter { probabilities[$0].max()! < threshold }
        if !unsure.isEmpty {
            let shifts = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            let moved = unsure.flatMap { i in shifts.map { inputs[i].shifted(dx: $0.0, dy: $0.1) } }
            let more = softmax(logits(moved), count: moved.count)
            for (k, i) in unsure.enumerated() {
                var sum = probabilities[i]
                for s in 0..<shifts.count {
                    for c in 0..<classCount { sum[c] += more[k * shifts.count + s][c] }
                }
                probabilities[i] = sum.map { $0 / Float(shifts.count + 1) }
            }
        }
        return probabilities.map { p in
            DigitPrediction(probabilities: p, label: p.indices.max { p[$0] < p[$1] }!)
        }
    }

    /// Row-wise softmax of `count` rows of `classCount` logits.
    func softmax(_ z: [Float], count: Int) -> [[Float]] {
        (0..<count).map { n in
            let row = z[(n * classCount)..<((n + 1) * classCount)]
            let top = row.max()!
            let e = row.map { Foundation.exp($0 - top) }
            let sum = e.reduce(0, +)
            return e.map { $0 / sum }
        }
    }
}

/// The instruction sets the engine can run, for choosing one explicitly.
struct KernelSet: Sendable {
    let isa: dk_isa
    /// The fastest one this CPU runs.
    static let best = KernelSet(isa: dk_best_isa())
    /// Every set this CPU runs, fastest last.
    static var supported: [KernelSet] {
        [DK_PORTABLE, DK_AVX2, DK_AVX512].filter { dk_isa_supported($0) != 0 }.map(KernelSet.init)
    }
    var name: String { String(cString: dk_isa_name(isa)) }
}
