import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// Paper told from the desk by its colour (`FlatZones` with `ChromaPlanes`): a pink or
/// yellow note can be exactly as bright as the desk it lies on.
@Suite("Paper found by its colour")
struct ColourPaperTests {
    static let noteCorners = FlatPaperTests.noteCorners

    /// Chroma planes for a 1600 × 1200 photo at 4 pixels a sample: `desk` inside the
    /// desk, `note` inside the note's corners, there plus `ripple` levels alternating
    /// every `ripplePeriod` samples (the ripples JPEG leaves in chroma around print).
    static func chroma(desk: (Int, Int), note: (Int, Int), ripple: Int = 0, ripplePeriod: Int = 2) -> ChromaPlanes {
        let (w, h) = (400, 300)
        var blue = GrayImage(width: w, height: h), red = GrayImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let inside = TestImages.inside(Point(Double(x) * 4 + 1.5, Double(y) * 4 + 1.5), noteCorners)
                let wave = !inside ? 0 : (x / ripplePeriod + y / ripplePeriod) % 2 == 0 ? ripple : -ripple
                blue[x, y] = UInt8((inside ? note.0 : desk.0) + wave)
                red[x, y] = UInt8((inside ? note.1 : desk.1) - wave)
            }
        }
        return ChromaPlanes(blueDifference: blue, redDifference: red, scale: 4)
    }

    @Test("A note as bright as the desk is found by its colour, not without it",
          arguments: [((128, 128), (120, 162)), ((140, 122), (80, 140))])   // pink on grey, yellow on a bluish desk
    func noteOfOtherColour(desk: (Int, Int), note: (Int, Int)) {
        let image = FlatPaperTests.photo(desk: 185, note: 185, corners: Self.noteCorners, noise: 6)
        let planes = Self.chroma(desk: desk, note: note)
        // with no edge in the gray to refine them on, the corners are where the zone's
        // outline is: within two pixels of the coarse copy (8 photo pixels each)
        let found = FlatPaperTests.found(Self.noteCorners, in: QuadDetector().detect(in: image, chroma: planes), within: 16)
        #expect(found?.isFlatPaper == true)
        #expect(FlatPaperTests.found(Self.noteCorners, in: QuadDetector().detect(in: image), within: 16) == nil)
    }

    @Test("A sheet found by its brightness is still found through chroma ripples of a few levels",
          arguments: [1, 2])
    func ripplesDoNotSplitPaper(ripple: Int) {
        let image = FlatPaperTests.photo(desk: 150, note: 200, corners: Self.noteCorners, noise: 3)
        let planes = Self.chroma(desk: (128, 128), note: (128, 128), ripple: ripple)
        // the zones alone (the ink passes find this sheet too): one zone holds the sheet
        var detector = QuadDetector()
        detector.sensitiveBinarization = nil
        let small = image.reduced(by: 2)
        let papers = detector.flatPaper(in: small, chroma: planes.forReduced(by: 2), minimumAreaFraction: 0.002)
        let corners = Self.noteCorners.map { Point($0.x / 2, $0.y / 2) }
        #expect(papers.contains { p in corners.allSatisfy { c in p.quad.corners.contains { Polygon.distance($0, c) < 8 } } },
                "\(papers.map(\.quad.corners))")
    }

    /// A yellow note (grey 222) on a greyish sheet (grey 205) offset by `offset` pixels down
    /// and right, so the sheet shows along two of the note's sides, on a dark desk; the
    /// planes at 4 pixels a sample, the sheet and desk grey.
    static func noteOnSheet(offset: Double) -> (GrayImage, ChromaPlanes) {
        let sheet = noteCorners.map { Point($0.x + offset, $0.y + offset) }
        var image = FlatPaperTests.photo(desk: 70, note: 205, corners: sheet, noise: 3)
        var blue = GrayImage(width: 400, height: 300, fill: 128), red = GrayImage(width: 400, height: 300, fill: 128)
        for y in 0..<image.height {
            for x in 0..<image.width where TestImages.inside(Point(Double(x), Double(y)), noteCorners) {
                if image[x, y] > 45 { image[x, y] = 222 }   // the note's paper over sheet and desk (the stroke stays)
            }
        }
        for y in 0..<300 {
            for x in 0..<400 where TestImages.inside(Point(Double(x) * 4 + 1.5, Double(y) * 4 + 1.5), noteCorners) {
                blue[x, y] = 80; red[x, y] = 140
            }
        }
        return (image, ChromaPlanes(blueDifference: blue, redDifference: red, scale: 4))
    }

    @Test("A note on a sheet showing along two of its sides: the note is found, not the two as one",
          arguments: [16.0, 28.0])
    func noteOnOtherPaper(offset: Double) {
        let (image, planes) = Self.noteOnSheet(offset: offset)
        let quads = QuadDetector().detect(in: image, chroma: planes)
        #expect(FlatPaperTests.found(Self.noteCorners, in: quads, within: 8) != nil, "\(quads.prefix(4).map(\.quad.corners))")
        // without colour the ink's outline of both is all there is
        #expect(FlatPaperTests.found(Self.noteCorners, in: QuadDetector().detect(in: image), within: 8) == nil)
    }

    static func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    /// A 400 × 300 image of grey `around` (chroma `aroundChroma`) with the square
    /// 100…300 × 50…250 of grey 200, yellow (Cb 80, Cr 150): the paper, in planes at 2
    /// pixels a sample.
    static func paperIn(around: UInt8, aroundChroma: (UInt8, UInt8)) -> (GrayImage, ChromaPlanes) {
        var gray = GrayImage(width: 400, height: 300, fill: around)
        var blue = GrayImage(width: 200, height: 150, fill: aroundChroma.0), red = GrayImage(width: 200, height: 150, fill: aroundChroma.1)
        for y in 50..<250 { for x in 100..<300 { gray[x, y] = 200 } }
        for y in 25..<125 { for x in 50..<150 { blue[x, y] = 80; red[x, y] = 150 } }
        return (gray, ChromaPlanes(blueDifference: blue, redDifference: red, scale: 2))
    }

    @Test("Other paper around a note: told by chromaticity, along two sides or more")
    func otherPaperAround() {
        let paper = Self.quad(100, 50, 299, 249)
        let grey = Self.paperIn(around: 215, aroundChroma: (128, 128))
        // a box reaching 12 px past the right and bottom sides, 1 px past the others
        #expect(FlatZones.aroundIsOtherPaper(paper, in: Self.quad(99, 49, 311, 261), gray: grey.0, chroma: grey.1))
        // past one side only: a piece of one paper cut by a shadow's edge has the rest there
        #expect(!FlatZones.aroundIsOtherPaper(paper, in: Self.quad(99, 49, 380, 250), gray: grey.0, chroma: grey.1))
        // the same yellow paper in shade around it (luminance and chroma's departure from
        // grey both halved): the same chromaticity, no other paper
        let shade = Self.paperIn(around: 100, aroundChroma: (104, 139))
        #expect(!FlatZones.aroundIsOtherPaper(paper, in: Self.quad(99, 49, 311, 261), gray: shade.0, chroma: shade.1))
    }

    static func near(_ a: Quadrilateral?, _ b: Quadrilateral, within tolerance: Double) -> Bool {
        guard let a else { return false }
        return zip(a.corners, b.corners).allSatisfy { Polygon.distance($0, $1) <= tolerance }
    }

    @Test("An outline that took in a sheet below the paper, peeking out along two sides: moved in onto the paper")
    func innerPaperOfTwoSides() {
        let paper = Self.quad(100, 50, 299, 249)
        let (gray, planes) = Self.paperIn(around: 215, aroundChroma: (128, 128))
        // 12 px of grey sheet past the right and bottom sides
        let inner = FlatZones.innerPaper(of: Self.quad(100, 50, 311, 261), gray: gray, chroma: planes)
        #expect(Self.near(inner, paper, within: 2.5), "\(inner?.corners ?? [])")
        // the sheet at an angle: its strip along the right side widening from 4 to 16 px
        let wedge = Quadrilateral(topLeft: Point(100, 50), topRight: Point(303, 50), bottomRight: Point(315, 261),
                                  bottomLeft: Point(100, 261))
        let fromWedge = FlatZones.innerPaper(of: wedge, gray: gray, chroma: planes)
        #expect(Self.near(fromWedge, paper, within: 2.5), "\(fromWedge?.corners ?? [])")
    }

    @Test("An outline whose corner took in a sheet's corner peeking out past it (a thin wedge along two sides): moved in onto the paper",
          arguments: [5.0, 6.0, 8.0])
    func innerPaperOfCornerWedge(poke: Double) {
        let paper = Self.quad(100, 50, 299, 249)
        let (gray, planes) = Self.paperIn(around: 215, aroundChroma: (128, 128))
        // the bottom-right corner `poke` px out each way onto the grey sheet: a wedge along
        // the right and bottom sides, too thin near their other ends for a strip to show
        let outline = Quadrilateral(topLeft: Point(100, 50), topRight: Point(299, 50),
                                    bottomRight: Point(299 + poke, 249 + poke), bottomLeft: Point(100, 249))
        // within two chroma samples (4 px; the outline's corner is 7–11 px off): where the
        // wedge is under a sample and a half thick the paper's edge is known only that well
        let inner = FlatZones.innerPaper(of: outline, gray: gray, chroma: planes)
        #expect(Self.near(inner, paper, within: 4), "\(inner?.corners ?? [])")
        // the same outline on the same yellow in shade: no other paper, left as it is
        let shade = Self.paperIn(around: 100, aroundChroma: (104, 139))
        #expect(FlatZones.innerPaper(of: outline, gray: shade.0, chroma: shade.1) == nil)
    }

    @Test("Controls: a strip along one side, the same paper in shade, no strip: left as it is")
    func innerPaperControls() {
        let (gray, planes) = Self.paperIn(around: 215, aroundChroma: (128, 128))
        // one side only: a piece of a sheet, or a band of desk, beyond one side is no sheet below
        #expect(FlatZones.innerPaper(of: Self.quad(100, 50, 311, 249), gray: gray, chroma: planes) == nil)
        // the paper's own edge: nothing of another colour inside it
        #expect(FlatZones.innerPaper(of: Self.quad(100, 50, 299, 249), gray: gray, chroma: planes) == nil)
        // the same yellow in shade past two sides: the same chromaticity, the same paper
        let shade = Self.paperIn(around: 100, aroundChroma: (104, 139))
        #expect(FlatZones.innerPaper(of: Self.quad(100, 50, 311, 261), gray: shade.0, chroma: shade.1) == nil)
    }

    @Test("Chroma planes are averaged onto the reduced copy's pixels")
    func resampling() {
        var blue = GrayImage(width: 8, height: 4, fill: 100), red = GrayImage(width: 8, height: 4, fill: 150)
        blue[0, 0] = 104; blue[1, 1] = 108                     // the first 2 × 2 square: mean 103
        let planes = ChromaPlanes(blueDifference: blue, redDifference: red, scale: 4)
        // a copy reduced by 8 (two samples a pixel): 4 × 2
        let out = planes.resampled(reducedBy: 8, width: 4, height: 2)
        #expect(out[0][0, 0] == 103 && out[0][1, 0] == 100 && out[1][0, 0] == 150)
        #expect(out[0].width == 4 && out[0].height == 2)
        // turned a quarter clockwise: the top-left sample goes to the top-right
        #expect(planes.rotated(quarterTurns: 1).blueDifference[3, 0] == 104)
    }
}
