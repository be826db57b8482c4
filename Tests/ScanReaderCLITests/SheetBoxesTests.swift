import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// Boxes drawn on a sheet are found from their lines on the straightened sheet, also
/// where the photo-wide detector misses them (here: boxes under its area floor).
@Suite("Boxes on a sheet")
struct SheetBoxesTests {
    /// Four boxes, each under 0.12 % of the photo (sheet units: x0, y0, x1, y1).
    static let smallBoxes = [(150.0, 150.0, 200.0, 176.0), (300.0, 150.0, 350.0, 176.0), (150.0, 400.0, 200.0, 426.0),
                             (400.0, 600.0, 450.0, 626.0)]

    /// A sheet (600 × 800 in its own units) turned `degrees` on a dark desk, with
    /// `boxes` of 2-unit lines, each holding a written 0 in its left part unless not `zeros`, and
    /// `strokes` (each says which sheet points it inks dark). Returns the photo and the boxes'
    /// line-middle corners in it.
    func photo(degrees: Double, boxes: [(Double, Double, Double, Double)] = smallBoxes, zeros: Bool = true,
               strokes: [(Point) -> Bool] = [], desk: Int = 70) -> (GrayImage, [Quadrilateral]) {
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
        var image = GrayImage(width: w, height: h, fill: UInt8(desk))
        for y in 0..<h {
            for x in 0..<w {
                // four samples per pixel: the lines' edges are grey, as in a photo
                var sum = 0
                for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let s = toSheet(Point(Double(x) + dx, Double(y) + dy))
                    guard s.x >= 0, s.y >= 0, s.x < 600, s.y < 800 else { sum += desk; continue }
                    var v = 225
                    for (x0, y0, x1, y1) in boxes {
                        let onLine = (abs(s.y - y0) < 1 || abs(s.y - y1) < 1) && s.x > x0 - 1 && s.x < x1 + 1
                            || (abs(s.x - x0) < 1 || abs(s.x - x1) < 1) && s.y > y0 - 1 && s.y < y1 + 1
                        if onLine { v = 120 }
                        // a digit: a 0 (a ring 14 × 18 units, 3 thick) in the box's left part
                        let ex = (s.x - (x0 + 16)) / 7, ey = (s.y - (y0 + y1) / 2) / 9
                        let r = (ex * ex + ey * ey).squareRoot()
                        if zeros && r <= 1 && r >= 0.6 { v = 30 }
                    }
                    if strokes.contains(where: { $0(s) }) { v = 30 }
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

    @Test("A sheet no quad outlines (white on white) is recovered from two of its fields, and the boxes by them found",
          arguments: [0.0, 20.0, -35.0])
    func sheetOfItsFields(degrees: Double) {
        let (image, boxes) = photo(degrees: degrees, desk: 225)
        let layout = Layout()
        let detected = layout.detector.detect(in: image)
        #expect(!detected.contains { $0.quad.area >= Layout.sheetShare * Double(image.width * image.height) && $0.parent == nil })
        // no sheet, no fields: nothing to search
        #expect(!layout.addingSheetBoxes(to: detected, in: image).contains { $0.isLineMiddle })
        // two boxes read as fields (say, found by the detector at a closer look), far apart
        // across the sheet, give the sheet they span and the boxes between them
        let added = layout.addingSheetBoxes(to: detected, in: image, fields: [boxes[0], boxes[3]])
            .filter(\.isLineMiddle).map(\.quad)
        for box in boxes { #expect(added.contains { Layout.sameCorners($0, box, within: 1.5) }) }
        // beside a puzzle or a table read in the photo, fields are its captions: no sheet
        #expect(!layout.addingSheetBoxes(to: detected, in: image, fields: [boxes[0], boxes[3]], pageOfGrid: true)
            .contains { $0.isLineMiddle })
        // one field could be a note: no sheet of its own
        #expect(!layout.addingSheetBoxes(to: detected, in: image, fields: [boxes[0]]).contains { $0.isLineMiddle })
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

    @Test("A box a digit's stroke spans is read whole, not as the two boxes the stroke seems to divide it into",
          arguments: [0.0, 10.0])
    func boxSpannedByAStroke(degrees: Double) throws {
        // an upright box 26 × 90 holding a square 0 at its top and, below, a T whose bar,
        // drawn by hand a little aslant, runs from side to side: a line of the box's
        // extent, as a 7's bar is in a narrow box
        let box = (150.0, 150.0, 176.0, 240.0)
        func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Point) -> Bool {
            { p in p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1 }
        }
        let zero = [rect(155, 158, 170, 161), rect(155, 177, 170, 180), rect(155, 158, 158, 180), rect(167, 158, 170, 180)]
        let bar = { (p: Point) in
            let y0 = 193 + 5 * (p.x - 151) / 24
            return p.x >= 151 && p.x <= 175 && p.y >= y0 && p.y <= y0 + 3
        }
        let stem = rect(161, 199, 165, 226)
        let (image, boxes) = photo(degrees: degrees, boxes: [box], zeros: false, strokes: zero + [bar, stem])
        let layout = Layout()
        // the box's outline as a thin line broken by blur would leave it: the detector
        // misses it (its quad taken out), and only the sheet's lines give it
        let detected = layout.detector.detect(in: image).filter { !Layout.sameCorners($0.quad, boxes[0], within: 4) }
        let withBoxes = layout.addingSheetBoxes(to: Layout.nested(detected), in: image)
        let fromLines = withBoxes.filter(\.isLineMiddle).map(\.quad)
        #expect(fromLines.count == 3)  // the whole, and the two parts the bar seems to make
        let regions = layout.regions(in: image, quads: withBoxes)
        // the whole is read (its 0 and T each one glyph there; the bar may read as its
        // one-column ruling), not the parts (in which the bar is a frame and the T's stem
        // ink touching it)
        #expect(regions.count == 1)  // the box alone: the sheet is read through it
        #expect(regions.contains { Layout.sameCorners($0.quad, boxes[0], within: 1.5) })
        let parts = fromLines.filter { !Layout.sameCorners($0, boxes[0], within: 1.5) }
        #expect(parts.count == 2)
        #expect(!regions.contains { r in parts.contains { Layout.sameCorners(r.quad, $0, within: 1.5) } })
    }
}
