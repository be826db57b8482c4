/// Accuracy, confusion, calibration and the most confident mistakes of a classifier on
/// labelled inputs. Labels 0–9 are digits, 10 "not a digit".
public struct ClassifierEvaluation: Sendable {
    /// One misread input.
    public struct Mistake: Sendable {
        /// Index of the input in the evaluated set.
        public let index: Int
        /// The true label.
        public let truth: Int
        /// What the model said and its probability.
        public let predicted: Int, confidence: Float
    }

    /// Number of inputs.
    public let count: Int
    /// confusion[truth][predicted], `classes × classes`.
    public let confusion: [[Int]]
    /// Share of inputs whose predicted label equals the truth.
    public let accuracy: Double
    /// Among inputs labelled as digits: share rejected as non-digits.
    public let digitsRejected: Double
    /// Among inputs labelled non-digit: share rejected (nan when there are none).
    public let nonDigitsRejected: Double
    /// Among digits, accuracy of the best digit with the reject class ignored.
    public let accuracyWithRejectOff: Double
    /// Expected calibration error (15 equal-width confidence bins; Guo et al. 2017).
    public let expectedCalibrationError: Double
    /// Mistakes, most confident first.
    public let mistakes: [Mistake]

    /// Runs `classifier` over `inputs` in batches of `batch` and scores against `labels`;
    /// `secondLookBelow` as in `DigitClassifier.classify` (0: the network's single look).
    /// Complexity: one forward pass per input (five for the unsure ones).
    public init(classifier: DigitClassifier, inputs: [DigitInput], labels: [Int], batch: Int = 64,
                secondLookBelow: Float = DigitClassifier.secondLookBelow) {
        precondition(inputs.count == labels.count, "\(inputs.count) inputs, \(labels.count) labels")
        let classes = classifier.classCount
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: classes), count: classes)
        var mistakes: [Mistake] = []
        var bins = [(count: Int, right: Int, confidence: Double)](repeating: (0, 0, 0), count: 15)
        var digits = 0, digitsRejected = 0, rejectOffRight = 0, nonDigits = 0, nonDigitsRejected = 0
        for start in stride(from: 0, to: inputs.count, by: batch) {
            let end = min(start + batch, inputs.count)
            for (offset, p) in classifier.classify(Array(inputs[start..<end]), secondLookBelow: secondLookBelow).enumerated() {
                let i = start + offset, truth = labels[i]
                precondition(truth >= 0 && truth < classes, "label \(truth) of input \(i) outside 0..<\(classes)")
                confusion[truth][p.label] += 1
                if p.label != truth {
                    mistakes.append(Mistake(index: i, truth: truth, predicted: p.label, confidence: p.confidence))
                }
                let bin = min(14, Int(Double(p.confidence) * 15))
                bins[bin].count += 1
                bins[bin].right += p.label == truth ? 1 : 0
                bins[bin].confidence += Double(p.confidence)
                if truth < 10 {
                    digits += 1
                    digitsRejected += p.isRejected ? 1 : 0
                    rejectOffRight += p.bestDigit.digit == truth ? 1 : 0
                } else {
                    nonDigits += 1
                    nonDigitsRejected += p.isRejected ? 1 : 0
                }
            }
        }
        count = inputs.count
        self.confusion = confusion
        accuracy = Double((0..<classes).map { confusion[$0][$0] }.reduce(0, +)) / Double(max(1, count))
        self.digitsRejected = Double(digitsRejected) / Double(max(1, digits))
        self.nonDigitsRejected = nonDigits == 0 ? .nan : Double(nonDigitsRejected) / Double(nonDigits)
        accuracyWithRejectOff = Double(rejectOffRight) / Double(max(1, digits))
        let total = Double(max(1, inputs.count))
        expectedCalibrationError = bins.reduce(0.0) { sum, b in
            sum + abs(Double(b.right) - b.confidence) / total
        }
        self.mistakes = mistakes.sorted { $0.confidence > $1.confidence }
    }
}
