import DocumentImaging
import ImagingCore

/// The pixels of one photo being read: the working copy every stage runs on (decoded
/// reduced, `ReadOptions.workingSize`) and, decoded only when a small region asks for it,
/// a finer copy of the same photo (the next decode scale up) to straighten that region
/// from. A form photographed from afar leaves its boxes a dozen working pixels high:
/// their digits, a few pixels tall there, are legible only in the finer copy.
///
/// Not thread-safe: one photo is read on one task.
final class PhotoPixels {
    /// The working copy: detection, layout and every region not enlarged.
    let image: GrayImage
    /// The photo's colour going with `image`, when the decoder gave it (detection tells
    /// paper from the desk by it too).
    let chroma: ChromaPlanes?
    /// How many finer-copy pixels span one working pixel (1: there is no finer copy).
    let finerScale: Double
    private let decodeFiner: () -> GrayImage?
    private var finerCopy: GrayImage??

    /// `image` with no finer copy (an image decoded at full size, or a test's image).
    convenience init(_ image: GrayImage, chroma: ChromaPlanes? = nil) {
        self.init(image, chroma: chroma, finerScale: 1) { nil }
    }

    /// `image` with a finer copy `finerScale` times its size that `decodeFiner` makes,
    /// called at most once and only when a region needs it.
    init(_ image: GrayImage, chroma: ChromaPlanes? = nil, finerScale: Double, decodeFiner: @escaping () -> GrayImage?) {
        self.image = image
        self.chroma = chroma
        self.finerScale = finerScale
        self.decodeFiner = decodeFiner
    }

    /// The finer copy, decoded on first use; nil when there is none or it could not be
    /// decoded (its size must be the working copy's times `finerScale`, within a pixel).
    var finer: GrayImage? {
        if let known = finerCopy { return known }
        var copy = finerScale > 1 ? decodeFiner() : nil
        if let c = copy, abs(Double(c.width) - Double(image.width) * finerScale) > finerScale
            || abs(Double(c.height) - Double(image.height) * finerScale) > finerScale {
            copy = nil
        }
        finerCopy = .some(copy)
        return copy
    }

    /// The same photo turned `quarterTurns` clockwise; the finer copy, if it is ever
    /// needed, is decoded once for both.
    func turned(quarterTurns: Int) -> PhotoPixels {
        guard quarterTurns % 4 != 0 else { return self }
        return PhotoPixels(image.rotated(quarterTurns: quarterTurns), chroma: chroma?.rotated(quarterTurns: quarterTurns),
                           finerScale: finerScale) { [self] in
            finer?.rotated(quarterTurns: quarterTurns)
        }
    }

    /// `quad` (working coordinates) straightened to `width` × `height` from the finer
    /// copy; nil when there is none (a region is never enlarged by interpolating the
    /// working copy: that reads worse, see the README's session 12).
    func finerRectified(_ quad: Quadrilateral, width: Int, height: Int) -> GrayImage? {
        guard finerScale > 1, let finer else { return nil }
        // working pixel centre i covers finer pixels i·s … i·s + s − 1
        let s = finerScale
        return finer.rectified(quad.mapped { p in Point((p.x + 0.5) * s - 0.5, (p.y + 0.5) * s - 0.5) },
                               width: width, height: height)
    }
}
