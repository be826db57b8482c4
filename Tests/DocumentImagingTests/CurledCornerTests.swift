import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// A curled note's corners as they lie (`EdgeRefiner.cornersAsTheyLie`) on literal photos:
/// the note's right part sags, so its top and bottom edges bend down towards the right-hand
/// corners, which lie off the straight sides' lines by the sag. Controls: a flat note, and a
/// note on a sheet whose edge leaves the note's at an angle (not a bend): no bent corners.
@Suite("Curled corners on literal images")
struct CurledCornerTests {
    /// A light note (`note` grey, with a digit-like bar) on a dark desk (both with ±4 grain),
    /// the note `width` × `height` px at `origin`, its columns past `bendStart` of its width
    /// sagging by up to `sag` of its height (growing with the square of the distance, as a
    /// lifted sheet's edge does), drawn over `below` (a sheet's corners, of grey `belowLevel`) when given.
    /// Returns the image and the note's corners as they lie (TL, TR, BR, BL).
    static func photo(sag: Double, scale: Double, below: [Point]? = nil, belowLevel: Int = 235)
        -> (image: GrayImage, corners: [Point]) {
        let (w, h) = (700 * scale, 560 * scale)
        let origin = Point(450 * scale, 320 * scale)
        let bendStart = 0.55 * w, amount = sag * h
        func drop(_ u: Double) -> Double { u <= bendStart ? 0 : amount * pow((u - bendStart) / (w - bendStart), 2) }
        var outline: [Point] = []
        let steps = 200
        for k in 0...steps { let u = w * Double(k) / Double(steps); outline.append(Point(origin.x + u, origin.y + drop(u))) }
        for k in (0...steps).reversed() {
            let u = w * Double(k) / Double(steps); outline.append(Point(origin.x + u, origin.y + h + drop(u)))
        }
        let width = Int(1600 * scale), height = Int(1200 * scale)
        let shape = TestImages.filledOutline(outline, width: width, height: height)
        var image = TestImages.grainyPaper(width: width, height: height, level: 90, noise: 4, seed: 7)
        let centre = Point(origin.x + 0.45 * w, origin.y + 0.5 * h)
        for y in 0..<height {
            for x in 0..<width {
                let p = Point(Double(x), Double(y))
                let grain = Int(image[x, y]) - 90
                if shape[x, y] < 128 {
                    let stroke = abs(p.x - centre.x) < 0.02 * w && abs(p.y - centre.y) < 0.25 * h
                    image[x, y] = UInt8(clamping: (stroke ? 40 : 215) + grain)
                } else if let below, TestImages.inside(p, below) {
                    image[x, y] = UInt8(clamping: belowLevel + grain)
                }
            }
        }
        let corners = [origin, Point(origin.x + w, origin.y + amount), Point(origin.x + w, origin.y + h + amount),
                       Point(origin.x, origin.y + h)]
        return (image, corners)
    }

    /// The quad through the straight part of each side: what a straight outline makes of
    /// the curled note (its right-hand corners where the straight top and bottom meet the
    /// right side, the sag above them).
    static func straightQuad(of corners: [Point], sag: Double, height: Double) -> Quadrilateral {
        let amount = sag * height
        return Quadrilateral(topLeft: corners[0], topRight: Point(corners[1].x, corners[1].y - amount),
                             bottomRight: Point(corners[2].x, corners[2].y - amount), bottomLeft: corners[3])
    }

    static func worstCorner(_ quad: Quadrilateral, _ corners: [Point]) -> Double {
        zip(quad.corners, corners).map { Polygon.distance($0, $1) }.max()!
    }

    @Test("A curled note's sagging corners are followed to where they lie", arguments: [0.03, 0.05], [1.0, 2.0])
    func curledCorners(sag: Double, scale: Double) throws {
        let (image, corners) = Self.photo(sag: sag, scale: scale)
        let start = Self.straightQuad(of: corners, sag: sag, height: 560 * scale)
        let radius = 2 * scale + 2
        let straight = try #require(EdgeRefiner.refine(start, in: image, searchRadius: radius, darkInside: false))
        let bent = try #require(EdgeRefiner.cornersAsTheyLie(start, in: image, searchRadius: radius, darkInside: false))
        // the straight sides' corners stay above the tips by most of the sag; the followed
        // ones reach them within a hundredth of the note's height
        #expect(Self.worstCorner(straight, corners) > 0.5 * sag * 560 * scale)
        #expect(Self.worstCorner(bent, corners) < 0.01 * 560 * scale, "\(bent.corners) vs \(corners)")
    }

    @Test("Control: a flat note has no bent corners", arguments: [1.0, 2.0])
    func flatNoteUnchanged(scale: Double) throws {
        let (image, corners) = Self.photo(sag: 0, scale: scale)
        let start = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        #expect(EdgeRefiner.refine(start, in: image, searchRadius: 2 * scale + 2, darkInside: false) != nil)
        #expect(EdgeRefiner.cornersAsTheyLie(start, in: image, searchRadius: 2 * scale + 2, darkInside: false) == nil)
    }

    @Test("Control: a sheet below whose edge leaves the note's at an angle bends no corner")
    func sheetBelowIsNoBend() throws {
        // a lighter sheet behind the note's top-right, its top edge leaving the note's top
        // edge at about 6° (straight, not ever faster) and peeking out above it: the
        // note's own edge on it turns the wrong way, the sheet's edge on the desk is as steep
        let below = [Point(900, 320), Point(1180, 291), Point(1180, 700), Point(900, 700)]
        let (image, corners) = Self.photo(sag: 0, scale: 1, below: below, belowLevel: 235)
        let start = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        #expect(EdgeRefiner.refine(start, in: image, searchRadius: 4, darkInside: false) != nil)
        #expect(EdgeRefiner.cornersAsTheyLie(start, in: image, searchRadius: 4, darkInside: false) == nil)
    }
}
