import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A box a hard shadow's edge cut short is taken to its own end past the lighting step.
@Suite("Box past a shadow's edge")
struct BoxPastStepTests {
    /// A 500 × 160 photo (paper 228): a box from x = 50 to 450, rows 50…110, 3 px lines (30),
    /// with a divider at `divider` if given; left of `shadow` (moving `slant` px right per
    /// row down) everything is `shade` times as bright (a hard shadow's edge across the box).
    func photo(shadow: Int?, shade: Double = 0.5, slant: Double = 0, divider: Int? = nil) -> GrayImage {
        var image = GrayImage(width: 500, height: 160, fill: 228)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = 30 } }
        }
        paint(50, 50, 450, 53); paint(50, 107, 450, 110); paint(50, 50, 53, 110); paint(447, 50, 450, 110)
        if let divider { paint(divider, 50, divider + 3, 110) }
        if let shadow {
            for y in 0..<160 {
                let edge = min(499, max(0, shadow + Int((slant * Double(y - 50)).rounded())))
                for x in 0..<edge { image[x, y] = UInt8(Double(image[x, y]) * shade) }
            }
        }
        return image
    }

    /// The quad from x = `left` to the box's right line's outer edge, over the box's rows.
    func quad(from left: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(left, 50), topRight: Point(449, 50), bottomRight: Point(449, 109),
                      bottomLeft: Point(left, 109))
    }

    @Test("The part of a box right of a shadow's edge is taken to the box's left line", arguments: [0.45, 0.6])
    func pastShadow(shade: Double) throws {
        let longer = try #require(Layout().extendedPastStep(quad(from: 150), in: photo(shadow: 150, shade: shade)))
        #expect(abs(longer.topLeft.x - 51) < 4 && abs(longer.bottomLeft.x - 51) < 4, "\(longer.corners)")
        #expect(abs(longer.topRight.x - 449) < 2)
    }

    @Test("An edge slanting across the box: the slanting end is squared to the box's other end, then taken to its left line")
    func pastSlantingShadow() throws {
        let cut = Quadrilateral(topLeft: Point(150, 50), topRight: Point(449, 50), bottomRight: Point(449, 109),
                                bottomLeft: Point(197, 109))
        let longer = try #require(Layout().extendedPastStep(cut, in: photo(shadow: 150, slant: 0.8)))
        #expect(abs(longer.topLeft.x - 51) < 4 && abs(longer.bottomLeft.x - 51) < 4)
        #expect(abs(longer.topRight.x - 449) < 2 && abs(longer.bottomRight.x - 449) < 2)
    }

    @Test("Controls: a whole box, and a part ending at a drawn line (in the shadow too), stay as they are")
    func endsAtLines() {
        #expect(Layout().extendedPastStep(quad(from: 50), in: photo(shadow: nil)) == nil)
        #expect(Layout().extendedPastStep(quad(from: 150), in: photo(shadow: nil, divider: 149)) == nil)
        #expect(Layout().extendedPastStep(quad(from: 150), in: photo(shadow: 200, divider: 149)) == nil)
    }
}
