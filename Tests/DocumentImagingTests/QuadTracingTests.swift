@testable import DocumentImaging
import ImagingCore
import Testing

/// The detector's stages one by one (`QuadDetector.traced`, `addFlatPaper`, `detected`) on
/// literal images: a drawn box every pass traces is one candidate, paper a pass already
/// traced is not added again, and the stages together are `detect`.
@Suite("The detector's stages: tracing, flat paper, refinement")
struct QuadTracingTests {
    /// A light sheet with a box drawn on it (stroke `thickness`), unreduced.
    static func boxPhoto(thickness: Double) -> (image: GrayImage, box: [Point]) {
        let box = [Point(150, 120), Point(470, 130), Point(465, 300), Point(145, 290)]
        var image = TestImages.outlinedPolygon(box, thickness: thickness, width: 640, height: 420)
        // a digit-like bar inside, so the box holds ink as a field would
        for y in 170..<250 { for x in 300..<308 { image[x, y] = 30 } }
        return (image, box)
    }

    static func stands(for corners: [Point], _ quad: Quadrilateral, within: Double) -> Bool {
        corners.allSatisfy { c in quad.corners.contains { Polygon.distance($0, c) < within } }
    }

    @Test("A drawn box that several passes trace is one candidate, at every line weight",
          arguments: [1.5, 3.0, 6.0])
    func boxTracedOnce(thickness: Double) {
        let (image, box) = Self.boxPhoto(thickness: thickness)
        let detector = QuadDetector()
        #expect(detector.reduction(of: image) == 1)
        let minArea = detector.minimumAreaFraction * Double(image.width * image.height)
        let tolerance = QuadDetector.sameQuadShare * Double(max(image.width, image.height))
        let found = detector.traced(image: image, small: image, factor: 1, minArea: minArea, tolerance: tolerance)
        // the outline or its inside, a line's width apart: one of them, once
        let near = found.filter { Self.stands(for: box, $0.quad, within: thickness + 4) }
        #expect(near.count == 1, "thickness \(thickness): \(found.map(\.quad.corners))")
        // control: the same sheet with no box drawn has no candidate there
        var blank = GrayImage(width: image.width, height: image.height, fill: 235)
        for y in 170..<250 { for x in 300..<308 { blank[x, y] = 30 } }
        let none = detector.traced(image: blank, small: blank, factor: 1, minArea: minArea, tolerance: tolerance)
        #expect(!none.contains { Self.stands(for: box, $0.quad, within: thickness + 4) })
    }

    @Test("Flat paper is added only where no traced candidate stands for it")
    func flatPaperNotDuplicated() {
        let image = FlatPaperTests.photo(desk: 195, note: 175, corners: FlatPaperTests.noteCorners, noise: 0)
        let detector = QuadDetector()
        let factor = detector.reduction(of: image)
        let small = image.reduced(by: factor)
        let tolerance = QuadDetector.sameQuadShare * Double(max(small.width, small.height))
        let note = FlatPaperTests.noteCorners.map { Point($0.x / Double(factor), $0.y / Double(factor)) }
        var none: [QuadDetector.Candidate] = []
        detector.addFlatPaper(to: &none, small: small, chroma: nil, tolerance: tolerance)
        let papers = none.filter { $0.isPaper && Self.stands(for: note, $0.quad, within: 6) }
        #expect(papers.count == 1, "\(none.map(\.quad.corners))")
        // the same note already traced: nothing added for it
        guard let paper = papers.first else { return }
        var traced = [QuadDetector.Candidate(quad: paper.quad, isHole: true, followsFrame: false)]
        detector.addFlatPaper(to: &traced, small: small, chroma: nil, tolerance: tolerance)
        #expect(traced.filter { Self.stands(for: note, $0.quad, within: 6) }.count == 1)
    }

    @Test("The stages together are detect: the same quads in the same order, with parents")
    func stagesAreDetect() {
        let (image, _) = Self.boxPhoto(thickness: 3)
        let detector = QuadDetector()
        let minArea = detector.minimumAreaFraction * Double(image.width * image.height)
        let tolerance = QuadDetector.sameQuadShare * Double(max(image.width, image.height))
        var found = detector.traced(image: image, small: image, factor: 1, minArea: minArea, tolerance: tolerance)
        detector.addFlatPaper(to: &found, small: image, chroma: nil, tolerance: tolerance)
        let staged = detector.detected(found, in: image, factor: 1, chroma: nil)
        let whole = detector.detect(in: image)
        #expect(!whole.isEmpty)
        #expect(staged.map(\.quad.corners) == whole.map(\.quad.corners))
        #expect(staged.map(\.parent) == whole.map(\.parent))
    }
}
