@testable import DocumentImaging
import Testing

/// Cutting a piece of touching glyphs apart (`InkCrop.split`): literal crops of rings
/// joined by a thin bridge, swept over scale and glyph count, with controls.
@Suite("Touching glyphs cut apart")
struct InkSplitTests {
    /// `count` rings side by side, each `size` tall and 0.7 × `size` wide, stroke a tenth
    /// of `size`, neighbours overlapping by a stroke (touching as tight print does); at
    /// `offset` in the region.
    func touchingRings(count: Int, size: Int, gap: Int = -1) -> InkCrop {
        let t = max(1, size / 10), gw = size * 7 / 10, step = gw + (gap < 0 ? -t : gap)
        let w = step * (count - 1) + gw, h = size
        var ink = [UInt8](repeating: 0, count: w * h)
        for k in 0..<count {
            let cx = Double(k * step) + Double(gw) / 2, cy = Double(h) / 2
            let rx = Double(gw) / 2, ry = Double(h) / 2
            for y in 0..<h {
                for x in 0..<w {
                    let dx = (Double(x) + 0.5 - cx) / rx, dy = (Double(y) + 0.5 - cy) / ry
                    let d = dx * dx + dy * dy
                    let inner = (1 - Double(t) / rx) * (1 - Double(t) / ry)
                    if d <= 1 && d >= inner { ink[y * w + x] = 200 }
                }
            }
        }
        return InkCrop(box: PixelBox(x: 10, y: 20, width: w, height: h), ink: ink)
    }

    @Test("Touching rings are cut where they meet, each part trimmed to its ring",
          arguments: [2, 3, 4], [12, 24, 48])
    func cutWhereTheyMeet(count: Int, size: Int) throws {
        let crop = touchingRings(count: count, size: size)
        let parts = try #require(crop.split(into: count))
        #expect(parts.count == count)
        let t = max(1, size / 10), gw = size * 7 / 10, step = gw - t
        for (k, part) in parts.enumerated() {
            // each ring spans step·k … step·k + gw; a part holds one ring, less or more the
            // stroke where they overlap
            #expect(abs(part.box.x - (10 + step * k)) <= t + 1, "part \(k) starts at \(part.box.x)")
            #expect(abs(part.box.maxX - (10 + step * k + gw)) <= t + 1, "part \(k) ends at \(part.box.maxX)")
            #expect(part.box.y == 20 && part.box.height == size)
            #expect(part.ink.count == part.box.width * part.box.height)
        }
    }

    @Test("Rings apart with a gap: the cut falls in the gap")
    func cutInTheGap() throws {
        let crop = touchingRings(count: 2, size: 30, gap: 4)
        let parts = try #require(crop.split(into: 2))
        #expect(parts[0].box.width == 21 && parts[1].box.width == 21)
        #expect(parts[1].box.x - parts[0].box.maxX == 4)
    }

    @Test("Controls: a part with no ink, a crop too narrow, fewer than two parts")
    func controls() {
        // ink only in the left third: cut in two, the right part is empty
        var ink = [UInt8](repeating: 0, count: 30 * 10)
        for y in 0..<10 { for x in 0..<8 { ink[y * 30 + x] = 255 } }
        #expect(InkCrop(box: PixelBox(x: 0, y: 0, width: 30, height: 10), ink: ink).split(into: 2) == nil)
        let narrow = InkCrop(box: PixelBox(x: 0, y: 0, width: 3, height: 10), ink: [UInt8](repeating: 255, count: 30))
        #expect(narrow.split(into: 2) == nil)
        #expect(touchingRings(count: 2, size: 20).split(into: 1) == nil)
    }
}
