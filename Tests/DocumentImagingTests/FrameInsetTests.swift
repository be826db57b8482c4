@testable import DocumentImaging
import ImagingCore
import Testing

/// A drawn box's frame left inside the readable area (`BinaryImage.insideFrame`): the
/// area moves in past its lines, so a digit written against the frame is read apart
/// from it. Literal fields swept over size and line width, with controls.
@Suite("Frame inset")
struct FrameInsetTests {
    /// A field `height` tall and four times as wide: a frame `line` pixels wide drawn
    /// `offset` pixels in from the image's edge, a ring ("0") in the middle and another
    /// whose right side touches the frame's right line; `tick`: a comb's tick standing on
    /// the bottom line a quarter of the way along, a third of the height tall.
    func field(height: Int, line: Int, offset: Int, touching: Bool = true, frame: Bool = true,
               tick: Bool = false) -> (GrayImage, BinaryImage) {
        let w = 4 * height, h = Double(height)
        var g = GrayImage(width: w, height: height, fill: 235)
        var bits = [UInt8](repeating: 0, count: w * height)
        let right = w - offset - line   // the right line's first column
        func ring(_ x: Int, _ y: Int, cx: Double) -> Bool {
            let rx = 0.2 * h, ry = 0.3 * h
            let d = ((Double(x) - cx) / rx) * ((Double(x) - cx) / rx) + ((Double(y) - 0.5 * h) / ry) * ((Double(y) - 0.5 * h) / ry)
            return d <= 1 && d >= 0.45
        }
        let touchingCentre = touching ? Double(right) - 0.2 * h + 1 : Double(right) - 0.5 * h
        for y in 0..<height {
            for x in 0..<w {
                let inFrameBox = x >= offset && x < w - offset && y >= offset && y < height - offset
                let onFrame = frame && inFrameBox
                    && (x < offset + line || x >= right || y < offset + line || y >= height - offset - line)
                let onTick = tick && abs(x - w / 4) < max(1, line / 2 + 1) && y >= height - offset - line - height / 3
                    && y < height - offset
                if onFrame || onTick || ring(x, y, cx: 2 * h) || ring(x, y, cx: touchingCentre) {
                    g[x, y] = 30; bits[y * w + x] = 1
                }
            }
        }
        return (g, BinaryImage(width: w, height: height, bits: bits))
    }

    /// The readable area as the reader takes it (a 25th of the shorter side in).
    func readable(_ g: GrayImage) -> PixelBox {
        let inset = max(2, min(g.width, g.height) / 25)
        return PixelBox(x: inset, y: inset, width: g.width - 2 * inset, height: g.height - 2 * inset)
    }

    func inset(_ b: BinaryImage, _ area: PixelBox) -> PixelBox {
        b.insideFrame(of: area, zone: max(1, Int((0.1 * Double(min(area.width, area.height))).rounded())), cover: 0.9)
    }

    @Test("A digit written against the frame is read apart from it once the area moves in past the frame's lines",
          arguments: [40, 80, 160], [2, 3])
    func digitAgainstFrame(height: Int, line: Int) {
        // the frame a pixel inside the readable area (the quad found a little outside it)
        let (g, b) = field(height: height, line: line, offset: max(2, height / 25) + 1)
        let area = readable(g)
        // premise: in the readable area the touching ring is one piece with the frame
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: area).count == 1)
        let inside = inset(b, area)
        #expect(inside.width < area.width && inside.height < area.height)
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: inside).count == 2)
    }

    @Test("Control: without a frame, or with digits alone near the sides, the area stays as it is", arguments: [40, 160])
    func noFrameNoInset(height: Int) {
        let (g, b) = field(height: height, line: 3, offset: 1, touching: false, frame: false)
        let area = readable(g)
        #expect(inset(b, area) == area)
    }

    @Test("Control: a comb's tick on the bottom line still stands on the area's border, no digit", arguments: [60, 160])
    func tickStaysOnBorder(height: Int) {
        let (g, b) = field(height: height, line: 3, offset: max(2, height / 25) + 1, touching: false, tick: true)
        let inside = inset(b, readable(g))
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: inside).count == 2)
    }
}
