@testable import DocumentImaging
import ImagingCore
import Testing

/// A hard shadow's edge across one end of a long drawn box (a form's field, a comb): the
/// primary threshold closes the box along the band the local mean leaves on the edge's dark
/// side, and the box's part on one side of the edge is traced as a quad of its own. The
/// shadow-free copy traces the whole box; the quad closed along the band is then dropped
/// (`QuadDetector.isClosedOffInk`), so the layout is not offered a box a shadow cut.
@Suite("A box a shadow's edge cut short is replaced by the whole box")
struct CutShortQuadTests {
    /// The box, on a 1400 × 1000 sheet: from (200, 400) to (1200, 560), lines 4 px wide.
    static let box = [Point(200, 400), Point(1200, 400), Point(1200, 560), Point(200, 560)]

    /// The sheet under a shadow darkening to `shade` of its light everything left of the
    /// line through (`edgeX`, 400) leaning `lean` px right per px down (or, `shadedRight`,
    /// everything right of it), its edge a penumbra `penumbra` px wide (a hand's or a
    /// phone's shadow, 1–2 % of the sheet), with `bars` upright strokes 12 px wide, 90 px
    /// tall, drawn evenly in the box as digits; blurred a little.
    func sheet(edgeX: Double, lean: Double, shade: Double, shadedRight: Bool = false, penumbra: Double = 16,
               bars: Int = 4) -> GrayImage {
        var g = GrayImage(width: 1400, height: 1000, fill: 215)
        let barXs = (0..<bars).map { 260 + $0 * (880 / max(1, bars)) }
        func ink(_ x: Int, _ y: Int) -> Bool {
            guard x >= 200, x < 1200, y >= 400, y < 560 else { return false }
            if y < 404 || y >= 556 || x < 204 || x >= 1196 { return true }
            return (435..<525).contains(y) && barXs.contains { (x - $0) >= 0 && (x - $0) < 12 }
        }
        for y in 0..<1000 {
            for x in 0..<1400 {
                let v = ink(x, y) ? 45.0 : 215.0
                // how far into the shade, across a penumbra `penumbra` px wide
                let depth = (shadedRight ? 1.0 : -1.0) * (Double(x) - edgeX - lean * Double(y - 400))
                let inShade = min(1, max(0, depth / penumbra + 0.5))
                g[x, y] = UInt8((v * (1 - inShade * (1 - shade))).rounded())
            }
        }
        // a camera's blur: two passes of a 3 × 3 box
        return TestImages.boxBlurred(g, radius: 1, passes: 2)
    }

    /// The quads found along the box's top and bottom: those whose four corners lie
    /// within 12 px of the box's (`whole`), and those with at least one corner farther
    /// (`cut`: a part of the box, closed somewhere across it).
    func boxQuads(_ g: GrayImage) -> (whole: Int, cut: Int) {
        let quads = QuadDetector().detect(in: g).map(\.quad).filter { q in
            q.corners.allSatisfy { $0.y > 380 && $0.y < 580 && $0.x > 180 && $0.x < 1220 }
                && q.area > 0.3 * 1000 * 160
        }
        let whole = quads.filter { q in zip(q.corners, Self.box).allSatisfy { Polygon.distance($0, $1) < 12 } }
        return (whole.count, quads.count - whole.count)
    }

    @Test("The edge aslant across the box's end, the box's end or the rest in shadow",
          arguments: [(1000.0, 0.5, false), (1000.0, 0.5, true), (950.0, -0.4, false), (400.0, 0.5, true)])
    func cutByEdge(edge: (x: Double, lean: Double, shadedRight: Bool)) {
        let found = boxQuads(sheet(edgeX: edge.x, lean: edge.lean, shade: 0.5, shadedRight: edge.shadedRight))
        #expect(found.whole >= 1)
        #expect(found.cut == 0)
    }

    @Test("Control: the box without a shadow, and wholly in shadow: found whole, never cut")
    func control() {
        for g in [sheet(edgeX: -1, lean: 0, shade: 0.5), sheet(edgeX: 2000, lean: 0, shade: 0.5)] {
            let found = boxQuads(g)
            #expect(found.whole >= 1)
            #expect(found.cut == 0)
        }
    }

    /// A 200 × 100 copy with a box's outline (lines 2 px wide along x = 10, x = 190,
    /// y = 10, y = 90) and, as asked, a divider down x = 140 and strokes crossing it.
    func ink(divider: Bool = false, crossedRows: Range<Int> = 0..<0) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: 200 * 100)
        for y in 10..<92 { for x in 10..<192 {
            let line = x < 12 || x >= 190 || y < 12 || y >= 90
            let drawn = divider && (140..<142).contains(x)
            let stroke = crossedRows.contains(y) && (130..<150).contains(x)
            if line || drawn || stroke { bits[y * 200 + x] = 1 }
        } }
        return BinaryImage(width: 200, height: 100, bits: bits)
    }

    func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    @Test("isClosedOffInk on literal ink: a side across blank paper, or crossed by strokes over a third of it, cuts the box short")
    func closedOff() {
        let outline = quad(10, 10, 191, 91), part = quad(11, 11, 140, 90)
        #expect(QuadDetector.isClosedOffInk(part, by: outline, in: ink()))
        #expect(QuadDetector.isClosedOffInk(part, by: outline, in: ink(crossedRows: 30..<57)))
    }

    @Test("Negative controls: a drawn divider, the box's own inside, a side along the outline's own")
    func notClosedOff() {
        let outline = quad(10, 10, 191, 91)
        // the part a drawn divider closes is a box of its own
        #expect(!QuadDetector.isClosedOffInk(quad(11, 11, 141, 90), by: outline, in: ink(divider: true)))
        // the outline's hole: every side on its line
        #expect(!QuadDetector.isClosedOffInk(quad(12, 12, 189, 89), by: outline, in: ink()))
        // a side 6 px inside the outline's right side (under a twentieth of its 181 px length):
        // that side found a little off, not a cut across the box
        #expect(!QuadDetector.isClosedOffInk(quad(11, 11, 185, 90), by: outline, in: ink()))
    }

    @Test("isMergedOffInk on literal ink: an outline around the box that the copy draws nowhere is the box merged with a band")
    func mergedOff() {
        let box = quad(10, 10, 191, 91), around = quad(4, 4, 196, 96)
        #expect(QuadDetector.isMergedOffInk(around, isHole: false, around: box, in: ink()))
        // controls: a hole (a sheet ringed by desk), the box's own outline (drawn), a quad
        // smaller than the box, a quad around it with one drawn side
        #expect(!QuadDetector.isMergedOffInk(around, isHole: true, around: box, in: ink()))
        #expect(!QuadDetector.isMergedOffInk(quad(10, 10, 191, 91), isHole: false, around: quad(12, 12, 189, 89), in: ink()))
        #expect(!QuadDetector.isMergedOffInk(quad(20, 20, 180, 80), isHole: false, around: box, in: ink()))
        #expect(!QuadDetector.isMergedOffInk(quad(10, 4, 196, 96), isHole: false, around: box, in: ink()))
    }
}
