@testable import DocumentImaging
import ImagingCore
import Testing

/// A light note and a sheet lying near it on a darker desk: the threshold's dark rim
/// around each can join across the narrow strip of desk between them (with the note's
/// shaded edge, the sheet's print), and the rim's outline is then the two together. Its
/// hull closes across open desk (`QuadDetector.isMergedHull`): no box; the note is found
/// by its own edge. (Seed 1 00583: such a hull, its bottom side along the photo's edge,
/// took the note's place as a field and read nothing.)
@Suite("Outlines of things a dark rim joined")
struct MergedHullTests {
    /// A desk (grey 70, 600 × 800) with a note (225) of 240 × 220 at (180, 150) and, `gap`
    /// px below it, a sheet running off the photo's bottom, 150 px wider to the right.
    static func desk(gap: Int) -> GrayImage {
        var g = GrayImage(width: 600, height: 800, fill: 70)
        for y in 150..<370 { for x in 180..<420 { g[x, y] = 225 } }
        for y in (370 + gap)..<800 { for x in 160..<570 { g[x, y] = 225 } }
        return g
    }

    static func holds(_ q: Quadrilateral, _ x: Double, _ y: Double) -> Bool { q.contains(Point(x, y)) }

    @Test("Control: a note and a sheet apart on a desk, their rims joined: the note is found, and no quad takes in both",
          arguments: [6, 10])
    func noteAndSheetApart(gap: Int) {
        let quads = QuadDetector().detect(in: Self.desk(gap: gap)).map(\.quad)
        #expect(!quads.contains { Self.holds($0, 300, 260) && Self.holds($0, 300, 600) })
        let note = Quadrilateral(ordering: [Point(180, 150), Point(419, 150), Point(419, 369), Point(180, 369)])
        #expect(quads.contains { q in zip(q.corners, note.corners).allSatisfy { Polygon.distance($0, $1) < 6 } })
    }

    @Test("The hull of a note and a sheet joined by a neck is merged; the sheet's own outline is not")
    func mergedHullShape() {
        // a note (100…200 × 100…200) joined by a 20-px neck to a sheet (80…260 × 260…400)
        var border: [Point] = []
        func run(_ a: Point, _ b: Point) {
            let n = Int(max(abs(b.x - a.x), abs(b.y - a.y)))
            for i in 0..<n { border.append(Point(a.x + (b.x - a.x) * Double(i) / Double(n), a.y + (b.y - a.y) * Double(i) / Double(n))) }
        }
        let joined = [Point(100, 100), Point(200, 100), Point(200, 200), Point(160, 200), Point(160, 260), Point(260, 260),
                      Point(260, 400), Point(80, 400), Point(80, 260), Point(140, 260), Point(140, 200), Point(100, 200)]
        for i in joined.indices { run(joined[i], joined[(i + 1) % joined.count]) }
        let hull = Quadrilateral(ordering: [Point(100, 100), Point(200, 100), Point(260, 400), Point(80, 400)])
        #expect(QuadDetector.isMergedHull(hull, border: border, fits: QuadDetector.fitsBorder(hull, border: border)))
        // controls: the sheet's own outline, and a box outline
        border = []
        let sheet = [Point(80, 260), Point(260, 260), Point(260, 400), Point(80, 400)]
        for i in sheet.indices { run(sheet[i], sheet[(i + 1) % 4]) }
        let own = Quadrilateral(ordering: sheet)
        #expect(!QuadDetector.isMergedHull(own, border: border, fits: QuadDetector.fitsBorder(own, border: border)))
    }
}
