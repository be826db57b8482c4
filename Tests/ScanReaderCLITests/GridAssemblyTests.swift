import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A puzzle whose outer frame is lost but whose boxes are found one by one: the layout
/// puts the grid together from them.
@Suite("Grids put together from neighbouring boxes")
struct GridAssemblyTests {
    /// A 9×9 grid, cells of 50 px from (60, 60), thick box lines and thin cell lines that
    /// stop short of them (so each box traces as a quad of its own).
    func puzzle() -> GrayImage {
        var image = GrayImage(width: 600, height: 600, fill: 235)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in max(0, y0)..<min(600, y1) { for x in max(0, x0)..<min(600, x1) { image[x, y] = 25 } }
        }
        for k in 0...9 {
            let p = 60 + 50 * k
            if k % 3 == 0 {
                paint(p - 3, 57, p + 3, 513); paint(57, p - 3, 513, p + 3)
            } else {
                for box in 0..<3 {
                    let lo = 60 + 150 * box + 8, hi = 60 + 150 * (box + 1) - 8
                    paint(p - 1, lo, p + 1, hi); paint(lo, p - 1, hi, p + 1)
                }
            }
        }
        return image
    }

    @Test("A frame the detector lost comes back from its boxes, with their cells")
    func gridFromBoxes() throws {
        let image = puzzle()
        // the frame lost (in photos: merged with the page's rules or print glued to it),
        // its nine boxes found
        let detected = QuadDetector().detect(in: image)
        let kept = detected.indices.filter { detected[$0].quad.area < 0.1 * 600 * 600 }
        #expect(kept.count >= 9 && kept.count < detected.count)
        let quads = kept.map { i in
            DetectedQuad(quad: detected[i].quad, parent: detected[i].parent.flatMap { kept.firstIndex(of: $0) },
                         isHole: detected[i].isHole)
        }
        let regions = Layout().regions(in: image, quads: quads)
        let grid = try #require(regions.first { $0.kind == .grid && $0.ruling?.cellCount == 81 },
                                "\(regions.map { "\($0.kind) \($0.ruling.map { "\($0.rowCount)x\($0.columnCount)" } ?? "")" })")
        let truth = [Point(60, 60), Point(510, 60), Point(510, 510), Point(60, 510)]
        // the grid's outline is where its outer ruling lines cross (the frame's centre lines)
        let outline = ReadRegion(region: grid, pieces: []).outline
        for (found, expected) in zip(outline.corners, truth) {
            #expect(Polygon.distance(found, expected) < 4, "\(outline.corners)")
        }
        #expect(!regions.contains { $0.kind == .grid && $0.ruling?.cellCount == 9 })
    }

    @Test("Neighbours share a side; a quad off to one side or of another size is not one")
    func clusters() {
        func square(_ x: Double, _ y: Double, _ s: Double) -> Quadrilateral {
            Quadrilateral(topLeft: Point(x, y), topRight: Point(x + s, y), bottomRight: Point(x + s, y + s),
                          bottomLeft: Point(x, y + s))
        }
        let quads = [square(0, 0, 100), square(104, 2, 100), square(0, 103, 100),   // three boxes
                     square(300, 0, 100),                                           // apart
                     square(208, 0, 30)]                                            // too small
        #expect(Layout.neighbourClusters([0, 1, 2, 3, 4], quads) == [[0, 1, 2], [3], [4]])
    }
}

/// A quad running along the photo's own edges is the photo, not a document.
@Suite("Lattices inside a quad that follows the photo's frame")
struct FrameQuadTests {
    /// Paper with `columns` × `rows` cells of 100 px ruled by 6 px lines, filling a
    /// photo of exactly the lattice's size plus `margin`.
    func ruled(columns: Int, rows: Int, margin: Int = 10) -> GrayImage {
        let w = columns * 100 + 2 * margin, h = rows * 100 + 2 * margin
        var image = GrayImage(width: w, height: h, fill: 230)
        for c in 0...columns { for y in margin..<(h - margin) { for x in (margin + 100 * c - 3)..<(margin + 100 * c + 3) where x >= 0 && x < w { image[x, y] = 30 } } }
        for r in 0...rows { for x in margin..<(w - margin) { for y in (margin + 100 * r - 3)..<(margin + 100 * r + 3) where y >= 0 && y < h { image[x, y] = 30 } } }
        return image
    }

    func layout(_ image: GrayImage, followsFrame: Bool) -> [LaidOutRegion] {
        let w = Double(image.width - 1), h = Double(image.height - 1)
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(w, 0), bottomRight: Point(w, h), bottomLeft: Point(0, h))
        return Layout().regions(in: image, quads: [DetectedQuad(quad: whole, parent: nil, isHole: false, followsImageFrame: followsFrame)])
    }

    @Test("Two or three cells along the frame are no grid (a note's edges on a desk); the same inside a photo are",
          arguments: [(2, 1), (1, 2), (3, 1)])
    func fewCells(columns: Int, rows: Int) {
        let image = ruled(columns: columns, rows: rows)
        #expect(!layout(image, followsFrame: true).contains { $0.kind == .grid })
        // control: the very same lattice in a quad of its own is a grid
        #expect(layout(image, followsFrame: false).contains { $0.kind == .grid && $0.ruling?.cellCount == columns * rows })
    }

    @Test("A 9×9 grid photographed edge to edge is still a grid")
    func puzzleEdgeToEdge() {
        let image = ruled(columns: 9, rows: 9)
        #expect(layout(image, followsFrame: true).contains { $0.kind == .grid && $0.ruling?.cellCount == 81 })
    }
}

/// A quad that runs past a grid's frame (its outline a shadow's edge or the sheet below)
/// takes in a strip that divides like a row of cells.
@Suite("A strip past the grid's frame")
struct PastFrameTests {
    /// A 9×9 grid of 50 px cells with 3 px lines, all alike (no heavier frame), from
    /// (50, 50), rings ("0"s) in a few cells; below its frame a 50 px strip whose bottom
    /// edge is the quad's; `strip` paints it.
    func photo(strip: (inout GrayImage) -> Void) -> GrayImage {
        var image = GrayImage(width: 560, height: 620, fill: 225)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ v: UInt8 = 30) {
            for y in y0..<y1 { for x in x0..<x1 { image[x, y] = v } }
        }
        for k in 0...9 {
            paint(49 + 50 * k, 49, 52 + 50 * k, 502)
            paint(49, 49 + 50 * k, 502, 52 + 50 * k)
        }
        for (r, c) in [(0, 0), (1, 4), (3, 7), (5, 2), (7, 5), (8, 8)] { ring(&image, x: 75 + 50 * c, y: 75 + 50 * r) }
        strip(&image)
        return image
    }

    /// A "0": an ellipse ring 16 × 30 px, stroke 4 px, centred at (x, y).
    func ring(_ image: inout GrayImage, x: Int, y: Int) {
        for yy in (y - 17)...(y + 17) {
            for xx in (x - 10)...(x + 10) {
                let d = (Double(xx - x) / 8).squared + (Double(yy - y) / 15).squared
                if d <= 1.0 && d >= 0.55 { image[xx, yy] = 35 }
            }
        }
    }

    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    /// The rows of the grid read in `image` when the quad found is the grid and the strip.
    func rows(of image: GrayImage) -> Int? {
        let quad = Quadrilateral(topLeft: Point(49, 49), topRight: Point(502, 49), bottomRight: Point(502, 552),
                                 bottomLeft: Point(49, 552))
        let laidOut = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
        return Self.reader.read(laidOut).first { $0.region.kind == .grid }?.region.ruling?.rowCount
    }

    @Test("A blank strip, or one half in shadow, unruled at the quad's edge is not a row of cells")
    func trimmed() {
        #expect(rows(of: photo { _ in }) == 9)
        #expect(rows(of: photo { image in
            for y in 503..<553 { for x in 280..<502 { image[x, y] = 120 } }   // a shadow's edge across it
        }) == 9)
    }

    @Test("Kept (controls): a strip holding a digit, and a strip whose edge is ruled")
    func kept() {
        #expect(rows(of: photo { image in self.ring(&image, x: 225, y: 527) }) == 10)
        #expect(rows(of: photo { image in
            for y in 549..<552 { for x in 49..<502 { image[x, y] = 30 } }
            for k in 0...9 { for y in 502..<552 { for x in (49 + 50 * k)..<(52 + 50 * k) { image[x, y] = 30 } } }
        }) == 10)
    }

    @Test("Only the side unruled at the quad's edge is marked as maybe past the frame")
    func marked() {
        let quad = Quadrilateral(topLeft: Point(49, 49), topRight: Point(502, 49), bottomRight: Point(502, 552),
                                 bottomLeft: Point(49, 552))
        let grid = Layout().regions(in: photo { _ in }, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
            .first { $0.kind == .grid }
        #expect(grid?.ruling?.rowCount == 10 && grid?.edgesMaybePastFrame == [.bottom])
    }
}

/// The paper-relative threshold joins a grid's frame to a dark strip beside it, moving the
/// frame's line into the strip (sudoku-donshel 0106: found at 41 px, drawn at 52).
@Suite("A frame joined to a dark strip")
struct JoinedFrameTests {
    /// A 450 px square binary image with vertical lines (3 px, or `thick` wide) at `xs`
    /// and ten horizontal lines evenly from 4 to 446, all across.
    func lines(_ xs: [Int], thick: [Int: Int] = [:]) -> FoundLines {
        var bits = [UInt8](repeating: 0, count: 450 * 450)
        for x in xs {
            let w = thick[x] ?? 3
            for y in 0..<450 { for dx in 0..<w { bits[y * 450 + x - w / 2 + dx] = 1 } }
        }
        for k in 0...9 {
            let y = 4 + Int((Double(k) * 442 / 9).rounded())
            for x in 0..<450 { bits[y * 450 + x] = 1; bits[(y + 1) * 450 + x] = 1 }
        }
        return FoundLines(in: BinaryImage(width: 450, height: 450, bits: bits))
    }

    let interior = [98, 143, 187, 231, 274, 318, 361, 405, 444]

    @Test("A ruling with a border past the frame gives way to the local threshold's, framed on every side")
    func framedWins() throws {
        let paper = lines([41] + interior, thick: [41: 22])   // the frame and the strip, one band
        let ruling = try #require(RulingFinder.ruling(paper, width: 450, height: 450))
        #expect(ruling.columnCount == 10 && !Layout.isFramed(ruling, by: paper))
        // the local threshold keeps the frame (and the box lines) heavier than the cell lines
        let plain = lines([52] + interior, thick: [52: 6, 187: 6, 318: 6])
        let (chosen, _) = Layout.framed(ruling, lines: paper, plainLines: plain,
                                        width: 450, height: 450) { _ in true }
        #expect(chosen.columnCount == 9 && abs(chosen.columns[0] - 52) < 2, "\(chosen.columns)")
    }

    @Test("Kept (controls): no framed ruling from the local threshold, one three columns apart, or one implausible")
    func kept() throws {
        let paper = lines([41] + interior, thick: [41: 22])
        let ruling = try #require(RulingFinder.ruling(paper, width: 450, height: 450))
        for (plain, plausible) in [(lines([41] + interior, thick: [41: 22]), true),
                                   (lines([52, 187, 318, 444]), true),
                                   (lines([52] + interior, thick: [52: 6, 187: 6, 318: 6]), false)] {
            let (chosen, _) = Layout.framed(ruling, lines: paper, plainLines: plain, width: 450, height: 450) { _ in plausible }
            #expect(chosen == ruling)
        }
    }
}

private extension Double {
    var squared: Double { self * self }
}

/// A grid a hard shadow's edge cut in two: its top and bottom rows found as grids of their
/// own, the rows in the shadow between them as neither.
@Suite("Grids put together across a shadow")
struct StackedGridTests {
    /// A 9 × 9 grid of 50 px cells from (60, 60), lines 3 px, rows 3–5 under a shadow
    /// (paper 110, lines 20) when `shadow`; with `gap`, rows 3–5 are blank paper instead
    /// (two tables one above the other, nothing ruled between them).
    func read(shadow: Bool, gap: Bool = false) -> [LaidOutRegion] {
        var image = GrayImage(width: 600, height: 600, fill: 232)
        let top = 60 + 3 * 50, bottom = 60 + 6 * 50
        if shadow { for y in top..<bottom { for x in 0..<600 { image[x, y] = 110 } } }
        for k in 0...9 {
            let p = 60 + 50 * k
            for t in -1...1 {
                for q in 60...510 {
                    if !gap || q < top || q > bottom { image[p + t, q] = shadow && q >= top && q < bottom ? 20 : 30 }
                    if !gap || p < top || p > bottom { image[q, p + t] = shadow && p >= top && p < bottom ? 20 : 30 }
                }
            }
        }
        func part(_ y0: Double, _ y1: Double) -> DetectedQuad {
            DetectedQuad(quad: Quadrilateral(topLeft: Point(59, y0), topRight: Point(511, y0), bottomRight: Point(511, y1),
                                             bottomLeft: Point(59, y1)), parent: nil, isHole: false)
        }
        return Layout().regions(in: image, quads: [part(59, Double(top) + 1), part(Double(bottom) - 1, 511)])
    }

    func shapes(_ regions: [LaidOutRegion]) -> [String] {
        regions.filter { $0.kind == .grid }.map { "\($0.ruling!.rowCount)x\($0.ruling!.columnCount)" }
    }

    @Test("The top and bottom thirds, found as 3 × 9 grids, are read as one 9 × 9 grid")
    func acrossShadow() {
        #expect(shapes(read(shadow: true)) == ["9x9"])
    }

    @Test("Control: two 3 × 9 tables with blank paper between them stay two")
    func twoTables() {
        #expect(shapes(read(shadow: false, gap: true)) == ["3x9", "3x9"])
    }

    @Test("Sides that continue each other, and ones that do not")
    func continuing() {
        func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Quadrilateral {
            Quadrilateral(topLeft: Point(x, y), topRight: Point(x + w, y), bottomRight: Point(x + w, y + h), bottomLeft: Point(x, y + h))
        }
        let upper = box(0, 0, 450, 150)
        #expect(Layout.continues(upper, box(4, 300, 448, 150), alongColumns: true, cells: 9))
        #expect(!Layout.continues(upper, box(30, 300, 450, 150), alongColumns: true, cells: 9))   // shifted over half a cell
        #expect(!Layout.continues(upper, box(0, 0, 450, 100), alongColumns: true, cells: 9))      // inside it
        #expect(Layout.continues(box(0, 0, 150, 450), box(300, 3, 150, 447), alongColumns: false, cells: 9))
    }
}
