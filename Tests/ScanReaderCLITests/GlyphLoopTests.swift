import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A large 0 written on a note rings its loop as a box's line rings a box: the detector
/// outlines the loop, and the loop, holding only its ring's arcs, must not stand in for the
/// note (`Layout.glyphLoops`, `Layout.arcsOnly`). Photos of one note on a dark desk, the
/// 0 at several sizes, pen widths and roundnesses, alone or beside a 1. Before the rule,
/// Before the rule, 3 of the 4 cases alone and both beside a 1 laid out the loop, not the note.
@Suite("A glyph's loop is no box")
struct GlyphLoopTests {
    /// The note: 180 × 150 px of grey 215 at (110, 75) on a desk of grey 60, 400 × 300.
    static let note = (x: 110, y: 75, width: 180, height: 150)

    /// The desk and note with a 0 written as a rounded square (a superellipse of
    /// `exponent`; 2 would be an ellipse, which the detector outlines as no quad) `height`
    /// tall and 0.7 as wide, its pen `pen` of the height, centred at (`cx`, 150); with
    /// `one`, a bar as tall to its right, as a 1 is written; with `box`, a square line
    /// (2 px) drawn around the 0 `box` px clear of it (a box holding the digit, the control).
    static func photo(height: Double, pen: Double, exponent: Double = 4, cx: Double = 180,
                      one: Bool = false, box: Double? = nil) -> GrayImage {
        var image = GrayImage(width: 400, height: 300, fill: 60)
        for y in note.y..<(note.y + note.height) { for x in note.x..<(note.x + note.width) { image[x, y] = 215 } }
        let (a, b, cy) = (0.35 * height, 0.5 * height, 150.0)
        let half = pen * height / 2
        func inside(_ x: Double, _ y: Double, _ a: Double, _ b: Double) -> Bool {
            pow(abs(x) / a, exponent) + pow(abs(y) / b, exponent) <= 1
        }
        for y in Int(cy - b - half - 2)...Int(cy + b + half + 2) {
            for x in Int(cx - a - half - 2)...Int(cx + a + half + 2) {
                let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
                if inside(dx, dy, a + half, b + half) && !inside(dx, dy, a - half, b - half) { image[x, y] = 25 }
            }
        }
        if one {
            let x0 = Int(cx + a + 0.6 * height)
            for y in Int(cy - b)...Int(cy + b) { for x in x0..<(x0 + max(2, Int(2 * half))) { image[x, y] = 25 } }
        }
        if let box {
            let (x0, x1) = (Int(cx - a - half - box), Int(cx + a + half + box))
            let (y0, y1) = (Int(cy - b - half - box), Int(cy + b + half + box))
            for y in y0...y1 {
                for x in x0...x1 where y < y0 + 2 || y > y1 - 2 || x < x0 + 2 || x > x1 - 2 { image[x, y] = 25 }
            }
        }
        return image
    }

    /// The fields laid out in `image`.
    static func fields(_ image: GrayImage) -> [Quadrilateral] {
        Layout().regions(in: image).filter { $0.kind == .field }.map(\.quad)
    }

    /// Whether `quad`'s corners lie within `tolerance` px of the note's.
    static func isNote(_ quad: Quadrilateral, tolerance: Double = 4) -> Bool {
        let (x0, y0) = (Double(note.x) - 0.5, Double(note.y) - 0.5)
        let (x1, y1) = (x0 + Double(note.width), y0 + Double(note.height))
        let want = [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)]
        return zip(quad.corners, want).allSatisfy { Polygon.distance($0, $1) <= tolerance }
    }

    @Test("A 0 alone on the note, 40 and 100 px tall (a quarter and two thirds of it), in a pen a 12th of its height, rounder or squarer: the note is the one field",
          arguments: [40.0, 100.0], [3.0, 4.0])
    func zeroAlone(height: Double, exponent: Double) {
        let found = Self.fields(Self.photo(height: height, pen: 1.0 / 12, exponent: exponent))
        #expect(found.count == 1 && found.allSatisfy { Self.isNote($0) }, "\(found.map(\.corners))")
    }

    @Test("A 0 beside a 1: the note is the one field", arguments: [40.0, 65.0])
    func zeroBesideOne(height: Double) {
        let found = Self.fields(Self.photo(height: height, pen: 1.0 / 12, exponent: 3, cx: 160, one: true))
        #expect(found.count == 1 && found.allSatisfy { Self.isNote($0) }, "\(found.map(\.corners))")
    }

    @Test("Control: a box drawn around the 0 is the field, not the note", arguments: [6.0, 12.0])
    func boxAroundZero(margin: Double) {
        let found = Self.fields(Self.photo(height: 65, pen: 1.0 / 10, box: margin))
        #expect(found.count == 1 && !found.contains { Self.isNote($0, tolerance: 20) }, "\(found.map(\.corners))")
    }

    @Test("Arcs only: every piece reaching two sides that meet; a piece clear of one side is a glyph")
    func arcs() {
        let area = PixelBox(x: 2, y: 2, width: 60, height: 40)
        let corners = [PixelBox(x: 2, y: 2, width: 10, height: 9), PixelBox(x: 50, y: 33, width: 12, height: 9)]
        #expect(Layout.arcsOnly((corners, area)))
        #expect(!Layout.arcsOnly((corners + [PixelBox(x: 25, y: 8, width: 10, height: 25)], area)))
        #expect(!Layout.arcsOnly(([PixelBox(x: 2, y: 10, width: 10, height: 20)], area)), "against one side only")
        #expect(!Layout.arcsOnly(([], area)), "nothing at all is no ring")
    }
}
