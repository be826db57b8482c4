import Foundation
import ImageCodecs
import ImagingCore

/// A PNG contact sheet of the photos a region evaluation went worst on: each photo
/// upright as the truth has it, the expected regions in green, the reader's in red (its
/// corners carried into the truth's frame), and under it the file, the expected texts
/// (`E`) and the texts read (`R`).
public enum WorstPhotoGallery {
    /// Tile width in pixels; captions wrap to it.
    static let tileWidth = 480
    static let captionScale = 2
    static let captionLines = 4

    /// PNG bytes of up to `limit` photos, worst first (most regions not read exactly,
    /// then most extra regions, then most digits wrong).
    /// - Parameter resolve: turns a truth file name into a path.
    /// - Throws: `ImageLoadError` only from PNG encoding; a photo that cannot be decoded
    ///   is drawn as a gray tile with its caption.
    public static func png(scores: [(PhotoScore, ScanResult)], limit: Int = 24,
                           resolve: (String) -> String) throws(ImageLoadError) -> [UInt8] {
        let worst = scores.filter { $0.0.badness > 0 }.sorted { a, b in
            let wa = a.0.regions.reduce(0) { $0 + $1.digits - $1.digitsRight }
            let wb = b.0.regions.reduce(0) { $0 + $1.digits - $1.digitsRight }
            return (a.0.badness, wa) > (b.0.badness, wb)
        }.prefix(limit)
        let columns = 4, lineHeight = 9 * captionScale + 4
        let imageHeight = tileWidth * 3 / 4, tileHeight = imageHeight + captionLines * lineHeight + 8
        let rows = max(1, (worst.count + columns - 1) / columns)
        var canvas = RGBCanvas(width: columns * tileWidth, height: rows * tileHeight, fill: .white)
        for (i, (score, result)) in worst.enumerated() {
            let ox = (i % columns) * tileWidth, oy = (i / columns) * tileHeight
            drawPhoto(score: score, result: result, path: resolve(score.truth.file), on: &canvas,
                      x: ox, y: oy, width: tileWidth - 6, height: imageHeight)
            let expected = score.truth.regions.map { $0.text.isEmpty ? "-" : $0.text }.joined(separator: " ")
            let read = result.regions.map(\.text).joined(separator: " ")
            let name = (score.truth.file as NSString).lastPathComponent
            let caption = wrap(name.filter { RGBCanvas.canDraw($0) } + " E " + expected, lines: 2)
                + wrap("R " + (result.status == "ok" ? read : "ERR"), lines: captionLines - 2)
            for (k, line) in caption.enumerated() {
                canvas.text(line, x: ox + 4, y: oy + imageHeight + 6 + k * lineHeight, scale: captionScale,
                            color: k < 2 ? .black : .red, background: nil)
            }
        }
        return try PNGEncoder.encode(canvas)
    }

    static func wrap(_ text: String, lines: Int) -> [String] {
        let perLine = (tileWidth - 8) / (6 * captionScale)
        let chars = Array(text)
        return (0..<lines).compactMap { k in
            let start = k * perLine
            guard start < chars.count else { return nil }
            let piece = String(chars[start..<min(chars.count, start + perLine)])
            return k == lines - 1 && chars.count > start + perLine ? String(piece.dropLast()) + ">" : piece
        }
    }

    static func drawPhoto(score: PhotoScore, result: ScanResult, path: String, on canvas: inout RGBCanvas,
                          x: Int, y: Int, width: Int, height: Int) {
        let options = ImageLoadOptions(maxDimension: 2 * max(width, height), appliesExifOrientation: false)
        guard let loaded = try? ImageLoader.load(path: path, options: options),
              let orientation = ExifOrientation(rawValue: score.truth.orientation) else {
            canvas.fillRect(x: x, y: y, width: width, height: height, RGBCanvas.Color(128, 128, 128))
            return
        }
        var image = loaded.image.oriented(orientation)
        let factor = max(1, Int((max(Double(image.width) / Double(width), Double(image.height) / Double(height))).rounded(.up)))
        image = image.reduced(by: factor)
        for yy in 0..<image.height { for xx in 0..<image.width {
            let v = image[xx, yy]
            canvas.plot(x + xx, y + yy, RGBCanvas.Color(v, v, v))
        } }
        // truth pixels → tile pixels
        let s = 1 / Double(loaded.reduction * factor)
        func tile(_ p: (Double, Double)) -> (Double, Double) { (Double(x) + p.0 * s, Double(y) + p.1 * s) }
        for region in score.truth.regions where region.kind != "page" {
            canvas.polygon(region.corners.map { tile(($0[0], $0[1])) }, .green, thickness: 3)
        }
        for region in result.regions where region.kind != "page" {
            let pts = region.corners.map { RegionScorer.toTruthFrame(($0[0], $0[1]), result: result, truth: score.truth) }
            canvas.polygon(pts.map(tile), .red, thickness: 1)
        }
    }
}
