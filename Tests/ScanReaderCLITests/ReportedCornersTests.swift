import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// Corners found on a reduced working image are reported in full-resolution pixels.
@Suite("Reported corners")
struct ReportedCornersTests {
    @Test("A working pixel's centre maps to the centre of the block of pixels it stands for")
    func pixelCentres() {
        let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(99, 0), bottomRight: Point(99, 49),
                                 bottomLeft: Point(0, 49))
        let gray = GrayImage(width: 100, height: 50, fill: 255)
        let region = LaidOutRegion(kind: .field, quad: quad, gray: gray, binary: gray.binarized(), ruling: nil)
        let result = ReadRegion(region: region, pieces: []).result(index: 0, scale: 4, minConfidence: 0.5, unsure: "?")
        // working pixel 0 covers full pixels 0…3 (centre 1.5); pixel 99 covers 396…399
        #expect(result.corners == [[1.5, 1.5], [397.5, 1.5], [397.5, 197.5], [1.5, 197.5]])
        let unscaled = ReadRegion(region: region, pieces: []).result(index: 0, scale: 1, minConfidence: 0.5, unsure: "?")
        #expect(unscaled.corners == [[0, 0], [99, 0], [99, 49], [0, 49]])
    }
}
