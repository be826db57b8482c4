import DocumentImaging
import ImagingCore
import Testing

/// Pixel operations on binary images, checked against their definitions.
@Suite("Binary image operations")
struct BinaryImageTests {
    func random(width: Int, height: Int, seed: UInt32) -> BinaryImage {
        var state = seed
        let bits = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 29 == 0 ? 1 : 0   // one pixel in eight is ink
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }

    @Test("Dilation sets every pixel with ink among its 3x3 neighbours, at the edges too",
          arguments: [(31, 17), (1, 9), (9, 1), (1, 1), (2, 2)])
    func dilation(size: (Int, Int)) {
        let (w, h) = size
        let image = random(width: w, height: h, seed: UInt32(w * 100 + h))
        var expected = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var ink = false
                for dy in -1...1 { for dx in -1...1 where image.isInk(x + dx, y + dy) { ink = true } }
                expected[y * w + x] = ink ? 1 : 0
            }
        }
        #expect(image.dilated().bits == expected)
    }

    @Test("Local-mean thresholds: ink where the pixel is under (100 − percent) % of its clipped window's mean")
    func localMean() {
        var state: UInt32 = 5
        let w = 29, h = 21
        let pixels = (0..<(w * h)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let image = GrayImage(width: w, height: h, pixels: pixels)
        let percents = [15.0, 5, 0]
        let found = image.localMeanBinarizations(window: 9, percents: percents)
        for (k, percent) in percents.enumerated() {
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0, n = 0
                    for yy in max(0, y - 4)..<min(h, y + 5) {
                        for xx in max(0, x - 4)..<min(w, x + 5) { sum += Int(pixels[yy * w + xx]); n += 1 }
                    }
                    let ink = Double(pixels[y * w + x]) * Double(n) * 100 < Double(sum) * (100 - percent)
                    #expect(found[k].isInk(x, y) == ink, "(\(x), \(y)) at \(percent) %")
                }
            }
            #expect(image.binarized(.localMean(window: 9, percent: percent)) == found[k])
        }
    }

    @Test("Transposed bits list the image column by column")
    func transpose() {
        let image = random(width: 45, height: 38, seed: 7)
        let t = image.transposedBits()
        for y in 0..<38 { for x in 0..<45 { #expect(t[x * 38 + y] == image.bits[y * 45 + x]) } }
    }
}
