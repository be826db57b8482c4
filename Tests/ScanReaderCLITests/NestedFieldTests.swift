import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A field found inside a drawn box that spans most of the box's height is a piece of the
/// box's own line of digits (an outline closed by a digit touching the line, a run of
/// blurred glyphs outlined whole): the box is the field when it cuts more pieces of ink.
@Suite("Fields inside a drawn box")
struct NestedFieldTests {
    /// A sheet with a drawn box (3-px line, 500 wide, `boxHeight` tall, from y = 100)
    /// holding six written 0s (30 × 50) centred at y = 140.
    static func sheet(boxHeight: Int = 80, divider: Int? = nil, darkFrom: Int? = nil) -> GrayImage {
        var image = GrayImage(width: 600, height: 300, fill: 225)
        for y in 100..<(100 + boxHeight) {
            if let darkFrom { for x in darkFrom..<550 { image[x, y] = 110 } }
            for x in 50..<550 where y < 103 || y >= 97 + boxHeight || x < 53 || x >= 547 { image[x, y] = 40 }
            if let divider { image[divider, y] = 40; image[divider + 1, y] = 40 }
        }
        for k in 0..<6 {
            let cx = 95.0 + 75.0 * Double(k), cy = 140.0
            for y in 110..<170 {
                for x in (Int(cx) - 20)..<(Int(cx) + 20) {
                    let ex = (Double(x) + 0.5 - cx) / 15, ey = (Double(y) + 0.5 - cy) / 25
                    let r = (ex * ex + ey * ey).squareRoot()
                    if r <= 1 && r >= 0.7 { image[x, y] = 30 }
                }
            }
        }
        return image
    }

    static func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    /// The fields laid out from the box (its outer edge; `boxIsHole`: found as its inside
    /// instead) and `inner`, as the detector would list them.
    func fields(inner: Quadrilateral, boxIsHole: Bool = false, boxHeight: Int = 80) -> [Quadrilateral] {
        var quads = [DetectedQuad(quad: Self.quad(49.5, 99.5, 549.5, 99.5 + Double(boxHeight)), parent: nil, isHole: boxIsHole),
                     DetectedQuad(quad: inner, parent: nil, isHole: false)]
        DetectedQuad.assignParents(&quads)
        return Layout().regions(in: Self.sheet(boxHeight: boxHeight), quads: quads).filter { $0.kind == .field }.map(\.quad)
    }

    @Test("An outline around the last three digits, most of the box's height: the box is the field")
    func boxTakesItsLine() {
        let found = fields(inner: Self.quad(245, 112, 470, 168))
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.topLeft.x - 49.5) < 1 && abs($0.bottomRight.x - 549.5) < 1 } == true)
    }

    @Test("The box found as its inside (a hole the ink rings) takes its line as the drawn box does")
    func holeTakesItsLine() {
        let found = fields(inner: Self.quad(245, 112, 470, 168), boxIsHole: true)
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.topLeft.x - 49.5) < 1 && abs($0.bottomRight.x - 549.5) < 1 } == true)
    }

    @Test("Controls: the inner field stays when it holds all the box's digits, or when it spans under half the box")
    func innerFieldStays() {
        // all six digits inside it: the box cuts no more pieces
        let whole = Self.quad(60, 108, 540, 172)
        #expect(fields(inner: whole).map(\.topLeft.x) == [60])
        // the same outline in a box more than twice its height: a box inside a larger one
        #expect(fields(inner: Self.quad(245, 112, 470, 168), boxHeight: 130).map(\.topLeft.x) == [245])
        #expect(fields(inner: whole, boxIsHole: true).map(\.topLeft.x) == [60])
    }

    /// The fields laid out from the box (found as its inside) and `parts` inside it; with
    /// two parts, a 2-px line across the box between them at x = 281 (a stroke parting it);
    /// `darkFrom`: the box's inside dark (110) from that x on (a desk, not paper).
    func fields(parts: [Quadrilateral], darkFrom: Int? = nil) -> [Quadrilateral] {
        var quads = [DetectedQuad(quad: Self.quad(49.5, 99.5, 549.5, 179.5), parent: nil, isHole: true)]
        quads += parts.map { DetectedQuad(quad: $0, parent: nil, isHole: true) }
        DetectedQuad.assignParents(&quads)
        return Layout().regions(in: Self.sheet(divider: parts.count > 1 ? 281 : nil, darkFrom: darkFrom), quads: quads)
            .filter { $0.kind == .field }.map(\.quad)
    }

    @Test("A box parted in two by a line across it that cuts no glyph (a digit's stroke, a shadow's edge) is one field, as is one whose lone part leaves blank paper out; a part beside a dark stretch, or an inside ringed within it, stays")
    func partedBoxIsWhole() {
        // parted by a line between the third and fourth 0: three glyphs in each part, six in
        // the box (the line across it is no glyph)
        let found = fields(parts: [Self.quad(53, 103, 281, 176), Self.quad(283, 103, 546, 176)])
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.topLeft.x - 49.5) < 1 && abs($0.bottomRight.x - 549.5) < 1 } == true)
        #expect(Layout.isPart(Self.quad(53, 103, 280, 176), of: Self.quad(49.5, 99.5, 549.5, 179.5)))
        // an inside ringed within the box (a rim all round) is no part
        #expect(!Layout.isPart(Self.quad(56, 106, 543, 173), of: Self.quad(49.5, 99.5, 549.5, 179.5)))
        // a lone part holding every glyph, the stretch past it blank paper (the box's empty
        // end past a stroke): the box
        #expect(Layout.isPart(Self.quad(53, 103, 500, 176), of: Self.quad(49.5, 99.5, 549.5, 179.5)))
        #expect(fields(parts: [Self.quad(53, 103, 500, 176)]).map(\.topRight.x) == [549.5])
        // control: the stretch past it dark (a note inside an outline the desk closed around
        // it): the part stays the field
        #expect(fields(parts: [Self.quad(53, 103, 500, 176)], darkFrom: 502).map(\.topRight.x) == [500])
    }
}
