import ArgumentParser
import Foundation
import ScanReader

/// `scanreader model …`: inspect and check a classifier model.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Inspect or evaluate the digit classifier.",
        subcommands: [Info.self, Evaluate.self])

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the model card and the weights' metadata.")
        @Option(help: "Weights file (safetensors). Default: the shipped model.") var model: String?

        func run() throws {
            let path = ModelLocator.modelPath(explicit: model)
            let classifier = try loadClassifier(path)
            print("weights: \(path)")
            print("classes: \(classifier.classCount) (\(classifier.classCount == 11 ? "0-9 and not-a-digit" : "0-9"))")
            print("kernels: \(classifier.kernelName) (chosen from this CPU)")
            for (key, value) in classifier.metadata.sorted(by: { $0.key < $1.key }) { print("\(key): \(value)") }
            if let card = ModelLocator.modelCard(forModelAt: path) { print("\n" + card) }
        }
    }

    struct Evaluate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Accuracy, confusion matrix and the most confident mistakes on IDX data.",
            discussion: "Images: IDX unsigned bytes, N×28×28, normalized by the preprocessing contract "
                + "(MNIST's own files qualify). Labels: IDX N, 0-9 digits, 10 not a digit.")
        @Option(help: "IDX images file.") var images: String
        @Option(help: "IDX labels file.") var labels: String
        @Option(help: "Weights file (safetensors). Default: the shipped model.") var model: String?
        @Option(help: "Write the 20 most confident mistakes as a PNG gallery here.") var gallery: String?
        @Flag(help: "Score the network alone: no second look at unsure digits (the reader and this command look twice by default).")
        var singleLook = false

        func run() throws {
            let classifier = try loadClassifier(ModelLocator.modelPath(explicit: model))
            let imageFile = try IDXFile(contentsOf: images), labelFile = try IDXFile(contentsOf: labels)
            guard imageFile.dimensions.count == 3, imageFile.dimensions[1] == 28, imageFile.dimensions[2] == 28 else {
                throw ValidationError("\(images): dimensions \(imageFile.dimensions), N×28×28 expected")
            }
            guard labelFile.dimensions == [imageFile.dimensions[0]] else {
                throw ValidationError("\(labels): \(labelFile.dimensions) labels for \(imageFile.dimensions[0]) images")
            }
            let n = imageFile.dimensions[0]
            let inputs = (0..<n).map { DigitInput(normalizedPixels: Array(imageFile.bytes[($0 * 784)..<(($0 + 1) * 784)])) }
            let truth = labelFile.bytes.map(Int.init)
            if let bad = truth.first(where: { $0 >= classifier.classCount }) {
                throw ValidationError("\(labels): label \(bad) but the model has \(classifier.classCount) classes")
            }
            let started = Date()
            let result = ClassifierEvaluation(classifier: classifier, inputs: inputs, labels: truth,
                                              secondLookBelow: singleLook ? 0 : DigitClassifier.secondLookBelow)
            let seconds = Date().timeIntervalSince(started)
            print(report(result, seconds: seconds))
            if let gallery {
                let worst = Array(result.mistakes.prefix(20))
                let png = try MistakeGallery.png(
                    inputs: worst.map { inputs[$0.index] },
                    captions: worst.map { "\(name($0.truth))>\(name($0.predicted)) \(Int(($0.confidence * 100).rounded()))%" })
                try Data(png).write(to: URL(fileURLWithPath: gallery), options: .atomic)
                print("gallery of \(worst.count) mistakes: \(gallery)")
            }
        }

        func name(_ label: Int) -> String { label == DigitClassifier.rejectClass ? "R" : String(label) }

        func report(_ r: ClassifierEvaluation, seconds: Double) -> String {
            var lines: [String] = []
            let pct = { (x: Double) in String(format: "%.2f %%", x * 100) }
            lines.append("inputs: \(r.count)  (\(String(format: "%.0f", Double(r.count) / seconds)) per second)")
            lines.append("accuracy: \(pct(r.accuracy))  (\(r.count - r.mistakes.count) right, \(r.mistakes.count) wrong)")
            lines.append("digits rejected as not-a-digit: \(pct(r.digitsRejected))")
            lines.append("digit accuracy with the reject class ignored: \(pct(r.accuracyWithRejectOff))")
            if !r.nonDigitsRejected.isNaN { lines.append("non-digits rejected: \(pct(r.nonDigitsRejected))") }
            lines.append("expected calibration error (15 bins): \(String(format: "%.4f", r.expectedCalibrationError))")
            lines.append("\nconfusion (rows: truth, columns: predicted; R = not a digit)")
            let classes = r.confusion.count
            lines.append("     " + (0..<classes).map { String(repeating: " ", count: 6 - name($0).count) + name($0) }.joined())
            for t in 0..<classes where r.confusion[t].reduce(0, +) > 0 {
                lines.append(String(repeating: " ", count: 4 - name(t).count) + name(t) + " "
                    + r.confusion[t].map { String(repeating: " ", count: max(0, 6 - String($0).count)) + String($0) }.joined())
            }
            lines.append("\nmost confident mistakes (index: truth > predicted, confidence)")
            for m in r.mistakes.prefix(20) {
                lines.append("  \(m.index): \(name(m.truth)) > \(name(m.predicted)), \(String(format: "%.4f", m.confidence))")
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// A failure the CLI reports in one line and exits 1 for (ArgumentParser prints it).
struct CLIFailure: Error, CustomStringConvertible {
    let description: String
}

/// Loads weights or fails with the loader's message (exit status 1).
func loadClassifier(_ path: String) throws -> DigitClassifier {
    do { return try DigitClassifier(contentsOf: path) } catch {
        throw CLIFailure(description: error.message)
    }
}
