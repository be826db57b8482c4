@testable import DocumentImaging
import Testing

/// A later detection pass may trace a frame an earlier one only half found: a quad whose
/// hull was pulled out to a line beside the frame does not stand for the frame's outline.
@Suite("An earlier quad stands for an outline only when it fits its border")
struct EarlierPassTests {
    /// A frame 400 × 300 and its border, a point a pixel.
    let frame = Quadrilateral(ordering: [Point(100, 50), Point(500, 50), Point(500, 350), Point(100, 350)])
    var border: [Point] {
        var points: [Point] = []
        for x in 100..<500 { points.append(Point(Double(x), 50)) }
        for y in 50..<350 { points.append(Point(500, Double(y))) }
        for x in stride(from: 500, to: 100, by: -1) { points.append(Point(Double(x), 350)) }
        for y in stride(from: 350, to: 50, by: -1) { points.append(Point(100, Double(y))) }
        return points
    }

    @Test("A quad pulled out at one corner does not fit the frame's border; the frame's own does")
    func pulledCornerDoesNotFit() {
        // the top-left corner pulled 40 px out to a line beside the frame: the left side
        // then runs diagonally, away from the border but at its ends
        let pulled = Quadrilateral(ordering: [Point(60, 50), Point(500, 50), Point(500, 350), Point(100, 350)])
        #expect(!QuadDetector.fitsBorder(pulled, border: border))
        #expect(QuadDetector.fitsBorder(frame, border: border))
    }

    @Test("A later pass's frame is taken unless an earlier quad that fits its border stands for it")
    func misfitDoesNotBlockLaterPass() {
        // the later pass traced the frame merged with a line 30 px to its left
        let merged = Quadrilateral(ordering: [Point(70, 48), Point(502, 48), Point(502, 352), Point(70, 352)])
        let pulled = Quadrilateral(ordering: [Point(72, 50), Point(500, 50), Point(500, 350), Point(100, 350)])
        #expect(!QuadDetector.isFoundEarlier(merged, among: [(pulled, false)]))
        #expect(QuadDetector.isFoundEarlier(merged, among: [(frame, true)]))
        // control: a fitting quad too small to be the same frame does not stand for it
        let cell = Quadrilateral(ordering: [Point(100, 50), Point(200, 50), Point(200, 150), Point(100, 150)])
        #expect(!QuadDetector.isFoundEarlier(merged, among: [(cell, true)]))
    }
}
