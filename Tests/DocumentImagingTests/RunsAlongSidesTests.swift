import DocumentImaging
import ImagingCore
import Testing

/// Ink lying along a given side and stretched along it is cleared (`BinaryImage
/// .clearingRuns`); ink across it, beyond its band, or no longer along it than across stays.
@Suite("Ink running along a side is cleared")
struct RunsAlongSidesTests {
    /// A 400 × 400 image with `bars` inked: (x, y, width, height).
    func image(_ bars: [(Int, Int, Int, Int)]) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: 400 * 400)
        for (x0, y0, w, h) in bars {
            for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { bits[y * 400 + x] = 1 } }
        }
        return BinaryImage(width: 400, height: 400, bits: bits)
    }

    /// The side x = 300 from y = 50 to 350, 12 px either side.
    let side = BinaryImage.Side(a: Point(300, 50), b: Point(300, 350), band: 12)

    @Test("A bar along the side, on it or a few pixels inside, is cleared; slanting sides too",
          arguments: [(296, 100, 8, 60), (290, 200, 6, 120), (303, 60, 5, 20)])
    func barAlongSide(bar: (Int, Int, Int, Int)) {
        let cleared = image([bar]).clearingRuns(along: [side], elongation: 3)
        #expect(!cleared.bits.contains(1))
        // the same against a slanting side through it
        let slanting = BinaryImage.Side(a: Point(Double(bar.0) - 6, 40), b: Point(Double(bar.0) + 14, 360), band: 12)
        #expect(!image([bar]).clearingRuns(along: [slanting], elongation: 3).bits.contains(1))
    }

    @Test("Control: a bar across the side, one beyond the band, a blob on it and a bar past its end stay",
          arguments: [(260, 100, 80, 8), (250, 100, 8, 60), (292, 150, 16, 20), (296, 360, 8, 30)])
    func kept(bar: (Int, Int, Int, Int)) {
        let ink = image([bar])
        #expect(ink.clearingRuns(along: [side], elongation: 3) == ink)
    }
}
