import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A note whose right part is lifted (its top and bottom edges sag towards the right-hand
/// corners) is read as a field from the quad its straight sides make, and reports its
/// corners as they lie (`LaidOutRegion.paperCorners`, `ReadRegion.outline`).
@Suite("A curled note's outline")
struct CurledNoteOutlineTests {
    /// A 600 × 450 desk of grey 85 holding a note of grey 210 (250 × 200 at (150, 125))
    /// with a bar of ink in its middle, its columns past x = 300 lowered by
    /// `sag` · ((x − 300) / 100)², so the right-hand corners lie `sag` px low; softened by
    /// a 3 × 3 mean, as a lens does (a stair-stepped slanting edge would be sharper along
    /// the columns than across them).
    static func photo(sag: Double) -> GrayImage {
        var image = GrayImage(width: 600, height: 450, fill: 85)
        for x in 150..<400 {
            let drop = x < 300 ? 0 : sag * pow(Double(x - 300) / 100, 2)
            // the column's paper, lowered by its drop
            for y in 125..<325 {
                let bar = abs(x - 260) < 5 && abs(y - 225) < 50
                image[x, Int((Double(y) + drop).rounded())] = bar ? 30 : 210
            }
        }
        var soft = image
        for y in 1..<449 {
            for x in 1..<599 {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(image[x + dx, y + dy]) } }
                soft[x, y] = UInt8(sum / 9)
            }
        }
        return soft
    }

    static func outline(sag: Double) throws -> Quadrilateral {
        let regions = Layout().regions(in: Self.photo(sag: sag))
        let field = try #require(regions.first { $0.kind == .field })
        return ReadRegion(region: field, pieces: []).outline
    }

    @Test("The note's right-hand corners are reported where they lie, 6 and 10 px (3 and 5 % of its height) below its straight sides",
          arguments: [6.0, 10.0])
    func cornersAsTheyLie(sag: Double) throws {
        let corners = try Self.outline(sag: sag).corners
        let want = [Point(149.5, 124.5), Point(399.5, 124.5 + sag), Point(399.5, 324.5 + sag), Point(149.5, 324.5)]
        for (got, expected) in zip(corners, want) {
            #expect(Polygon.distance(got, expected) < 3, "\(corners) vs \(want)")
        }
    }

    @Test("Control: a flat note's outline is its straight sides' corners")
    func flatNote() throws {
        let corners = try Self.outline(sag: 0).corners
        let want = [Point(149.5, 124.5), Point(399.5, 124.5), Point(399.5, 324.5), Point(149.5, 324.5)]
        for (got, expected) in zip(corners, want) { #expect(Polygon.distance(got, expected) < 2, "\(corners)") }
    }
}
