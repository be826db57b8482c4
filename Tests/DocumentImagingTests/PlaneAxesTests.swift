import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// `PlaneAxes`: a form's boxes seen in perspective give back the plane they lie on.
struct PlaneAxesTests {
    /// Boxes of a 600 × 800 form, in its own coordinates: a column of fields of
    /// different widths, and one wide field below them.
    static let boxes: [(Double, Double, Double, Double)] = [
        (120, 150, 300, 190), (120, 230, 420, 270), (120, 310, 220, 350), (120, 390, 360, 430), (60, 600, 540, 650),
    ]

    /// The sheet's corners in the photo for a view turned by `turn` radians and tilted
    /// (its far side shrunk to `far` of its near side).
    static func sheetInPhoto(turn: Double, far: Double) -> [Point] {
        let w = 600.0, h = 800.0, inset = (1 - far) / 2 * w
        let raw = [Point(inset, 0), Point(w - inset, 0), Point(w, h), Point(0, h)]
        let (c, s) = (cos(turn), sin(turn))
        return raw.map { Point(900 + ($0.x - 300) * c - ($0.y - 400) * s, 700 + ($0.x - 300) * s + ($0.y - 400) * c) }
    }

    static func projected(_ box: (Double, Double, Double, Double), by map: Homography) -> Quadrilateral {
        let (x0, y0, x1, y1) = box
        return Quadrilateral(ordering: [Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)].map(map.apply))
    }

    @Test("The span of a form's boxes is their bounding rectangle on the sheet, at any turn and tilt",
          arguments: [(0.0, 1.0), (0.3, 0.8), (-0.6, 0.65), (1.2, 0.9), (2.5, 0.7)])
    func spanOnTheSheet(turn: Double, far: Double) throws {
        let sheet = [Point(0, 0), Point(600, 0), Point(600, 800), Point(0, 800)]
        let toPhoto = try #require(Homography(mapping: sheet, to: Self.sheetInPhoto(turn: turn, far: far)))
        let toSheet = try #require(toPhoto.inverted)
        let quads = Self.boxes.map { Self.projected($0, by: toPhoto) }
        let axes = try #require(PlaneAxes(rectangles: quads))
        #expect(axes.rectangles.count == quads.count)
        // grown by nothing, the span is the boxes' bounding rectangle (60…540 × 150…650)
        let span = try #require(axes.span(grownBy: 0)).corners.map(toSheet.apply)
        let xs = span.map(\.x).sorted(), ys = span.map(\.y).sorted()
        for (got, want) in zip(xs, [60.0, 60, 540, 540]) { #expect(abs(got - want) < 0.5) }
        for (got, want) in zip(ys, [150.0, 150, 650, 650]) { #expect(abs(got - want) < 0.5) }
        // grown by a quarter of the span on each side: 60 − 120 … 540 + 120, 150 − 125 … 650 + 125
        let grown = try #require(axes.span(grownBy: 0.25)).corners.map(toSheet.apply)
        #expect(abs(grown.map(\.x).min()! + 60) < 0.5 && abs(grown.map(\.x).max()! - 660) < 0.5)
        #expect(abs(grown.map(\.y).min()! - 25) < 0.5 && abs(grown.map(\.y).max()! - 775) < 0.5)
    }

    @Test("A box turned on its own (a note beside the form) is left out; its corners off by a pixel are not")
    func outlierLeftOut() throws {
        let sheet = [Point(0, 0), Point(600, 0), Point(600, 800), Point(0, 800)]
        let toPhoto = try #require(Homography(mapping: sheet, to: Self.sheetInPhoto(turn: 0.4, far: 0.75)))
        var quads = Self.boxes.map { Self.projected($0, by: toPhoto) }
        // one box's corners each a pixel off (detection noise)
        quads[0] = Quadrilateral(ordering: quads[0].corners.enumerated().map { k, p in Point(p.x + (k % 2 == 0 ? 1 : -1), p.y + 1) })
        // a note turned 20° against the form (itself turned 0.4 rad)
        let (c, s) = (cos(0.4 + 0.35), sin(0.4 + 0.35))
        let note = [Point(-60, -60), Point(60, -60), Point(60, 60), Point(-60, 60)].map { Point(1400 + $0.x * c - $0.y * s, 300 + $0.x * s + $0.y * c) }
        quads.append(Quadrilateral(ordering: note))
        let axes = try #require(PlaneAxes(rectangles: quads))
        #expect(axes.rectangles.count == Self.boxes.count)
        #expect(!axes.rectangles.contains(Quadrilateral(ordering: note)))
    }

    @Test("Quads turned every which way share no plane; one quad is not enough")
    func noCommonPlane() {
        let quads = [0.0, 0.5, 1.0].enumerated().map { k, turn -> Quadrilateral in
            let (c, s) = (cos(turn), sin(turn))
            let centre = Point(300 + 400 * Double(k), 400)
            return Quadrilateral(ordering: [Point(-100, -30), Point(100, -30), Point(100, 30), Point(-100, 30)].map {
                Point(centre.x + $0.x * c - $0.y * s, centre.y + $0.x * s + $0.y * c)
            })
        }
        #expect(PlaneAxes(rectangles: quads) == nil)
        #expect(PlaneAxes(rectangles: [quads[0]]) == nil)
    }
}
