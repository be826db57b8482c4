import Foundation
import ImageCodecs
import ImagingCore
import Testing

@Suite("Decoding every supported variant against a reference decoder")
struct DecodeTests {
    static let jpegVariants = [
        "jpeg-gray-baseline", "jpeg-gray-progressive", "jpeg-ycbcr-420", "jpeg-ycbcr-444",
        "jpeg-ycbcr-progressive", "jpeg-rgb", "jpeg-cmyk-adobe", "jpeg-ycck-adobe", "jpeg-mpo",
    ]
    static let pngVariants = [
        "png-gray1", "png-gray2", "png-gray4", "png-gray8", "png-gray16", "png-gray8-trns",
        "png-graya8", "png-rgb8", "png-rgb16", "png-rgb8-trns", "png-rgba8", "png-rgba16",
        "png-palette1", "png-palette2", "png-palette4", "png-palette8", "png-palette-trns",
        "png-gray4-interlaced", "png-rgb8-interlaced", "png-rgba8-interlaced",
    ]

    @Test("JPEG variant matches djpeg / libjpeg within ±1", arguments: jpegVariants)
    func jpeg(_ name: String) throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("\(name).jpg"))
        let reference = try Fixtures.pgm("\(name).pgm")
        #expect(loaded.format == .jpeg)
        #expect(loaded.image.width == reference.width && loaded.image.height == reference.height)
        #expect(maxDifference(loaded.image, reference) <= 1)
    }

    @Test("PNG variant matches pngtopam -mix within ±1", arguments: pngVariants)
    func png(_ name: String) throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("\(name).png"))
        let reference = try Fixtures.pgm("\(name).pgm")
        #expect(loaded.format == .png)
        #expect(maxDifference(loaded.image, reference) <= 1)
    }

    @Test("Bytes in memory decode like the file")
    func fromMemory() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("png-rgb8.png"))))
        let loaded = try ImageLoader.decode(bytes, name: "upload")
        #expect(loaded.image == (try ImageLoader.load(path: Fixtures.path("png-rgb8.png"))).image)
    }

    @Test("Format comes from the bytes, not the name")
    func formatByMagic() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("png-gray8.png"))))
        #expect(try ImageLoader.decode(bytes, name: "looks-like.jpg").format == .png)
    }

    @Test("DCT scaling decodes at 1/2, 1/4, 1/8 like djpeg -scale", arguments: [2, 4, 8])
    func dctScaling(_ denominator: Int) throws {
        // 96x48: the largest of 1/1, 1/2, 1/4, 1/8 that fits 96/denominator
        let options = ImageLoadOptions(maxDimension: 96 / denominator)
        let loaded = try ImageLoader.load(path: Fixtures.path("jpeg-scaled.jpg"), options: options)
        let reference = try Fixtures.pgm("jpeg-scaled-1_\(denominator).pgm")
        #expect(loaded.reduction == denominator)
        #expect(loaded.image.width == 96 / denominator && loaded.image.height == 48 / denominator)
        #expect(maxDifference(loaded.image, reference) <= 1)
    }

    @Test("A PNG larger than maxDimension is box-reduced by an integer factor")
    func pngReduction() throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("png-rgb8.png"),
                                          options: ImageLoadOptions(maxDimension: 20))
        #expect(loaded.reduction == 2)
        #expect(loaded.image.width == 20 && loaded.image.height == 12)
    }

    @Test("Each EXIF orientation is applied and reported", arguments: 1...8)
    func exifOrientation(_ value: Int) throws {
        let loaded = try ImageLoader.load(path: Fixtures.path("jpeg-exif-\(value).jpg"))
        let upright = try Fixtures.pgm("jpeg-upright.pgm")
        #expect(loaded.orientation.rawValue == value)
        #expect(loaded.image.width == 32 && loaded.image.height == 16)
        #expect(maxDifference(loaded.image, upright) <= 1)
    }

    @Test("Ignoring the EXIF tag keeps the stored pixels")
    func exifIgnored() throws {
        let options = ImageLoadOptions(appliesExifOrientation: false)
        let loaded = try ImageLoader.load(path: Fixtures.path("jpeg-exif-6.jpg"), options: options)
        #expect(loaded.orientation == .up)
        #expect(loaded.image.width == 16 && loaded.image.height == 32)
    }
}
