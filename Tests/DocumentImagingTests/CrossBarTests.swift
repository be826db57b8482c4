@testable import DocumentImaging
import Foundation
import Testing

/// `InkCrop.crossBarStrokes`: the longest run across a glyph's middle, in strokes, tells a
/// 7 crossed through its stem from a 7 or a 1 without a cross, whatever the glyph's size,
/// stroke and lean.
@Suite("A 7's cross bar")
struct CrossBarTests {
    /// A glyph `height` px tall drawn with pen strokes `stroke` px wide: `segments` in
    /// units of the height (x right, y down, 0…1 both), on a crop as wide as the glyph is
    /// tall. The ink is 220 with a pale halo (80) a pixel wide, as a blurred pen gives.
    func glyph(_ segments: [(Double, Double, Double, Double)], height: Int, stroke: Double) -> InkCrop {
        let side = height + Int(stroke.rounded(.up)) * 2 + 2
        let margin = Double(side - height) / 2
        var ink = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                var nearest = Double.infinity
                for (x0, y0, x1, y1) in segments {
                    let (ax, ay) = (margin + x0 * Double(height), margin + y0 * Double(height))
                    let (bx, by) = (margin + x1 * Double(height), margin + y1 * Double(height))
                    let (dx, dy) = (bx - ax, by - ay)
                    let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
                    nearest = min(nearest, hypot(px - (ax + t * dx), py - (ay + t * dy)))
                }
                if nearest <= stroke / 2 { ink[y * side + x] = 220 } else if nearest <= stroke / 2 + 1 { ink[y * side + x] = 80 }
            }
        }
        return InkCrop(box: PixelBox(x: 0, y: 0, width: side, height: side), ink: ink)
    }

    /// A 7: its top bar and a stem from the bar's right end to the foot, `foot` of the
    /// height from the left; crossed, with a bar through the stem at half height.
    func seven(foot: Double, crossed: Bool) -> [(Double, Double, Double, Double)] {
        var segments = [(0.1, 0.0, 0.6, 0.0), (0.6, 0.0, foot, 1.0)]
        if crossed {
            let middle = (0.6 + foot) / 2
            segments.append((middle - 0.2, 0.5, middle + 0.2, 0.5))
        }
        return segments
    }

    /// A 1 with a flag off its top, down to the left (`flag` of the height long).
    func flaggedOne(flag: Double) -> [(Double, Double, Double, Double)] {
        [(0.5, 0.0, 0.45, 1.0), (0.5, 0.0, 0.5 - flag * 0.8, flag * 0.6)]
    }

    /// A 1 whose flag joins the stem `join` of the height below its top, from the left and
    /// about level (written ⊣: the stroke runs on above the flag).
    func joinedFlagOne(join: Double) -> [(Double, Double, Double, Double)] {
        [(0.5, 0.0, 0.47, 1.0), (0.5 - 0.35, join + 0.12, 0.5 - join * 0.03, join)]
    }

    static let heights = [20, 32, 48, 80]
    /// Strokes from a tenth to a sixth of the glyph's height, in px for each height.
    static func strokes(for height: Int) -> [Double] { [0.1, 0.13, 0.17].map { max(2, Double(height) * $0) } }

    @Test("A crossed 7 has a cross bar; a 7 without a cross, a 1 with a flag at its top or joining it lower, not",
          arguments: heights)
    func crossedAndNot(height: Int) {
        for stroke in Self.strokes(for: height) {
            for foot in [0.25, 0.35, 0.45] {   // the stem's lean: 59°, 63° and 69° off the horizontal
                let crossed = glyph(seven(foot: foot, crossed: true), height: height, stroke: stroke)
                let plain = glyph(seven(foot: foot, crossed: false), height: height, stroke: stroke)
                #expect(crossed.hasCrossBar, "crossed 7, height \(height), stroke \(stroke), foot \(foot): \(crossed.crossBarStrokes ?? 0)")
                #expect(!plain.hasCrossBar, "plain 7, height \(height), stroke \(stroke), foot \(foot): \(plain.crossBarStrokes ?? 0)")
            }
            for flag in [0.2, 0.35, 0.5] {
                let one = glyph(flaggedOne(flag: flag), height: height, stroke: stroke)
                #expect(!one.hasCrossBar, "flagged 1, height \(height), stroke \(stroke), flag \(flag): \(one.crossBarStrokes ?? 0)")
            }
            for join in [0.25, 0.35, 0.45] {   // reaching down into the band a cross bar lies in
                let one = glyph(joinedFlagOne(join: join), height: height, stroke: stroke)
                #expect(!one.hasCrossBar, "1 written ⊣, height \(height), stroke \(stroke), join \(join): \(one.crossBarStrokes ?? 0)")
            }
        }
    }

    @Test("Controls: a bar at the top or the foot alone, or off one side of the stem, is no cross bar; a crop with no ink has no measure")
    func controls() {
        let top = glyph([(0.1, 0.0, 0.9, 0.0), (0.5, 0.0, 0.5, 1.0)], height: 40, stroke: 5)      // a T
        let foot = glyph([(0.5, 0.0, 0.5, 1.0), (0.1, 1.0, 0.9, 1.0)], height: 40, stroke: 5)     // an upside-down T
        let middle = glyph([(0.5, 0.0, 0.5, 1.0), (0.1, 0.5, 0.9, 0.5)], height: 40, stroke: 5)   // a cross
        let side = glyph([(0.5, 0.0, 0.5, 1.0), (0.1, 0.5, 0.5, 0.5)], height: 40, stroke: 5)     // ⊣
        #expect(!top.hasCrossBar && !foot.hasCrossBar && middle.hasCrossBar && !side.hasCrossBar)
        #expect(InkCrop(box: PixelBox(x: 0, y: 0, width: 4, height: 4), ink: [UInt8](repeating: 0, count: 16)).crossBarStrokes == nil)
    }
}
