import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A grid is straightened so its cells can hold legible digits: a table of many rows,
/// cut to `rectifiedSide`, or a small grid in a small photo is straightened again larger;
/// a small field with no finer copy to take it from is interpolated the same way.
@Suite("Legible grid cells")
struct LegibleGridTests {
    /// An even ruling of `rows` × `columns` over a `width` × `height` straightened grid.
    func ruling(_ rows: Int, _ columns: Int, width: Int, height: Int) -> Ruling {
        Ruling(rows: (0...rows).map { Double($0 * height) / Double(rows) },
               columns: (0...columns).map { Double($0 * width) / Double(columns) })
    }

    /// The axis-aligned quad from (x0, y0) to (x1, y1).
    func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    @Test("Cells under the legible size are straightened again to reach it, ruling scaled; a 9×9 puzzle is left as it is",
          arguments: [14, 16, 20])
    func smallCellsEnlarged(rows: Int) throws {
        let layout = Layout()
        let image = GrayImage(width: 1600, height: 1200, fill: 220)
        // a 1000 × 1000 px square: straightened to 450 px
        let quad = box(300, 100, 1300, 1100)
        let g = try #require(layout.straighten(quad, in: image))
        #expect(g.width == layout.rectifiedSide)
        let small = ruling(rows, 9, width: g.width, height: g.height)
        let (larger, scaled) = try #require(layout.legible(quad, straightened: g, ruling: small, in: image))
        let cellHeight = Double(larger.height) / Double(rows)
        #expect(cellHeight >= Layout.legibleFieldSide - 1 && cellHeight < Layout.legibleFieldSide + 1)
        #expect(abs(scaled.rows.last! - Double(larger.height)) < 1e-9)
        #expect(abs(scaled.columns.last! - Double(larger.width)) < 1e-9)
        // control: a 9×9 puzzle's 50 px cells are legible already
        #expect(layout.legible(quad, straightened: g, ruling: ruling(9, 9, width: g.width, height: g.height),
                               in: image) == nil)
    }

    @Test("A small grid in a small photo is enlarged too (interpolated), to the legible size")
    func smallPhotoInterpolated() throws {
        let layout = Layout()
        let image = GrayImage(width: 600, height: 600, fill: 220)
        // a 440 px square: straightened at its own size, 16 rows of 27.5 px
        let quad = box(50, 50, 490, 490)
        let g = try #require(layout.straighten(quad, in: image))
        #expect(g.width <= 441)
        let (larger, _) = try #require(layout.legible(quad, straightened: g, ruling: ruling(16, 9, width: g.width, height: g.height),
                                                      in: image))
        #expect(abs(Double(larger.height) / 16 - Layout.legibleFieldSide) < 1)
    }

    @Test("A small field in a photo with no finer copy is interpolated to the legible size; a legible one is left")
    func smallFieldInterpolated() throws {
        let layout = Layout()
        let image = GrayImage(width: 400, height: 300, fill: 220)
        // a box 120 × 20 px; control: one 60 px tall
        let g = try #require(layout.enlarged(box(100, 100, 220, 120), in: PhotoPixels(image)))
        #expect(abs(Double(min(g.width, g.height)) - Layout.legibleFieldSide) <= 1)
        #expect(layout.enlarged(box(100, 100, 220, 160), in: PhotoPixels(image)) == nil)
    }
}
