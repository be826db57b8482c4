/// The encodings ScanReader reads, recognised by their leading bytes, never by name.
public enum ImageFormat: String, Sendable {
    /// JPEG (JFIF, EXIF, Adobe; MPO files are read as their first image).
    case jpeg
    /// PNG.
    case png

    /// The format whose signature starts `bytes`, or nil.
    public static func sniff<C: Collection<UInt8>>(_ bytes: C) -> ImageFormat? {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }
}
