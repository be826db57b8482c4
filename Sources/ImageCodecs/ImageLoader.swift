internal import CImageCodecs
public import ImagingCore

/// How to load an image.
public struct ImageLoadOptions: Sendable {
    /// Header dimensions above this many pixels are refused before any pixel buffer is
    /// allocated (default 120 megapixels).
    public var maxPixels: Int
    /// When set, a JPEG is decoded at 1/2, 1/4 or 1/8 size by libjpeg's DCT scaling (the
    /// largest that fits) so its longer side is at most this; a PNG is box-reduced by an
    /// integer factor after decoding. nil: full size.
    public var maxDimension: Int?
    /// Apply the EXIF orientation tag (default true); false reads the stored pixels as is.
    public var appliesExifOrientation: Bool
    /// Files larger than this many bytes are refused before they are read (default 256 MiB;
    /// a 120-megapixel JPEG is rarely above 60 MB).
    public var maxBytes: Int
    /// When set, each decode reserves the memory it will need here before the decoder
    /// allocates, and is refused when that could never fit. nil: no budget.
    public var memoryBudget: MemoryBudget?
    /// When set, a colour image's chroma is kept too (`LoadedImage.chroma`), as means over
    /// squares of this many output pixels. nil: luminance only.
    public var chromaBlock: Int?

    /// Options with the defaults described on each property.
    public init(maxPixels: Int = 120_000_000, maxDimension: Int? = nil,
                appliesExifOrientation: Bool = true, maxBytes: Int = 256 << 20,
                memoryBudget: MemoryBudget? = nil, chromaBlock: Int? = nil) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.appliesExifOrientation = appliesExifOrientation
        self.maxBytes = maxBytes
        self.memoryBudget = memoryBudget
        self.chromaBlock = chromaBlock
    }
}

/// A decoded, upright, 8-bit luminance image and how it was obtained.
public struct LoadedImage: Sendable {
    /// The upright pixels.
    public var image: GrayImage
    /// The encoding the bytes were in.
    public var format: ImageFormat
    /// The EXIF orientation that was applied (`.up` when none was present or applied).
    public var orientation: ExifOrientation
    /// Width × height stored in the file's header, before scaling and orientation.
    public var storedSize: (width: Int, height: Int)
    /// The linear reduction applied while decoding (1 = full size, 2, 4, 8 …).
    public var reduction: Int
    /// The photo's colour going with `image` (upright likewise), when the options asked
    /// for it and the file has colour (a YCbCr JPEG, an RGB or palette PNG); nil otherwise.
    public var chroma: ChromaPlanes? = nil
}

/// Decodes JPEG and PNG into upright gray images through libjpeg-turbo and libpng.
///
/// Thread-safe: each call owns its decoder. Errors are `ImageLoadError` values that name
/// the file; corrupt data never crashes or exits the process.
public enum ImageLoader {
    /// Loads the image at `path`.
    /// - Throws: `ImageLoadError` (`fileNotFound`, `unreadable`, `notARegularFile`,
    ///   `emptyFile`, `fileTooLarge`, `unsupportedFormat`, `corrupt`, `tooLarge`,
    ///   `outOfMemory`).
    /// - Complexity: O(file size + pixels).
    public static func load(path: String, options: ImageLoadOptions = .init())
        throws(ImageLoadError) -> LoadedImage
    {
        try decode(FileBytes.read(path, limit: options.maxBytes), name: path, options: options)
    }

    /// Decodes an image held in memory; `name` is used in error messages.
    /// - Throws: `ImageLoadError` as `load(path:options:)` except the file codes.
    public static func decode(_ bytes: [UInt8], name: String,
                              options: ImageLoadOptions = .init())
        throws(ImageLoadError) -> LoadedImage
    {
        if bytes.isEmpty {
            throw ImageLoadError(.emptyFile, path: name, "empty file (0 bytes)")
        }
        guard let format = ImageFormat.sniff(bytes) else {
            throw ImageLoadError(.unsupportedFormat, path: name,
                                 "not a JPEG or PNG (unrecognised leading bytes)")
        }
        let result: Result<LoadedImage, ImageLoadError> = bytes.withUnsafeBytes { raw in
            do {
                switch format {
                case .jpeg: return .success(try decodeJPEG(raw, name: name, options: options))
                case .png: return .success(try decodePNG(raw, name: name, options: options))
                }
            } catch let error as ImageLoadError {
                return .failure(error)
            } catch {
                return .failure(ImageLoadError(.corrupt, path: name, "\(error)"))
            }
        }
        return try result.get()
    }

    private static func check(_ width: Int, _ height: Int, name: String,
                              options: ImageLoadOptions) throws(ImageLoadError) {
        guard width > 0, height > 0 else {
            throw ImageLoadError(.corrupt, path: name, "header declares a \(width)x\(height) image")
        }
        if width.multipliedReportingOverflow(by: height).partialValue > options.maxPixels {
            throw ImageLoadError(.tooLarge, path: name,
                                 "\(width)x\(height) is more than the limit of "
                                 + "\(options.maxPixels) pixels")
        }
    }

    /// Reserves `bytes` in the options' budget (if any) for the decode about to run; the
    /// caller releases them with `giveBack`.
    private static func reserve(_ bytes: Int, name: String, options: ImageLoadOptions)
        throws(ImageLoadError)
    {
        guard let budget = options.memoryBudget else { return }
        guard budget.reserve(bytes) else {
            throw ImageLoadError(.tooLarge, path: name,
                                 "decoding needs about \(megabytes(bytes)) MB, more than the memory "
                                 + "budget of \(megabytes(budget.capacity)) MB")
        }
    }

    private static func giveBack(_ bytes: Int, options: ImageLoadOptions) {
        options.memoryBudget?.release(bytes)
    }

    private static func megabytes(_ bytes: Int) -> Int { (bytes + 999_999) / 1_000_000 }

    private static func error(from status: sr_status, name: String) -> ImageLoadError {
        let message = withUnsafeBytes(of: status.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        switch status.code {
        case SR_OUT_OF_MEMORY: return ImageLoadError(.outOfMemory, path: name, message)
        case SR_UNSUPPORTED: return ImageLoadError(.unsupportedFormat, path: name, message)
        default: return ImageLoadError(.corrupt, path: name, message)
        }
    }

    private static func decodeJPEG(_ raw: UnsafeRawBufferPointer, name: String,
                                   options: ImageLoadOptions) throws(ImageLoadError)
        -> LoadedImage
    {
        let base = raw.bindMemory(to: UInt8.self).baseAddress!
        var status = sr_status()
        var width: UInt32 = 0, height: UInt32 = 0, progressive: Int32 = 0
        var color = SR_JPEG_OTHER
        guard let decoder = sr_jpeg_open(base, raw.count, &width, &height, &color,
                                         &progressive, &status) else {
            throw error(from: status, name: name)
        }
        defer { sr_jpeg_close(decoder) }
        try check(Int(width), Int(height), name: name, options: options)
        let denominator = UInt32(dctDenominator(longerSide: Int(max(width, height)), maxDimension: options.maxDimension))
        var outWidth: UInt32 = 0, outHeight: UInt32 = 0
        guard sr_jpeg_set_scale(decoder, denominator, &outWidth, &outHeight, &status) != 0 else {
            throw error(from: status, name: name)
        }
        let count = Int(outWidth) * Int(outHeight)
        let block = max(1, options.chromaBlock ?? 1)
        let (chromaWidth, chromaHeight) = ((Int(outWidth) + block - 1) / block, (Int(outHeight) + block - 1) / block)
        let chromaCount = options.chromaBlock == nil ? 0 : chromaWidth * chromaHeight
        // the file, the decoder's buffers, the output and its turned copy, a colour row
        // and the chroma planes and their turned copies
        let need = raw.count + sr_jpeg_working_bytes(decoder) + 2 * count
            + (chromaCount == 0 ? 0 : 3 * Int(outWidth) + 4 * chromaCount)
        try reserve(need, name: name, options: options)
        defer { giveBack(need, options: options) }
        if let budget = options.memoryBudget { sr_jpeg_set_memory_limit(decoder, budget.capacity) }
        let (pixels, chroma) = try decoded(count: count, chroma: (chromaWidth, chromaHeight, chromaCount),
                                           scale: Double(block), name: name) { px, cb, cr, hasChroma, status in
            chromaCount == 0 ? sr_jpeg_decode_gray(decoder, px, count, status)
                : sr_jpeg_decode_gray_chroma(decoder, px, count, UInt32(block), cb, cr, chromaCount, hasChroma, status)
        }
        let image = GrayImage(width: Int(outWidth), height: Int(outHeight), pixels: pixels)
        let orientation = options.appliesExifOrientation
            ? ExifReader.orientation(inJPEG: raw) ?? .up : .up
        return LoadedImage(image: image.oriented(orientation), format: .jpeg,
                           orientation: orientation, storedSize: (Int(width), Int(height)),
                           reduction: Int(denominator), chroma: chroma?.oriented(orientation))
    }

    /// The JPEG DCT scaling 1/denominator (1, 2, 4 or 8) a photo whose longer side is
    /// `longerSide` is decoded at: the least reduction that brings it within `maxDimension`
    /// (1/8 at most; no limit: full size). The decoded side so lies between half the limit
    /// and the limit, or is the photo's own.
    public static func dctDenominator(longerSide: Int, maxDimension: Int?) -> Int {
        guard let limit = maxDimension else { return 1 }
        var denominator = 1
        while denominator < 8, (longerSide + denominator - 1) / denominator > limit { denominator *= 2 }
        return denominator
    }

    private static func decodePNG(_ raw: UnsafeRawBufferPointer, name: String,
                                  options: ImageLoadOptions) throws(ImageLoadError)
        -> LoadedImage
    {
        let base = raw.bindMemory(to: UInt8.self).baseAddress!
        var status = sr_status()
        var width: UInt32 = 0, height: UInt32 = 0
        var depth: Int32 = 0, colorType: Int32 = 0, interlaced: Int32 = 0
        guard let decoder = sr_png_open(base, raw.count, &width, &height, &depth, &colorType,
                                        &interlaced, &status) else {
            throw error(from: status, name: name)
        }
        defer { sr_png_close(decoder) }
        try check(Int(width), Int(height), name: name, options: options)
        let count = Int(width) * Int(height)
        var factor = 1
        if let limit = options.maxDimension {
            while (Int(max(width, height)) + factor - 1) / factor > limit { factor += 1 }
        }
        // colour: squares of `chromaBlock` pixels of the reduced image
        let block = max(1, options.chromaBlock ?? 1) * factor
        let (chromaWidth, chromaHeight) = ((Int(width) + block - 1) / block, (Int(height) + block - 1) / block)
        let chromaCount = options.chromaBlock == nil ? 0 : chromaWidth * chromaHeight
        // the file, the full-size gray output and its reduced copy, libpng's rows (a few:
        // interlaced files are decoded pass by pass too), the colour sums and planes
        let rowBytes = Int(width) * pngChannelsBound(colorType: colorType)
        let need = raw.count + 2 * count + 4 * rowBytes + 65536 + 14 * chromaCount
        try reserve(need, name: name, options: options)
        defer { giveBack(need, options: options) }
        let (pixels, chroma) = try decoded(count: count, chroma: (chromaWidth, chromaHeight, chromaCount),
                                           scale: Double(block / factor), name: name) { px, cb, cr, hasChroma, status in
            chromaCount == 0 ? sr_png_decode_gray(decoder, px, count, status)
                : sr_png_decode_gray_chroma(decoder, px, count, UInt32(block), cb, cr, chromaCount, hasChroma, status)
        }
        let image = GrayImage(width: Int(width), height: Int(height), pixels: pixels).reduced(by: factor)
        return LoadedImage(image: image, format: .png, orientation: .up,
                           storedSize: (Int(width), Int(height)), reduction: factor, chroma: chroma)
    }

    /// The pixels `decode` writes into a buffer of `count` bytes and, when `chroma.count`
    /// is not 0, the chroma planes it writes beside them (`chroma.width` × `chroma.height`,
    /// `scale` output pixels a sample; nil when the file has no colour). `decode` gets the
    /// buffers, where to say whether it wrote colour, and the status to fill; it returns
    /// the C shim's result.
    private static func decoded(
        count: Int, chroma: (width: Int, height: Int, count: Int), scale: Double, name: String,
        _ decode: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
                   UnsafeMutablePointer<Int32>, UnsafeMutablePointer<sr_status>) -> Int32
    ) throws(ImageLoadError) -> (pixels: [UInt8], chroma: ChromaPlanes?) {
        var status = sr_status()
        var pixels = [UInt8](repeating: 0, count: count)
        var blue = [UInt8](repeating: 128, count: chroma.count), red = blue
        var hasChroma: Int32 = 0
        let ok = pixels.withUnsafeMutableBufferPointer { px in
            blue.withUnsafeMutableBufferPointer { cb in
                red.withUnsafeMutableBufferPointer { cr in
                    decode(px.baseAddress, cb.baseAddress, cr.baseAddress, &hasChroma, &status)
                }
            }
        }
        guard ok != 0 else { throw error(from: status, name: name) }
        guard hasChroma != 0 else { return (pixels, nil) }
        return (pixels, ChromaPlanes(blueDifference: GrayImage(width: chroma.width, height: chroma.height, pixels: blue),
                                     redDifference: GrayImage(width: chroma.width, height: chroma.height, pixels: red),
                                     scale: scale))
    }

    /// Bytes per pixel of a PNG row once expanded to 8 bits (a tRNS chunk adds alpha).
    private static func pngChannelsBound(colorType: Int32) -> Int {
        switch colorType {
        case 0, 4: return 2     // gray (+ tRNS alpha), gray + alpha
        default: return 4       // RGB, palette (+ tRNS alpha), RGBA
        }
    }
}
