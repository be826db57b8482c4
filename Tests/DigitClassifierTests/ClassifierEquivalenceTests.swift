@testable import DigitClassifier
import Foundation
import Testing

/// The repository's shipped model and the fixtures the training code wrote for it.
enum Shipped {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let modelPath = root.appendingPathComponent("Models/digits-lenet.safetensors").path
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func bytes(base64 text: String) -> [UInt8] { [UInt8](Data(base64Encoded: text)!) }

    /// The largest difference between `expected` (a row per input) and the logits
    /// `logits` gives for the inputs taken `batch` at a time (`classes` per row).
    static func largestDifference(_ inputs: [DigitInput], expected: [[Double]], classes: Int, batch: Int,
                                  logits: ([DigitInput]) -> [Float]) -> Double {
        var all: [Float] = []
        for start in stride(from: 0, to: inputs.count, by: batch) {
            all += logits(Array(inputs[start..<min(start + batch, inputs.count)]))
        }
        var worst = 0.0
        for (n, row) in expected.enumerated() {
            for (j, value) in row.enumerated() { worst = max(worst, abs(Double(all[n * classes + j]) - value)) }
        }
        return worst
    }
}

@Suite("The Swift engine computes what PyTorch computed")
struct ClassifierEquivalenceTests {
    @Test("Logits match PyTorch within 1e-4 on the committed fixture, with every kernel set",
          arguments: KernelSet.supported.map(\.name))
    func logitsMatchPyTorch(kernels: String) throws {
        let fixture = try Shipped.json("logits_fixture.json")
        let inputs = (fixture["inputs"] as! [String]).map {
            DigitInput(normalizedPixels: Shipped.bytes(base64: $0))
        }
        let expected = (fixture["logits"] as! [[Double]])
        #expect(inputs.count >= 100)
        let set = KernelSet.supported.first { $0.name == kernels }!
        let model = try DigitClassifier(
            safetensors: [UInt8](Data(contentsOf: URL(fileURLWithPath: Shipped.modelPath))),
            name: Shipped.modelPath, kernels: set)
        #expect(model.kernelName == kernels)
        let classes = model.classCount
        // batch 1, and sizes that leave partial row blocks for every kernel set
        for batch in [inputs.count, 1, 13] {
            let worst = Shipped.largestDifference(inputs, expected: expected, classes: classes, batch: batch,
                                                  logits: model.logits)
            #expect(worst < 1e-4, "batch \(batch): largest difference \(worst)")
        }
    }

    @Test("Probabilities sum to one and the label is the most probable class")
    func predictions() throws {
        let fixture = try Shipped.json("logits_fixture.json")
        let inputs = (fixture["inputs"] as! [String]).prefix(20).map {
            DigitInput(normalizedPixels: Shipped.bytes(base64: $0))
        }
        let model = try DigitClassifier(contentsOf: Shipped.modelPath)
        let expected = (fixture["logits"] as! [[Double]])
        for (n, p) in model.classify(Array(inputs), secondLookBelow: 0).enumerated() {
            #expect(abs(p.probabilities.reduce(0, +) - 1) < 1e-5)
            let argmax = expected[n].indices.max { expected[n][$0] < expected[n][$1] }!
            #expect(p.label == argmax)
        }
    }

    @Test("The preprocessing contract gives the bytes Training/preprocess.py gives")
    func preprocessingMatchesPython() throws {
        let crops = try Shipped.json("preprocess_fixture.json")["crops"] as! [[String: Any]]
        #expect(crops.count >= 20)
        for crop in crops {
            let w = crop["width"] as! Int, h = crop["height"] as! Int
            let ink = Shipped.bytes(base64: crop["ink"] as! String)
            let expected = Shipped.bytes(base64: crop["normalized"] as! String)
            let ours = DigitInput.normalized(ink: ink, width: w, height: h).pixels
            #expect(ours == expected, "\(w)x\(h) crop")
        }
    }

    @Test("No ink gives an all-zero input; a dot lands in the centre")
    func literalCrops() {
        #expect(DigitInput.normalized(ink: [0, 0, 0, 0], width: 2, height: 2).pixels.allSatisfy { $0 == 0 })
        let dot = DigitInput.normalized(ink: [0, 255, 0, 0], width: 2, height: 2)
        // a 1x1 crop scales to 20x20 of 255 and is centred: rows and columns 4...23
        #expect(dot.pixels[4 * 28 + 4] == 255 && dot.pixels[23 * 28 + 23] == 255)
        #expect(dot.pixels[3 * 28 + 3] == 0 && dot.pixels[24 * 28 + 24] == 0)
    }
}

@Suite("One classifier shared by many threads")
struct ClassifierConcurrencyTests {
    @Test("Concurrent batches give exactly the serial logits")
    func concurrentBatches() throws {
        let fixture = try Shipped.json("logits_fixture.json")
        let inputs = (fixture["inputs"] as! [String]).map { DigitInput(normalizedPixels: Shipped.bytes(base64: $0)) }
        let model = try DigitClassifier(contentsOf: Shipped.modelPath)
        // batches of 64 (several convolution chunks and a large fully connected GEMM)
        let batches = (0..<8).map { k in (0..<64).map { inputs[(k * 16 + $0) % inputs.count] } }
        let serial = batches.map { model.logits($0) }
        final class Box: @unchecked Sendable { var results = [[Float]](repeating: [], count: 8); let lock = NSLock() }
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: 96) { i in
            let k = i % 8
            let logits = model.logits(batches[k])
            box.lock.withLock { if box.results[k].isEmpty { box.results[k] = logits } else { precondition(box.results[k] == logits) } }
            #expect(logits == serial[k], "batch \(k) differs when run concurrently")
        }
        #expect(box.results == serial)
    }
}
