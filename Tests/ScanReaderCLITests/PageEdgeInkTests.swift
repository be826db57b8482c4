import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A note read as part of the whole page (nothing on it read as a field): the shadow along
/// its lifted edge was ink on the page, cut into thin strokes read as "111". Ink running
/// along the sides of the quads found is not the page's (`Layout.pageInk(of:less:)`).
@Suite("A note's shaded edge is no ink on the page")
struct PageEdgeInkTests {
    /// A 900 × 700 desk at grey 160 with a note (225) from (250, 150) to (550, 450), the
    /// shadow it casts along its right edge a rim `rimWidth` px wide at 125 (darker than
    /// both the note and the desk: a stroke to any threshold), and a bar 120 × 10 at
    /// grey 40 across its middle (a 1 lying on its side).
    func photo(rimWidth: Int) -> GrayImage {
        var image = GrayImage(width: 900, height: 700, fill: 160)
        for y in 150..<450 { for x in 250..<550 { image[x, y] = 225 } }
        for y in 152..<452 { for x in 550..<(550 + rimWidth) { image[x, y] = 125 } }
        for y in 295..<305 { for x in 340..<460 { image[x, y] = 40 } }
        return image
    }

    func ink(_ b: BinaryImage, x: Range<Int>, y: Range<Int>) -> Int {
        y.reduce(0) { sum, yy in sum + x.reduce(0) { $0 + Int(b.bits[yy * b.width + $1]) } }
    }

    @Test("The shadow along the note's edge is cleared, the bar on the note kept", arguments: [3, 6, 10])
    func shadedEdgeCleared(rimWidth: Int) throws {
        let image = photo(rimWidth: rimWidth)
        let quads = QuadDetector().detect(in: image)
        try #require(quads.contains { q in abs(q.quad.center.x - 400) < 20 && abs(q.quad.center.y - 300) < 20 })
        let strip = (x: 550..<(550 + rimWidth), y: 160..<440)
        #expect(ink(Layout.pageInk(of: image), x: strip.x, y: strip.y) > 0, "the premise: the rim is ink")
        let cleared = Layout.pageInk(of: image, less: quads)
        #expect(ink(cleared, x: strip.x, y: strip.y) == 0)
        #expect(ink(cleared, x: 340..<460, y: 295..<305) > 1000)
    }
}
