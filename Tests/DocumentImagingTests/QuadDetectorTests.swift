import DocumentImaging
import Foundation
import ImagingCore
import Testing

@Suite("Quad detection on literal images")
struct QuadDetectorTests {
    @Test("A drawn filled quad is found at its corners, rotated in 15° steps through 360°",
          arguments: Array(stride(from: 0.0, to: 360.0, by: 15.0)))
    func rotatedQuad(_ degrees: Double) throws {
        let corners = TestImages.rotatedRectangle(cx: 200, cy: 150, w: 180, h: 120, degrees: degrees)
        let image = TestImages.filledPolygon(corners, width: 400, height: 300)
        let quads = QuadDetector().detect(in: image)
        let quad = try #require(quads.first).quad
        // every true corner has a detected corner within 1.5 px
        for c in corners {
            #expect(quad.corners.map { Polygon.distance($0, c) }.min()! < 1.5, "\(degrees)°: \(quad.corners)")
        }
        // ordering: the top edge runs left to right within ±45°, corners go clockwise
        let angle = atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / .pi
        #expect(angle >= -45.0001 && angle <= 45.0001, "\(degrees)°: top edge at \(angle)°")
        #expect(Polygon.signedArea(quad.corners) > 0)
    }
}
