@testable import DocumentImaging
import ImagingCore
import Testing

@Suite("Cell segmentation")
struct SegmentationTests {
    /// A 60×60 cell whose columns take the given grey levels (left, band, right).
    func cell(left: UInt8, band: UInt8, right: UInt8) -> GrayImage {
        var g = GrayImage(width: 60, height: 60, fill: left)
        for y in 0..<60 {
            for x in 27..<33 { g[x, y] = band }
            for x in 33..<60 { g[x, y] = right }
        }
        return g
    }

    @Test("The dark side of a lighting edge is not a stroke; a stroke between light paper is")
    func shadowEdge() {
        let inner = PixelBox(x: 5, y: 5, width: 50, height: 50)
        let band = PixelBox(x: 27, y: 5, width: 6, height: 50)
        #expect(DigitSegmenter.isShadowEdge(band, in: cell(left: 200, band: 120, right: 125), inner: inner))
        #expect(!DigitSegmenter.isShadowEdge(band, in: cell(left: 200, band: 60, right: 195), inner: inner))
        // a short mark is never taken for an edge
        let short = PixelBox(x: 27, y: 15, width: 6, height: 30)
        #expect(!DigitSegmenter.isShadowEdge(short, in: cell(left: 200, band: 120, right: 125), inner: inner))
    }
}
