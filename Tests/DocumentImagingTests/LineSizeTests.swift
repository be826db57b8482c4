@testable import DocumentImaging
import ImagingCore
import Testing

/// A page or field holding numbers of different sizes on different lines: each line is
/// judged against its own typical glyph, not the region's largest.
@Suite("Lines of glyphs judged by their own size")
struct LineSizeTests {
    /// A width × height white region with a line of `count` rings ("0") of height `h` at
    /// vertical centre `cy`, for each line given.
    func page(width: Int, height: Int, lines: [(count: Int, h: Double, cy: Double)]) -> (GrayImage, BinaryImage) {
        var g = GrayImage(width: width, height: height, fill: 235)
        var bits = [UInt8](repeating: 0, count: width * height)
        for line in lines {
            let rx = 0.36 * line.h, ry = 0.5 * line.h, t = 0.14 * line.h, pitch = 1.0 * line.h
            let x0 = (Double(width) - pitch * Double(line.count)) / 2 + pitch / 2
            for k in 0..<line.count {
                let cx = x0 + pitch * Double(k)
                for y in max(0, Int(line.cy - ry) - 1)..<min(height, Int(line.cy + ry) + 2) {
                    for x in max(0, Int(cx - rx) - 1)..<min(width, Int(cx + rx) + 2) {
                        let d = ((Double(x) - cx) / rx) * ((Double(x) - cx) / rx) + ((Double(y) - line.cy) / ry) * ((Double(y) - line.cy) / ry)
                        if d <= 1 && d >= (1 - t / rx) * (1 - t / rx) { g[x, y] = 30; bits[y * width + x] = 1 }
                    }
                }
            }
        }
        return (g, BinaryImage(width: width, height: height, bits: bits))
    }

    @Test("Two large digits and a line of five at a third to half their size: all seven read",
          arguments: [400, 800], [0.34, 0.45])
    func smallerLineRead(width: Int, share: Double) {
        let big = 0.3 * Double(width)
        let (g, b) = page(width: width, height: width, lines: [(2, big, 0.28 * Double(width)), (5, share * big, 0.7 * Double(width))])
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: PixelBox(x: 0, y: 0, width: width, height: width))
        #expect(crops.count == 7)
        // reading order: the large line first
        #expect(crops.prefix(2).allSatisfy { Double($0.box.height) > 0.9 * big })
    }

    @Test("Control: a line of glyphs under a third of the large digits' size stays specks", arguments: [400, 800])
    func tinyLineIgnored(width: Int) {
        let big = 0.3 * Double(width)
        let (g, b) = page(width: width, height: width, lines: [(2, big, 0.28 * Double(width)), (5, 0.2 * big, 0.7 * Double(width))])
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: PixelBox(x: 0, y: 0, width: width, height: width))
        #expect(crops.count == 2)
    }
}
