import DigitClassifier
import DocumentImaging

extension InkCrop {
    /// The digit model's input for this crop (the preprocessing contract,
    /// `DigitInput.normalized`).
    var modelInput: DigitInput {
        DigitInput.normalized(ink: ink, width: box.width, height: box.height)
    }
}
