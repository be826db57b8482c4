@testable import DocumentImaging
import ImagingCore
import Testing

/// Free fields and pages: the typical glyph is weighted by ink, ink along the border is
/// no digit. Literal images swept over scale and speck count, with negative controls.
@Suite("Field segmentation")
struct FieldSegmentationTests {
    /// A size × size white region with dark ink where `ink` says.
    func region(size: Int, _ ink: (Int, Int) -> Bool) -> (GrayImage, BinaryImage) {
        var g = GrayImage(width: size, height: size, fill: 235)
        var bits = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size where ink(x, y) { g[x, y] = 30; bits[y * size + x] = 1 }
        }
        return (g, BinaryImage(width: size, height: size, bits: bits))
    }

    /// A ring ("0") centred in the region, 55 % of its size tall, stroke 8 % of its size.
    func ring(_ x: Int, _ y: Int, size: Int) -> Bool {
        let c = Double(size) / 2, rx = 0.2 * Double(size), ry = 0.275 * Double(size), t = 0.08 * Double(size)
        let d = ((Double(x) - c) / rx) * ((Double(x) - c) / rx) + ((Double(y) - c) / ry) * ((Double(y) - c) / ry)
        return d <= 1 && d >= (1 - t / rx) * (1 - t / rx)
    }

    /// `count` separate 2 × 2 specks, 5 px apart, in the left fifth of the region.
    func speck(_ x: Int, _ y: Int, size: Int, count: Int) -> Bool {
        let columns = max(1, (size / 5 - 3) / 5)
        return (0..<count).contains { k in
            let sx = 3 + 5 * (k % columns), sy = 3 + 5 * (k / columns)
            return (x == sx || x == sx + 1) && (y == sy || y == sy + 1)
        }
    }

    @Test("One large digit among specks is the one digit read, whatever the specks and the scale",
          arguments: [100, 200, 400], [0, 12, 40])
    func oneDigitAmongSpecks(size: Int, specks: Int) {
        let (g, b) = region(size: size) { x, y in ring(x, y, size: size) || speck(x, y, size: size, count: specks) }
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: PixelBox(x: 0, y: 0, width: size, height: size))
        #expect(crops.count == 1)
        #expect(crops.first.map { Double($0.box.height) >= 0.5 * Double(size) } ?? false)
    }

    @Test("Ink running along a side of the region (a note's shaded edge) is no digit; the same stroke inside is",
          arguments: [100, 300])
    func inkAlongTheBorder(size: Int) {
        let full = PixelBox(x: 0, y: 0, width: size, height: size)
        let stripWidth = max(3, size / 30)
        // the ring, and a strip down the left edge over 70 % of the height
        let (g, b) = region(size: size) { x, y in
            ring(x, y, size: size) || (x < stripWidth && y > size / 6 && y < size * 5 / 6)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: full).count == 1)
        // control: the same strip a fifth of the way in is a stroke ("1"): two digits
        let (g2, b2) = region(size: size) { x, y in
            ring(x, y, size: size) || (x >= size / 5 - stripWidth && x < size / 5 && y > size / 6 && y < size * 5 / 6)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g2, binary: b2, region: full).count == 2)
    }

    @Test("The typical height is weighted by ink: many specks do not set it, a few large glyphs do")
    func typicalHeight() {
        let digit = Component(box: PixelBox(x: 10, y: 10, width: 40, height: 60), area: 900, label: 1)
        let specks = (0..<50).map { Component(box: PixelBox(x: $0, y: 0, width: 2, height: 2), area: 4, label: Int32($0 + 2)) }
        #expect(DigitSegmenter.typicalHeight([digit] + specks) == 60)
        let small = Component(box: PixelBox(x: 60, y: 10, width: 20, height: 30), area: 200, label: 99)
        #expect(DigitSegmenter.typicalHeight([digit, digit, small] + specks) == 60)
    }

    @Test("A comb's ticks standing on the bottom edge between the digits are no digits; a 1 clear of the edge is",
          arguments: [120, 300])
    func combTicks(size: Int) {
        let full = PixelBox(x: 0, y: 0, width: size, height: size)
        let stroke = max(2, size / 40)
        // the ring, and two ticks rising from the bottom edge 45 % of the way up
        let tick = { (x: Int, y: Int) in
            (abs(x - size / 10) < stroke || abs(x - size * 9 / 10) < stroke) && y > size * 55 / 100
        }
        let (g, b) = region(size: size) { x, y in ring(x, y, size: size) || tick(x, y) }
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: full).count == 1)
        // control: the same strokes lifted off the edge (a short 1 beside the 0) are read
        let (g2, b2) = region(size: size) { x, y in
            ring(x, y, size: size) || (abs(x - size / 10) < stroke && y > size * 30 / 100 && y < size * 75 / 100)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g2, binary: b2, region: full).count == 2)
    }
}
