import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// Boxes drawn on a sheet are found from their lines on the straightened sheet, also
/// where the photo-wide detector misses them (here: boxes under its area floor).
@Suite("Boxes on a sheet")
struct SheetBoxesTests {
    /// A sheet (600 × 800 in its own units) turned `degrees` on a dark desk, with four
    /// boxes of 2-unit lines, each holding a written 0, each under 0.12 % of the
    /// photo. Returns the photo and the boxes' line-middle corners in it.
    func photo(degrees: Double) -> (GrayImage, [Quadrilateral]) {
        let (w, h) = (1000, 900)
        let a = degrees * .pi / 180
        let toPhoto = { (p: Point) -> Point in
            let x = p.x - 300, y = p.y - 400
            return Point(500 + 0.9 * (x * cos(a) - y * sin(a)), 450 + 0.9 * (x * sin(a) + y * cos(a)))
        }
        let toSheet = { (p: Point) -> Point in
            let x = (p.x - 500) / 0.9, y = (p.y - 450) / 0.9
            return Point(300 + x * cos(a) + y * sin(a), 400 - x * sin(a) + y * cos(a))
        }
        let boxes = [(150.0, 150.0, 200.0, 176.0), (300.0, 150.0, 350.0, 176.0), (150.0, 400.0, 200.0, 426.0),
                     (400.0, 600.0, 450.0, 626.0)]
        var image = GrayImage(width: w, height: h, fill: 70)
        for y in 0..<h {
            for x in 0..<w {
                // four samples per pixel: the lines' edges are grey, as in a photo
                var sum = 0
                for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let s = toSheet(Point(Double(x) + dx, Double(y) + dy))
                    guard s.x >= 0, s.y >= 0, s.x < 600, s.y < 800 else { sum += 70; continue }
                    var v = 225
                    for (x0, y0, x1, y1) in boxes {
                        let onLine = (abs(s.y - y0) < 1 || abs(s.y - y1) < 1) && s.x > x0 - 1 && s.x < x1 + 1
                            || (abs(s.x - x0) < 1 || abs(s.x - x1) < 1) && s.y > y0 - 1 && s.y < y1 + 1
                        if onLine { v = 120 }
                        // a digit: a 0 (a ring 14 × 18 units, 3 thick) in the box's left part
                        let ex = (s.x - (x0 + 16)) / 7, ey = (s.y - (y0 + y1) / 2) / 9
                        let r = (ex * ex + ey * ey).squareRoot()
                        if r <= 1 && r >= 0.6 { v = 30 }
                    }
                    sum += v
                }
                image[x, y] = UInt8(sum / 4)
            }
        }
        let quads = boxes.map { (x0, y0, x1, y1) in
            Quadrilateral(topLeft: toPhoto(Point(x0, y0)), topRight: toPhoto(Point(x1, y0)),
                          bottomRight: toPhoto(Point(x1, y1)), bottomLeft: toPhoto(Point(x0, y1)))
        }
        return (image, quads)
    }

    /// How many of `expected` some field's reported outline matches within `tolerance`
    /// px per corner.
    func matched(_ regions: [LaidOutRegion], _ expected: [Quadrilateral], tolerance: Double) -> Int {
        let outlines = regions.filter { $0.kind == .field }.map { ReadRegion(region: $0, pieces: []).outline }
        return expected.filter { box in outlines.contains { Layout.sameCorners($0, box, within: tolerance) } }.count
    }

    @Test("Small boxes on a turned sheet are fields, reported at their lines' middles", arguments: [0.0, 20.0, -35.0])
    func smallBoxes(degrees: Double) {
        let (image, boxes) = photo(degrees: degrees)
        let layout = Layout()
        #expect(matched(layout.regions(in: image), boxes, tolerance: 1.5) == boxes.count)
        // the photo-wide detector alone misses them (what the sheet pass adds)
        let detectedOnly = layout.regions(in: image, quads: layout.detector.detect(in: image))
        #expect(matched(detectedOnly, boxes, tolerance: 1.5) == 0)
    }

    @Test("A sheet on which a grid was read is not searched: its cells are the boxes there")
    func sheetHoldingAGrid() throws {
        let (image, _) = photo(degrees: 0)
        let layout = Layout()
        let detected = layout.detector.detect(in: image)
        #expect(layout.addingSheetBoxes(to: detected, in: image).contains { $0.isLineMiddle })
        let sheet = try #require(detected.first { $0.parent == nil })
        #expect(!layout.addingSheetBoxes(to: detected, in: image, skipping: [sheet.quad.center]).contains { $0.isLineMiddle })
    }
}
