import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A table whose quad is its whole sheet (no frame of its own traced): the sheet's margin
/// beyond the table's last line divides like a row of cells, and the desk past the
/// paper's edge is a dark line at the quad's edge, as a frame would be (corpus seed 2
/// 00249, 00349). A frame is drawn on paper, with paper beyond it; the sheet's own edge
/// has the desk beyond it.
@Suite("A table whose quad is its sheet")
struct PaperEdgeGridTests {
    /// A 9×9 table of 50 px cells with 3 px lines from (50, 50), rings ("0"s) in a few cells,
    /// on a sheet of `paper` grey from (20, 20) to (`sheetRight`, `sheetBottom`), on a desk of
    /// `desk` grey; 560 × 620 px.
    func photo(desk: UInt8, paper: UInt8 = 225, sheetRight: Int = 533, sheetBottom: Int = 553) -> GrayImage {
        var image = GrayImage(width: 560, height: 620, fill: desk)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ v: UInt8) {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = v } }
        }
        paint(20, 20, sheetRight, sheetBottom, paper)
        for k in 0...9 {
            paint(49 + 50 * k, 49, 52 + 50 * k, 502, 30)
            paint(49, 49 + 50 * k, 502, 52 + 50 * k, 30)
        }
        for (r, c) in [(0, 0), (1, 4), (3, 7), (5, 2), (7, 5), (8, 8)] { ring(&image, x: 75 + 50 * c, y: 75 + 50 * r) }
        return image
    }

    /// A "0": an ellipse ring 16 × 30 px, stroke 4 px, centred at (x, y).
    func ring(_ image: inout GrayImage, x: Int, y: Int) {
        for yy in (y - 17)...(y + 17) {
            for xx in (x - 10)...(x + 10) {
                let (dx, dy) = (Double(xx - x) / 8, Double(yy - y) / 15)
                let d = dx * dx + dy * dy
                if d <= 1.0 && d >= 0.55 { image[xx, yy] = 35 }
            }
        }
    }

    /// The quad from (49, 49) to (502, `bottom`): the table's frame at the top and sides.
    func quad(bottom: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(49, 49), topRight: Point(502, 49), bottomRight: Point(502, bottom),
                      bottomLeft: Point(49, bottom))
    }

    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    /// The rows of the table read in `image` when the quad found is `quad`.
    func rows(of image: GrayImage, quad: Quadrilateral) -> Int? {
        let laidOut = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
        return Self.reader.read(laidOut).first { $0.region.kind == .grid }?.region.ruling?.rowCount
    }

    @Test("The sheet's margin below the table, its edge dark with the desk past it, is no row",
          arguments: [UInt8(60), 110, 150])
    func marginTrimmed(desk: UInt8) {
        // the quad's bottom edge is the paper's: its last row of pixels half desk
        #expect(rows(of: photo(desk: desk), quad: quad(bottom: 553)) == 9)
    }

    @Test("Kept (controls): paper past the edge line, a desk as light as the paper, a margin holding a digit")
    func kept() {
        // a line drawn along the quad's bottom edge with paper past it: a frame
        var framed = photo(desk: 60, sheetBottom: 600)
        for y in 550..<553 { for x in 49..<502 { framed[x, y] = 30 } }
        #expect(rows(of: framed, quad: quad(bottom: 553)) == 10)
        // a white desk: the sheet's edge cannot be told from a frame by what lies past it
        var light = photo(desk: 225)
        for y in 550..<553 { for x in 49..<502 { light[x, y] = 30 } }
        #expect(rows(of: light, quad: quad(bottom: 553)) == 10)
        // a digit ("0") in the margin: the strip is read, so it stays
        var written = photo(desk: 60)
        ring(&written, x: 225, y: 527)
        #expect(rows(of: written, quad: quad(bottom: 553)) == 10)
    }

    @Test("Sides off paper: the sheet's edges; none for the table's frame, a light desk, or the photo's frame")
    func sidesOffPaper() {
        let ruling = Ruling(rows: (0...9).map { 50.0 * Double($0) }, columns: (0...9).map { 50.0 * Double($0) })
        let sheet = Quadrilateral(topLeft: Point(20, 20), topRight: Point(532, 20), bottomRight: Point(532, 552),
                                  bottomLeft: Point(20, 552))
        #expect(Layout.sidesOffPaper(of: sheet, ruling: ruling, in: photo(desk: 60)) == [.top, .right, .bottom, .left])
        #expect(Layout.sidesOffPaper(of: quad(bottom: 502), ruling: ruling, in: photo(desk: 60)).isEmpty)
        #expect(Layout.sidesOffPaper(of: sheet, ruling: ruling, in: photo(desk: 225)).isEmpty)
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(559, 0), bottomRight: Point(559, 619),
                                  bottomLeft: Point(0, 619))
        #expect(Layout.sidesOffPaper(of: whole, ruling: ruling, in: photo(desk: 60)).isEmpty)
    }

    @Test("A border line at the region's edge on a side off paper leaves the side open; one inside it does not")
    func edgeLineOnPaperEdge() {
        // ten lines each way, 3 px wide, every 50 px from 2: the last (at 452) at the edge of
        // a 454 px region
        let positions = (0...9).map { 2 + 50 * $0 }
        func lines(size: Int) -> FoundLines {
            var bits = [UInt8](repeating: 0, count: size * size)
            for p in positions {
                for t in 0..<size { for d in -1...1 { bits[(p + d) * size + t] = 1; bits[t * size + p + d] = 1 } }
            }
            return FoundLines(in: BinaryImage(width: size, height: size, bits: bits))
        }
        let ruling = Ruling(rows: positions.map(Double.init), columns: positions.map(Double.init))
        let atEdge = lines(size: 454)
        #expect(Layout.edgesMaybePastFrame(ruling, lines: atEdge, size: (454, 454)).isEmpty)
        #expect(Layout.edgesMaybePastFrame(ruling, lines: atEdge, offPaper: [.bottom], size: (454, 454)) == [.bottom])
        #expect(Layout.edgesMaybePastFrame(ruling, lines: atEdge, offPaper: [.top, .left], size: (454, 454))
                == [.top, .left])
        // the same lines in a region reaching 30 px past them: the last line is drawn on the paper
        let inside = lines(size: 484)
        #expect(Layout.edgesMaybePastFrame(ruling, lines: inside, offPaper: [.bottom], size: (484, 484)).isEmpty)
    }
}
