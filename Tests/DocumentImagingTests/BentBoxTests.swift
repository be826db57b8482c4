@testable import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// Boxes on a curled page: their long sides bend up towards the page's edge, so no
/// straight quad outlines them; the inside of the box is taken with its sides bent.
@Suite("Boxes whose sides bend on a curled page")
struct BentBoxTests {
    /// A box `length` × `length / 6.4` from (x, y), both long sides straight for their
    /// first 60 % and then rising by `rise` of the length at the far end (a parabola, as a
    /// page curls away from the lens), as a closed polyline; its four corners.
    func curledBox(x: Double, y: Double, length: Double, rise: Double) -> (outline: [Point], corners: [Point]) {
        let height = length / 6.4
        let lift = { (t: Double) in t <= 0.6 ? 0 : rise * length * ((t - 0.6) / 0.4) * ((t - 0.6) / 0.4) }
        let steps = 40
        let top = (0...steps).map { k -> Point in
            let t = Double(k) / Double(steps)
            return Point(x + t * length, y - lift(t))
        }
        let bottom = top.reversed().map { Point($0.x, $0.y + height) }
        let corners = [top[0], top[steps], bottom[0], bottom[steps]]
        return (top + bottom, corners)
    }

    func quadNear(_ corners: [Point], in image: GrayImage, within tolerance: Double) -> Quadrilateral? {
        QuadDetector().detect(in: image).map(\.quad).first { quad in
            zip(quad.corners, corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
        }
    }

    @Test("A box on a curled page is found at its corners", arguments: [(200.0, 2.0), (320, 3), (480, 4)])
    func curledBoxFound(length: Double, thickness: Double) throws {
        let box = curledBox(x: 40, y: 80 + 0.05 * length, length: length, rise: 0.05)
        let image = TestImages.strokedOutline(box.outline, thickness: thickness, width: Int(length) + 80, height: Int(length / 2.5) + 60)
        // the inside is taken: its corners lie half a line and a pixel inside the drawn ones
        let quad = quadNear(box.corners, in: image, within: 0.02 * length)
        #expect(quad != nil, "\(QuadDetector().detect(in: image).map(\.quad.corners))")
    }

    @Test("A straight box is found as before, along its outline")
    func straightBoxUnchanged() throws {
        let box = curledBox(x: 40, y: 80, length: 320, rise: 0)
        let image = TestImages.strokedOutline(box.outline, thickness: 3, width: 400, height: 190)
        let quads = QuadDetector().detect(in: image)
        let quad = try #require(quadNear(box.corners, in: image, within: 2.5))
        // the outline's quad, not the inside's (the hole just inside it is its inner edge)
        #expect(quads.first { $0.quad == quad }?.isHole == false)
    }

    @Test("A bent box is found with a smaller quad inside it (digits run together into a block)",
          arguments: [0.1, 0.3, 0.5])
    func bentBoxAroundBlock(blockShare: Double) throws {
        let box = curledBox(x: 40, y: 80, length: 320, rise: 0.05)
        var image = TestImages.strokedOutline(box.outline, thickness: 3, width: 400, height: 190)
        // a dark block across the box's middle, `blockShare` of its inside
        let width = blockShare * 320 * 0.8
        for y in 90..<120 { for x in Int(200 - width / 2)..<Int(200 + width / 2) { image[x, y] = 30 } }
        let quads = QuadDetector().detect(in: image)
        #expect(quads.contains { $0.quad.contains(Point(120, 105)) && $0.quad.contains(Point(330, 100)) },
                "\(quads.map(\.quad.corners))")
    }

    @Test("A dark streak bent the same way (wood grain, no inside) is no quad")
    func bentStreakIgnored() throws {
        let box = curledBox(x: 40, y: 80, length: 320, rise: 0.05)
        let image = TestImages.filledOutline(box.outline, width: 400, height: 190)
        #expect(quadNear(box.corners, in: image, within: 0.1 * 320) == nil)
    }

    @Test("The bent half of a box cut in two by a stroke is not taken for a box")
    func cutBentBoxIgnored() throws {
        let box = curledBox(x: 40, y: 80, length: 320, rise: 0.05)
        var image = TestImages.strokedOutline(box.outline, thickness: 3, width: 400, height: 190)
        for y in 60..<150 { for x in 198..<202 { image[x, y] = 20 } }   // a stroke across the middle
        // the straight left half is a box of its own, as ever; the bent right half's inside
        // fills only half the outline around it: a stroke cut it, it is no box's inside
        let found = QuadDetector().detect(in: image).map(\.quad).filter { $0.contains(Point(300, 100)) }
        #expect(found.isEmpty, "\(found.map(\.corners))")
    }

    @Test("Straightening bends drops a vertex turning a little, keeps corners, refuses an arc")
    func straighteningBends() {
        // a rectangle whose top side has a vertex turning 8°
        let bent = [Point(0, 0), Point(60, 0), Point(100, -5.6), Point(100, 40), Point(0, 40)]
        #expect(Polygon.straighteningBends(bent, bend: 17.5) == [Point(0, 0), Point(100, -5.6), Point(100, 40), Point(0, 40)])
        // an arc of three vertices turning 10° each between two corners: a curve, not a side
        var arc = [Point(0, 40), Point(0, 0)]
        var p = Point(0, 0), heading = 0.0
        for _ in 0..<4 { p = Point(p.x + 30 * cos(heading), p.y + 30 * sin(heading)); arc.append(p); heading -= 10 * .pi / 180 }
        arc.append(Point(p.x, 40))
        #expect(Polygon.straighteningBends(arc, bend: 17.5) == nil)
    }
}
