import ImageCodecs
@testable import ScanReader
import Testing

/// The size photos are read at: JPEG DCT scaling by halves puts the working copy between
/// half the working size and all of it, and the common phone sizes where thin lines and
/// small digits stay legible.
@Suite("The working copy's size for common photo sizes")
struct WorkingSizeTests {
    func working(_ longerSide: Int) -> Int {
        let d = ImageLoader.dctDenominator(longerSide: longerSide, maxDimension: ReadOptions().workingSize)
        return (longerSide + d - 1) / d
    }

    @Test("Every photo larger than the working size is read at more than half of it",
          arguments: [1701, 2048, 2592, 3264, 3400, 4032, 4160, 4608, 6000, 8000, 12000])
    func withinBand(longerSide: Int) {
        let size = working(longerSide), limit = ReadOptions().workingSize
        #expect(size <= limit && 2 * size > limit, "\(longerSide) px read at \(size)")
    }

    @Test("An 8 MP phone photo (3264 px) is read at 1632 px, not 816; 12 MP (4032) at 1008")
    func phoneSizes() {
        #expect(working(3264) == 1632)
        #expect(working(4032) == 1008)
        #expect(working(1600) == 1600)   // no larger than the working size: as it is
    }

    @Test("The DCT denominator: least reduction within the limit, 1/8 at most, none without a limit")
    func denominator() {
        #expect(ImageLoader.dctDenominator(longerSide: 100, maxDimension: 100) == 1)
        #expect(ImageLoader.dctDenominator(longerSide: 101, maxDimension: 100) == 2)
        #expect(ImageLoader.dctDenominator(longerSide: 100_000, maxDimension: 100) == 8)
        #expect(ImageLoader.dctDenominator(longerSide: 5000, maxDimension: nil) == 1)
    }
}
