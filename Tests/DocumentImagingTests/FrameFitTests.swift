@testable import DocumentImaging
import ImagingCore
import Testing

/// The frame of a grid found where it runs in a region straightened off it (`FrameFit`).
@Suite("Frame fit: a grid's frame where it runs, not where the straight ruling puts it")
struct FrameFitTests {
    /// A 9×9 grid of 44 px cells in a 440 × 440 grey region, each line leaning: vertical
    /// line c at x = 10 + 44c + lean·y/400, horizontal line r at y = 10 + 44r + lean·x/400;
    /// the frame 4 px thick, the rest 2 px; a frame side broken over `gap` px.
    func region(lean: Double, gap: Int = 0) -> (GrayImage, BinaryImage) {
        var g = GrayImage(width: 440, height: 440, fill: 225)
        for y in 0..<440 {
            for x in 0..<440 {
                for k in 0...9 {
                    let half = k == 0 || k == 9 ? 2.0 : 1.0
                    let vx = 10 + 44 * Double(k) + lean * Double(y) / 400
                    let hy = 10 + 44 * Double(k) + lean * Double(x) / 400
                    let onV = abs(Double(x) - vx) <= half && Double(y) >= 8 && Double(y) <= 408 + lean
                    let onH = abs(Double(y) - hy) <= half && Double(x) >= 8 && Double(x) <= 408 + lean
                    let broken = k == 0 && onH && x > 150 && x < 150 + gap
                    if (onV || onH) && !broken { g[x, y] = 30 }
                }
            }
        }
        return (g, BinaryImage(width: 440, height: 440, bits: g.pixels.map { $0 < 128 ? 1 : 0 }))
    }

    var straight: Ruling {
        let lines = (0...9).map { 10 + 44 * Double($0) + 10 }
        return Ruling(rows: lines, columns: lines)
    }

    @Test("A frame leaning off the straight ruling is found where it runs", arguments: [0.0, 12.0, 24.0])
    func leaningFrame(lean: Double) throws {
        let (g, ink) = region(lean: lean)
        let corners = try #require(FrameFit.corners(of: straight, in: ink, gray: g))
        // where the frame's centre lines cross
        let truth = [Point(10, 10), Point(406 + lean * 10 / 400, 10 + lean * 406 / 400),
                     Point(406 + lean * 406 / 400, 406 + lean * 406 / 400), Point(10 + lean * 406 / 400, 406)]
        for (found, expected) in zip(corners, truth) {
            #expect(Polygon.distance(found, expected) < 2.5, "\(corners)")
        }
    }

    @Test("Where the frame is broken the next line is met; the side still follows the frame")
    func brokenFrame() throws {
        let (g, ink) = region(lean: 12, gap: 120)
        let corners = try #require(FrameFit.corners(of: straight, in: ink, gray: g))
        #expect(abs(corners[0].y - 10) < 2 && abs(corners[1].y - (10 + 12 * 406.0 / 400)) < 2.5, "\(corners)")
    }
}
