import ImagingCore

/// Finds the EXIF orientation (tag 0x0112 in IFD0 of the APP1 "Exif" segment) of a JPEG.
///
/// Walks the marker segments before the first scan; handles both TIFF byte orders.
/// Malformed or absent EXIF yields nil: orientation is advisory and never fails a load.
enum ExifReader {
    static func orientation(inJPEG bytes: UnsafeRawBufferPointer) -> ExifOrientation? {
        var at = 2  // after SOI
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }              // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }   // scan or end: too late
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 8 {
                let body = UnsafeRawBufferPointer(rebasing: bytes[(at + 4)..<(at + 2 + length)])
                if body.starts(with: Array("Exif\0\0".utf8)),
                   let value = tiffOrientation(UnsafeRawBufferPointer(rebasing: body[6...])) {
                    return value
                }
            }
            at += 2 + length
        }
        return nil
    }

    private static func tiffOrientation(_ tiff: UnsafeRawBufferPointer) -> ExifOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true     // "II"
        case (0x4D, 0x4D): little = false    // "MM"
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= tiff.count else { return nil }
            let a = Int(tiff[o]), b = Int(tiff[o + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ o: Int) -> Int? {
            guard let hi = u16(little ? o + 2 : o), let lo = u16(little ? o : o + 2) else {
                return nil
            }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let e = ifd + 2 + entry * 12
            guard let tag = u16(e) else { return nil }
            if tag == 0x0112 {
                // type SHORT (3), count 1: the value sits in the first two value bytes
                guard u16(e + 2) == 3, let value = u16(e + 8) else { return nil }
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }
}
