import DigitClassifier
import ImageCodecs
import ImagingCore

/// Renders classifier inputs as a PNG contact sheet, each tile labelled.
public enum MistakeGallery {
    /// PNG bytes: tiles of 28×28 inputs scaled ×3, in rows of `columns`, each with its
    /// caption (e.g. "7>1 99%") underneath.
    public static func png(inputs: [DigitInput], captions: [String], columns: Int = 5)
        throws(ImageLoadError) -> [UInt8]
    {
        precondition(inputs.count == captions.count, "\(inputs.count) inputs, \(captions.count) captions")
        let scale = 3, tileW = 120, tileH = 28 * scale + 26
        let rows = max(1, (inputs.count + columns - 1) / columns)
        var canvas = RGBCanvas(width: tileW * columns, height: tileH * rows, fill: .white)
        for (i, input) in inputs.enumerated() {
            let ox = (i % columns) * tileW + (tileW - 28 * scale) / 2, oy = (i / columns) * tileH + 2
            for y in 0..<28 {
                for x in 0..<28 {
                    let v = 255 - input.pixels[y * 28 + x]   // ink dark on white
                    canvas.fillRect(x: ox + x * scale, y: oy + y * scale, width: scale, height: scale,
                                    RGBCanvas.Color(v, v, v))
                }
            }
            canvas.strokeRect(x: ox - 1, y: oy - 1, width: 28 * scale + 2, height: 28 * scale + 2, .blue)
            canvas.text(captions[i], x: (i % columns) * tileW + 6, y: oy + 28 * scale + 6,
                        scale: 2, color: .white, background: .red)
        }
        return try PNGEncoder.encode(canvas)
    }
}
