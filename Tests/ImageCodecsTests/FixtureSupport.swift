import Foundation
import ImagingCore
import Testing

/// The committed fixtures (made by Scripts/make-codec-fixtures.py).
enum Fixtures {
    static let directory: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Reads a binary 8-bit PGM (P5) reference decode.
    static func pgm(_ name: String) throws -> GrayImage {
        let data = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
        var fields: [Int] = [], at = 2
        precondition(data[0] == 0x50 && data[1] == 0x35, "\(name) is not a P5 PGM")
        while fields.count < 3 {
            while data[at] == 0x20 || data[at] == 0x0A || data[at] == 0x0D || data[at] == 0x09 { at += 1 }
            var value = 0
            while (0x30...0x39).contains(data[at]) { value = value * 10 + Int(data[at] - 0x30); at += 1 }
            fields.append(value)
        }
        precondition(fields[2] == 255, "\(name) must be 8-bit")
        let (w, h) = (fields[0], fields[1])
        return GrayImage(width: w, height: h, pixels: Array(data[(at + 1)..<(at + 1 + w * h)]))
    }
}

/// The largest absolute difference between two same-sized images.
func maxDifference(_ a: GrayImage, _ b: GrayImage) -> Int {
    precondition(a.width == b.width && a.height == b.height,
                 "sizes differ: \(a.width)x\(a.height) vs \(b.width)x\(b.height)")
    return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
}
