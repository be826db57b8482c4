@testable import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// A comb drawn in a pale hairline, photographed a little soft: its outline is a few grey
/// levels below the paper while the digits in it are dark, so every threshold set by the
/// digits keeps only specks of the outline. Its ridges show it whole.
@Suite("Faint boxes")
struct FaintBoxesTests {
    /// A sheet `scale` × (720 × 360) at grey 232 with grain (±`grain` levels, a fixed
    /// sequence), a box from (120, 120) to (600, 220) drawn `lineDepth` levels below the
    /// paper, one pixel × `scale` wide, blurred a little, and dark 0s in it.
    func sheet(scale: Int, lineDepth: Int, grain: Int = 3, outline: Bool = true, digits: Bool = true) -> GrayImage {
        let (w, h) = (720 * scale, 360 * scale)
        var g = GrayImage(width: w, height: h, fill: 232)
        let (x0, y0, x1, y1) = (120 * scale, 120 * scale, 600 * scale, 220 * scale)
        if outline {
            for y in y0..<y1 {
                for x in x0..<x1 where x - x0 < scale || x1 - 1 - x < scale || y - y0 < scale || y1 - 1 - y < scale {
                    g[x, y] = UInt8(232 - lineDepth)
                }
            }
        }
        if digits {
            // six 0s as a monospace face draws them: straight sides, rounded corners;
            // 60 × scale tall, 36 wide, stroke 8, one per 80 × scale
            let (rw, rh, t, r) = (18 * scale, 30 * scale, 8 * scale, 10 * scale)
            for k in 0..<6 {
                let cx = x0 + (40 + 80 * k) * scale, cy = (y0 + y1) / 2
                for y in (cy - rh)..<(cy + rh) {
                    for x in (cx - rw)..<(cx + rw) {
                        // distance inside the rounded rectangle's edge
                        let qx = max(0, abs(x - cx) - (rw - r)), qy = max(0, abs(y - cy) - (rh - r))
                        let outside = Double(qx * qx + qy * qy).squareRoot() - Double(r)
                        let fromEdge = qx > 0 && qy > 0 ? -outside : Double(min(rw - abs(x - cx), rh - abs(y - cy)))
                        if fromEdge >= 0 && fromEdge < Double(t) { g[x, y] = 40 }
                    }
                }
            }
        }
        // a 3 × 3 mean (a soft lens), then the grain
        var soft = g
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(g[x + dx, y + dy]) } }
                soft[x, y] = UInt8(sum / 9)
            }
        }
        var state: UInt32 = 2024
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 1_664_525 &+ 1_013_904_223
                let n = grain == 0 ? 0 : Int(state >> 24) % (2 * grain + 1) - grain
                soft[x, y] = UInt8(max(0, min(255, Int(soft[x, y]) + n)))
            }
        }
        return soft
    }

    /// The boxes found on the whole of `g`: by the thresholds alone, and with the ridges.
    func boxes(_ g: GrayImage) -> (thresholds: [LineBoxes.Box], withRidges: [LineBoxes.Box]) {
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(Double(g.width), 0),
                                  bottomRight: Point(Double(g.width), Double(g.height)), bottomLeft: Point(0, Double(g.height)))
        guard let (inks, ridges, _) = LineBoxes.straightenedInk(of: whole, in: g, longestSide: 720) else { return ([], []) }
        let finder = LineBoxes(longerSide: max(ridges.width, ridges.height))
        return (inks.flatMap { finder.boxes(in: $0) }.filter { $0.outer.width < ridges.width / 2 },
                finder.boxes(in: inks, ridges: ridges, largestShare: 0.5))
    }

    @Test("A hairline box a few levels below the paper, holding dark digits, is found from its ridges at every scale",
          arguments: [1, 2], [16, 20, 26])
    func faintComb(scale: Int, lineDepth: Int) {
        let found = boxes(sheet(scale: scale, lineDepth: lineDepth))
        // the premise: no threshold shows it
        #expect(found.thresholds.isEmpty)
        // the comb's outline, within a few pixels (straightened at 720 px)
        let comb = found.withRidges.filter { abs($0.left - 120) < 4 && abs($0.right - 600) < 4 && abs($0.top - 120) < 4 && abs($0.bottom - 220) < 4 }
        #expect(comb.count == 1)
        // and nothing else: the 0s' bowls, straight-sided, are no boxes
        #expect(found.withRidges.count == 1)
    }

    @Test("Control: the 0s alone on grainy paper make no box; nor does grain alone")
    func ringsAreNoBoxes() {
        #expect(boxes(sheet(scale: 1, lineDepth: 20, outline: false)).withRidges.isEmpty)
        #expect(boxes(sheet(scale: 1, lineDepth: 20, outline: false, digits: false)).withRidges.isEmpty)
    }

    @Test("A glyph's loop traced by the ridges, its sides dark ink, is set aside")
    func loopIsDark() {
        // the ring's bowl as a box whose sides run along the dark ring
        var bits = [UInt8](repeating: 0, count: 100 * 100)
        for y in 20..<80 { for x in 20..<80 where x < 26 || x >= 74 || y < 26 || y >= 74 { bits[y * 100 + x] = 1 } }
        let dark = BinaryImage(width: 100, height: 100, bits: bits)
        let loop = LineBoxes.Box(top: 22, bottom: 77, left: 22, right: 77, outer: PixelBox(x: 20, y: 20, width: 60, height: 60))
        #expect(LineBoxes.darkShare(of: loop, in: dark) > LineBoxes.loopDarkShare)
        // control: the same box where the dark ink is a digit inside it, clear of its sides
        var inside = [UInt8](repeating: 0, count: 100 * 100)
        for y in 35..<65 { for x in 45..<55 { inside[y * 100 + x] = 1 } }
        #expect(LineBoxes.darkShare(of: loop, in: BinaryImage(width: 100, height: 100, bits: inside)) == 0)
    }

    @Test("A ridge is a pixel darker than both neighbours a reach away across it; a broad band has none inside")
    func ridgesOfLinesAndBands() {
        var g = GrayImage(width: 60, height: 60, fill: 200)
        for x in 0..<60 { g[x, 10] = 194 }               // a hairline 6 levels down
        for y in 30..<50 { for x in 0..<60 { g[x, y] = 60 } }   // a band 20 px high
        let r = g.ridges(reach: 3, step: 4)
        #expect((5..<55).allSatisfy { r.bits[10 * 60 + $0] == 1 })
        #expect((5..<55).allSatisfy { r.bits[40 * 60 + $0] == 0 })
        // control: a step under the line's depth misses nothing; over it, the line is gone
        #expect(g.ridges(reach: 3, step: 7).bits[10 * 60 + 30] == 0)
    }
}
