internal import CImageCodecs
public import ImagingCore

/// Writes PNG files (debug drawings, galleries) through libpng.
public enum PNGEncoder {
    /// PNG bytes for 8-bit gray (`channels` 1) or interleaved RGB (`channels` 3) pixels.
    /// - Throws: `ImageLoadError` with code `outOfMemory` or `corrupt` if libpng fails.
    public static func encode(pixels: [UInt8], width: Int, height: Int, channels: Int)
        throws(ImageLoadError) -> [UInt8]
    {
        precondition(channels == 1 || channels == 3, "channels \(channels): 1 or 3")
        precondition(width > 0 && height > 0 && pixels.count == width * height * channels,
                     "\(pixels.count) bytes for \(width)x\(height)x\(channels)")
        var status = sr_status()
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let ok = sr_png_encode(pixels, UInt32(width), UInt32(height), Int32(channels), &out,
                               &size, &status)
        guard ok != 0, let out else {
            let message = withUnsafeBytes(of: status.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw ImageLoadError(status.code == SR_OUT_OF_MEMORY ? .outOfMemory : .corrupt,
                                 path: "<png encoder>", message)
        }
        defer { sr_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// PNG bytes for a gray image.
    public static func encode(_ image: GrayImage) throws(ImageLoadError) -> [UInt8] {
        try encode(pixels: image.pixels, width: image.width, height: image.height, channels: 1)
    }

    /// PNG bytes for a colour canvas.
    public static func encode(_ canvas: RGBCanvas) throws(ImageLoadError) -> [UInt8] {
        try encode(pixels: canvas.pixels, width: canvas.width, height: canvas.height, channels: 3)
    }
}
