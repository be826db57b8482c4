import Foundation
@testable import DocumentImaging
import ImagingCore
import Testing

/// A box drawn in a thin, pale line, lying a little aslant, with a hard shadow's soft edge
/// across it: the line falls between rows of pixels and breaks where it is palest, so
/// the shadow-free ink (pass 4) leaves its outline open, and the sensitive pass that
/// would join it merges it with the band along the shadow's edge. The shadow-free ink
/// dilated once (pass 5) closes it. A paler line, which the band at the edge still joins
/// in the first passes, is traced whole by the shadow-free ink, and the quad the band
/// closed short is dropped for it (`QuadDetector.isClosedOffInk`; a known limitation
/// until session 46).
@Suite("A thin box aslant under a shadow's edge is found")
struct ShadowCutLineTests {
    /// A 1400 × 1000 sheet at grey 220 (reduced twice for detection) holding an 800 × 120
    /// box turned `degrees`, its line `lineWidth` px wide at `grey` (anti-aliased), with a
    /// shadow taking 45 % of the light below a line of slope −0.7 through the box's
    /// middle, its edge soft (a normal spread of 6 px) when `shadow`. Also the box's
    /// corners.
    func sheet(degrees: Double, lineWidth: Double, grey: Double, shadow: Bool) -> (GrayImage, [Point]) {
        var g = GrayImage(width: 1400, height: 1000, fill: 220)
        let (cx, cy, hw, hh) = (700.0, 460.0, 400.0, 60.0)
        let a = degrees * Double.pi / 180, (c, s) = (cos(a), sin(a))
        let corners = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map {
            Point(cx + $0.0 * c - $0.1 * s, cy + $0.0 * s + $0.1 * c)
        }
        let slope = -0.7, spread = 6.0
        for y in 0..<1000 {
            for x in 0..<1400 {
                let dx = Double(x) - cx, dy = Double(y) - cy
                let u = dx * c + dy * s, v = -dx * s + dy * c
                let fromOutline = abs(max(abs(u) - hw, abs(v) - hh))
                let cover = max(0, min(1, lineWidth / 2 + 0.5 - fromOutline))
                var value = 220 - cover * (220 - grey)
                if shadow {
                    let across = (dy - slope * dx) / (1 + slope * slope).squareRoot()
                    value *= 1 - 0.45 * 0.5 * (1 + erf(across / (spread * 2.0.squareRoot())))
                }
                g[x, y] = UInt8(value.rounded())
            }
        }
        return (g, corners)
    }

    func boxFound(_ g: GrayImage, _ frame: [Point]) -> Bool {
        QuadDetector().detect(in: g).contains { q in
            zip(q.quad.corners, frame).allSatisfy { Polygon.distance($0, $1) < 12 }
        }
    }

    @Test("Found with the shadow's edge across it: line width, slant and grey swept",
          arguments: [(1.5, 1.0, 100.0), (1.5, 4.0, 100.0), (2.0, 1.0, 100.0), (2.0, 2.5, 100.0),
                      (2.0, 4.0, 100.0), (2.5, 1.0, 140.0), (2.5, 4.0, 140.0), (2.0, 2.5, 140.0)])
    func foundUnderShadow(line: (width: Double, degrees: Double, grey: Double)) {
        let (g, frame) = sheet(degrees: line.degrees, lineWidth: line.width, grey: line.grey, shadow: true)
        #expect(boxFound(g, frame))
    }

    @Test("Control: the same boxes without the shadow were found before, and still are")
    func foundWithoutShadow() {
        for (width, degrees, grey) in [(1.5, 1.0, 100.0), (2.0, 4.0, 100.0), (2.5, 1.0, 140.0), (2.0, 2.5, 170.0)] {
            let (g, frame) = sheet(degrees: degrees, lineWidth: width, grey: grey, shadow: false)
            #expect(boxFound(g, frame), "width \(width), \(degrees)°, grey \(grey)")
        }
    }
}
