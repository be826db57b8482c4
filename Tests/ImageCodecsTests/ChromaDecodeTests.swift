import Foundation
import ImageCodecs
import ImagingCore
import Testing

/// The colour a JPEG or PNG carries beside its luminance (`ImageLoadOptions.chromaBlock`),
/// checked against the test card the fixtures were encoded from
/// (Scripts/make-codec-fixtures.py: `colour_pattern`).
@Suite("Chroma planes decoded beside the luminance")
struct ChromaDecodeTests {
    /// The fixtures' 40 × 24 RGB test card, as the script draws it.
    static func card(_ x: Int, _ y: Int) -> (Double, Double, Double) {
        let (w, h) = (40, 24)
        var rgb = (Double(x * 255 / (w - 1)), Double(y * 255 / (h - 1)), Double((x + y) * 255 / (w + h - 2)))
        if (2..<8).contains(y) && (2..<12).contains(x) { rgb = (250, 240, 30) }
        if (w - 6..<w - 3).contains(x) { rgb = (20, 30, 160) }
        if (h - 5..<h - 2).contains(y) && (4..<9).contains(x) { rgb = (200, 20, 20) }
        return rgb
    }

    /// Cb and Cr of the card (scaled up `magnified` times) averaged over each square of
    /// `block` output pixels of a decode at 1/`reduction`.
    static func expected(block: Int, reduction: Int, magnified: Int, width: Int, height: Int) -> (GrayImage, GrayImage) {
        let (cw, ch) = ((width + block - 1) / block, (height + block - 1) / block)
        var blue = GrayImage(width: cw, height: ch), red = GrayImage(width: cw, height: ch)
        let span = block * reduction
        for k in 0..<ch {
            for l in 0..<cw {
                var b = 0.0, r = 0.0, n = 0.0
                for y in (k * span)..<min((k + 1) * span, height * reduction) {
                    for x in (l * span)..<min((l + 1) * span, width * reduction) {
                        let (R, G, B) = card(x / magnified, y / magnified)
                        b += 128 - 0.168736 * R - 0.331264 * G + 0.5 * B
                        r += 128 + 0.5 * R - 0.418688 * G - 0.081312 * B
                        n += 1
                    }
                }
                blue[l, k] = UInt8((b / n).rounded()); red[l, k] = UInt8((r / n).rounded())
            }
        }
        return (blue, red)
    }

    /// The mean absolute difference; infinite for images of different sizes.
    static func meanDifference(_ a: GrayImage, _ b: GrayImage) -> Double {
        guard a.width == b.width && a.height == b.height else { return .infinity }
        return Double(zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.pixels.count)
    }

    @Test("Colour JPEGs give the card's chroma, and the same luminance as without it",
          arguments: ["jpeg-ycbcr-420", "jpeg-ycbcr-444", "jpeg-ycbcr-progressive"])
    func fullSize(_ name: String) throws {
        let plain = try ImageLoader.load(path: Fixtures.path("\(name).jpg"))
        let coloured = try ImageLoader.load(path: Fixtures.path("\(name).jpg"), options: .init(chromaBlock: 4))
        #expect(coloured.image == plain.image)
        let chroma = try #require(coloured.chroma)
        #expect(chroma.scale == 4 && chroma.blueDifference.width == 10 && chroma.blueDifference.height == 6)
        let (blue, red) = Self.expected(block: 4, reduction: 1, magnified: 1, width: 40, height: 24)
        // JPEG at quality 85–90 moves chroma means by a level or two
        #expect(Self.meanDifference(chroma.blueDifference, blue) < 3)
        #expect(Self.meanDifference(chroma.redDifference, red) < 3)
    }

    @Test("DCT-scaled decodes keep the colour of the squares they cover", arguments: [1, 2, 4, 8])
    func scaled(reduction: Int) throws {
        let path = Fixtures.path("jpeg-colour-scaled.jpg")   // the card 4× larger: 160 × 96
        let options = ImageLoadOptions(maxDimension: 160 / reduction, chromaBlock: 4)
        let coloured = try ImageLoader.load(path: path, options: options)
        #expect(coloured.reduction == reduction)
        #expect(coloured.image == (try ImageLoader.load(path: path, options: .init(maxDimension: 160 / reduction))).image)
        let chroma = try #require(coloured.chroma)
        let (blue, red) = Self.expected(block: 4, reduction: reduction, magnified: 4,
                                        width: coloured.image.width, height: coloured.image.height)
        #expect(Self.meanDifference(chroma.blueDifference, blue) < 3)
        #expect(Self.meanDifference(chroma.redDifference, red) < 3)
    }

    @Test("The planes are turned upright with the image (EXIF orientation 6)")
    func oriented() throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("jpeg-colour-exif-6.jpg"), options: .init(chromaBlock: 4))
        #expect(loaded.orientation == .right && loaded.image.width == 40)
        let chroma = try #require(loaded.chroma)
        let (blue, red) = Self.expected(block: 4, reduction: 1, magnified: 1, width: 40, height: 24)
        #expect(Self.meanDifference(chroma.blueDifference, blue) < 3)
        #expect(Self.meanDifference(chroma.redDifference, red) < 3)
    }

    @Test("Files without colour give none", arguments: ["jpeg-gray-baseline", "jpeg-rgb", "jpeg-cmyk-adobe", "jpeg-ycck-adobe"])
    func noColour(_ name: String) throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("\(name).jpg"), options: .init(chromaBlock: 4))
        #expect(loaded.chroma == nil)
        #expect(maxDifference(loaded.image, try Fixtures.pgm("\(name).pgm")) <= 1)
    }

    @Test("Colour PNGs give the card's chroma, whole and reduced", arguments: ["png-rgb8", "png-rgb8-interlaced"], [1, 2])
    func png(_ name: String, reduction: Int) throws {
        let path = Fixtures.path("\(name).png")
        let coloured = try ImageLoader.load(path: path, options: .init(maxDimension: 40 / reduction, chromaBlock: 4))
        #expect(coloured.reduction == reduction)
        #expect(coloured.image == (try ImageLoader.load(path: path, options: .init(maxDimension: 40 / reduction))).image)
        let chroma = try #require(coloured.chroma)
        #expect(chroma.scale == 4)
        let (blue, red) = Self.expected(block: 4, reduction: reduction, magnified: 1,
                                        width: coloured.image.width, height: coloured.image.height)
        // lossless: only rounding apart
        #expect(Self.meanDifference(chroma.blueDifference, blue) < 1)
        #expect(Self.meanDifference(chroma.redDifference, red) < 1)
    }

    @Test("Gray PNGs give no colour", arguments: ["png-gray8", "png-graya8", "png-gray4-interlaced"])
    func grayPNG(_ name: String) throws {
        #expect(try ImageLoader.load(path: Fixtures.path("\(name).png"), options: .init(chromaBlock: 4)).chroma == nil)
    }

    @Test("Without the option no colour is decoded")
    func notAsked() throws {
        #expect(try ImageLoader.load(path: Fixtures.path("jpeg-ycbcr-420.jpg")).chroma == nil)
    }
}
