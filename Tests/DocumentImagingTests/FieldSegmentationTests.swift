@testable import DocumentImaging
import ImagingCore
import Testing

/// Free fields and pages: the typical glyph is weighted by ink, ink along the border is
/// no digit. Literal images swept over scale and speck count, with negative controls.
@Suite("Field segmentation")
struct FieldSegmentationTests {
    /// A size × size white region with dark ink where `ink` says.
    func region(size: Int, _ ink: (Int, Int) -> Bool) -> (GrayImage, BinaryImage) {
        var g = GrayImage(width: size, height: size, fill: 235)
        var bits = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size where ink(x, y) { g[x, y] = 30; bits[y * size + x] = 1 }
        }
        return (g, BinaryImage(width: size, height: size, bits: bits))
    }

    /// A ring ("0") centred in the region, 55 % of its size tall, stroke 8 % of its size.
    func ring(_ x: Int, _ y: Int, size: Int) -> Bool {
        let c = Double(size) / 2, rx = 0.2 * Double(size), ry = 0.275 * Double(size), t = 0.08 * Double(size)
        let d = ((Double(x) - c) / rx) * ((Double(x) - c) / rx) + ((Double(y) - c) / ry) * ((Double(y) - c) / ry)
        return d <= 1 && d >= (1 - t / rx) * (1 - t / rx)
    }

    /// `count` separate 2 × 2 specks, 5 px apart, in the left fifth of the region.
    func speck(_ x: Int, _ y: Int, size: Int, count: Int) -> Bool {
        let columns = max(1, (size / 5 - 3) / 5)
        return (0..<count).contains { k in
            let sx = 3 + 5 * (k % columns), sy = 3 + 5 * (k / columns)
            return (x == sx || x == sx + 1) && (y == sy || y == sy + 1)
        }
    }

    @Test("One large digit among specks is the one digit read, whatever the specks and the scale",
          arguments: [100, 200, 400], [0, 12, 40])
    func oneDigitAmongSpecks(size: Int, specks: Int) {
        let (g, b) = region(size: size) { x, y in ring(x, y, size: size) || speck(x, y, size: size, count: specks) }
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: PixelBox(x: 0, y: 0, width: size, height: size))
        #expect(crops.count == 1)
        #expect(crops.first.map { Double($0.box.height) >= 0.5 * Double(size) } ?? false)
    }

    @Test("Ink running along a side of the region (a note's shaded edge) is no digit; the same stroke inside is",
          arguments: [100, 300])
    func inkAlongTheBorder(size: Int) {
        let full = PixelBox(x: 0, y: 0, width: size, height: size)
        let stripWidth = max(3, size / 30)
        // the ring, and a strip down the left edge over 70 % of the height
        let (g, b) = region(size: size) { x, y in
            ring(x, y, size: size) || (x < stripWidth && y > size / 6 && y < size * 5 / 6)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: full).count == 1)
        // control: the same strip a fifth of the way in is a stroke ("1"): two digits
        let (g2, b2) = region(size: size) { x, y in
            ring(x, y, size: size) || (x >= size / 5 - stripWidth && x < size / 5 && y > size / 6 && y < size * 5 / 6)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g2, binary: b2, region: full).count == 2)
    }

    @Test("The typical height is weighted by ink: many specks do not set it, a few large glyphs do")
    func typicalHeight() {
        let digit = Component(box: PixelBox(x: 10, y: 10, width: 40, height: 60), area: 900, label: 1)
        let specks = (0..<50).map { Component(box: PixelBox(x: $0, y: 0, width: 2, height: 2), area: 4, label: Int32($0 + 2)) }
        #expect(DigitSegmenter.typicalHeight([digit] + specks) == 60)
        let small = Component(box: PixelBox(x: 60, y: 10, width: 20, height: 30), area: 200, label: 99)
        #expect(DigitSegmenter.typicalHeight([digit, digit, small] + specks) == 60)
    }

    @Test("On a page, a large digit among the grain of a desk (thousands of specks, more ink than the digit) is the one digit read",
          arguments: [200, 400])
    func pageDigitAmongGrain(size: Int) {
        // 2 × 2 specks every 4 px over the whole page (a quarter of it inked), but for a clear
        // band around the ring: more ink than the ring's
        let c = Double(size) / 2
        let (g, b) = region(size: size) { x, y in
            if ring(x, y, size: size) { return true }
            let nearRing = abs(Double(x) - c) < 0.27 * Double(size) && abs(Double(y) - c) < 0.35 * Double(size)
            return !nearRing && x % 4 < 2 && y % 4 < 2
        }
        let full = PixelBox(x: 0, y: 0, width: size, height: size)
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: full, photoEdge: true)
        #expect(crops.count == 1)
        #expect(crops.first.map { Double($0.box.height) >= 0.5 * Double(size) } ?? false)
        // control: the same page without the digit cuts nothing from the grain
        let (g0, b0) = region(size: size) { x, y in x % 4 < 2 && y % 4 < 2 }
        #expect(DigitSegmenter().fieldDigits(gray: g0, binary: b0, region: full, photoEdge: true).isEmpty)
    }

    @Test("A page's typical height is weighted by ink squared: specks outweighing a digit's ink still do not set it; a row of digits beside one blob does")
    func typicalHeightSquared() {
        let digit = Component(box: PixelBox(x: 10, y: 10, width: 40, height: 60), area: 900, label: 1)
        let grain = (0..<2000).map { Component(box: PixelBox(x: $0 % 500, y: $0 / 500, width: 2, height: 2), area: 4, label: Int32($0 + 2)) }
        // the grain holds 8000 pixels of ink against the digit's 900: it sets the plain weighting
        #expect(DigitSegmenter.typicalHeight([digit] + grain) == 2)
        #expect(DigitSegmenter.typicalHeightSquared([digit] + grain) == 60)
        // five digits of 60 px against one blob of 100 px and twice one digit's ink
        let blob = Component(box: PixelBox(x: 300, y: 10, width: 80, height: 100), area: 1800, label: 9999)
        #expect(DigitSegmenter.typicalHeightSquared(Array(repeating: digit, count: 5) + [blob]) == 60)
    }

    @Test("A comb's ticks standing on the bottom edge between the digits are no digits; a 1 clear of the edge is",
          arguments: [120, 300])
    func combTicks(size: Int) {
        let full = PixelBox(x: 0, y: 0, width: size, height: size)
        let stroke = max(2, size / 40)
        // the ring, and two ticks rising from the bottom edge 45 % of the way up
        let tick = { (x: Int, y: Int) in
            (abs(x - size / 10) < stroke || abs(x - size * 9 / 10) < stroke) && y > size * 55 / 100
        }
        let (g, b) = region(size: size) { x, y in ring(x, y, size: size) || tick(x, y) }
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: full).count == 1)
        // control: the same strokes lifted off the edge (a short 1 beside the 0) are read
        let (g2, b2) = region(size: size) { x, y in
            ring(x, y, size: size) || (abs(x - size / 10) < stroke && y > size * 30 / 100 && y < size * 75 / 100)
        }
        #expect(DigitSegmenter().fieldDigits(gray: g2, binary: b2, region: full).count == 2)
    }

    /// A 1.5 size × size region: a dark ring ("0") on the right; on the left a faint "7"
    /// (a bar and a stem, 55 % of the size tall) whose stroke thins to `gap` grey in three
    /// places (its "pen skipped"), elsewhere `faintInk` grey; paper 235. Both thresholds
    /// of `fieldDigits`: 15 % and half that under the local mean.
    func faintSeven(size: Int, faintInk: UInt8, gap: UInt8) -> (GrayImage, BinaryImage, BinaryImage) {
        seven(size: size, stem: faintInk, bar: faintInk, gap: gap)
    }

    /// The ring and the 7 of `faintSeven`, its stem `stem` grey and its bar `bar`, thinned
    /// to `gap` where given (across the bar's middle, at a third and two thirds of the stem).
    func seven(size: Int, stem: UInt8, bar: UInt8, gap: UInt8? = nil) -> (GrayImage, BinaryImage, BinaryImage) {
        let w = size * 3 / 2
        var g = GrayImage(width: w, height: size, fill: 235)
        let stroke = max(3, size / 20)
        let top = Int(0.225 * Double(size)), bottom = Int(0.775 * Double(size))
        let left = size / 5, right = size / 2
        for y in 0..<size {
            for x in 0..<w {
                if ring(x - size / 2, y, size: size) { g[x, y] = 30; continue }
                let onBar = y >= top && y < top + stroke && x >= left && x < right
                // the stem runs from the bar's right end down and a little left
                let t = Double(y - top) / Double(bottom - top)
                let stemX = Double(right) - t * Double(right - left) * 0.4
                let onStem = y >= top && y < bottom && abs(Double(x) - stemX) < Double(stroke) / 2
                guard onBar || onStem else { continue }
                let thin = (onBar && abs(x - (left + right) / 2) < stroke / 2)
                    || (onStem && [0.33, 0.66].contains { abs(t - $0) < 0.03 })
                g[x, y] = gap.flatMap { thin ? $0 : nil } ?? (onStem ? stem : bar)
            }
        }
        let levels = g.localMeanBinarizations(window: size / 2, percents: [15, 7.5])
        return (g, levels[0], levels[1])
    }

    @Test("A faint digit the threshold breaks into pieces is made whole from the faint ink; without it its pieces, gaps and all",
          arguments: [120, 240])
    func faintDigitJoined(size: Int) {
        let (g, b, faint) = faintSeven(size: size, faintInk: 150, gap: 203)
        let full = PixelBox(x: 0, y: 0, width: g.width, height: g.height)
        let joined = DigitSegmenter().fieldDigits(gray: g, binary: b, faint: faint, region: full)
        #expect(joined.count == 2)
        // the 7 whole: its box about the ring's height
        #expect(joined.first.map { Double($0.box.height) >= 0.5 * Double(size) } ?? false)
        // control: the strong threshold alone leaves the 7 in pieces, read together as one
        // glyph (`brokenDigitPieces`) but with the gaps where the pen skipped
        let pieces = DigitSegmenter().fieldDigits(gray: g, binary: b, region: full)
        #expect(pieces.count == 2)
        if let whole = joined.first, let broken = pieces.first {
            #expect(whole.ink.filter { $0 > 0 }.count > broken.ink.filter { $0 > 0 }.count)
        }
    }

    @Test("A lone piece grows by the pale stroke attached to it only when lone pieces grow; a dark glyph with none stays",
          arguments: [120, 240])
    func lonePieceGrows(size: Int) throws {
        // the bar 14 % under the paper: under the ink threshold (15 % under the local mean), over the faint one
        let (g, b, faint) = seven(size: size, stem: 30, bar: 203)
        let full = PixelBox(x: 0, y: 0, width: g.width, height: g.height)
        let growing = DigitSegmenter().growingLonePieces
        let grown = growing.fieldDigits(gray: g, binary: b, faint: faint, region: full)
        let plain = DigitSegmenter().fieldDigits(gray: g, binary: b, faint: faint, region: full)
        try #require(grown.count == 2 && plain.count == 2)
        // the 7: the bar reaches a third of the size left of where the stem ends
        #expect(grown[0].box.x <= size / 5 + 1)
        #expect(plain[0].box.x > size / 5 + size / 10)
        #expect(grown[0].box.contains(plain[0].box))
        // the ring has no faint ink attached but its own rim: it stays about as cut
        #expect(abs(grown[1].box.width - plain[1].box.width) <= 2)
        // control: with the bar as dark as the stem both cuts take it
        let (g2, b2, faint2) = seven(size: size, stem: 30, bar: 30)
        #expect(growing.fieldDigits(gray: g2, binary: b2, faint: faint2, region: full).map(\.box)
                == DigitSegmenter().fieldDigits(gray: g2, binary: b2, faint: faint2, region: full).map(\.box))
    }

    @Test("Faint ink dotted with a few specks (a shadow's soft edge) is not joined into a digit", arguments: [120, 240])
    func mostlyFaintNotJoined(size: Int) {
        // the same 7 but drawn faint throughout and with only its thinned places dark:
        // dark specks in a faint stroke
        let (g, b, faint) = faintSeven(size: size, faintInk: 203, gap: 120)
        let full = PixelBox(x: 0, y: 0, width: g.width, height: g.height)
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, faint: faint, region: full).count == 1)
    }

    /// A field `height` tall and three times as wide: a ring ("0") in the first and last
    /// thirds, and in the middle third what `middle` draws (x, y as shares of the height).
    func threeGlyphs(height: Int, middle: @escaping (Double, Double) -> Bool) -> (GrayImage, BinaryImage) {
        let h = Double(height), w = 3 * height
        var g = GrayImage(width: w, height: height, fill: 235)
        var bits = [UInt8](repeating: 0, count: w * height)
        for y in 0..<height {
            for x in 0..<w {
                let u = Double(x) / h, v = Double(y) / h
                let ring = { (cx: Double) -> Bool in
                    let d = ((u - cx) / 0.2) * ((u - cx) / 0.2) + ((v - 0.5) / 0.275) * ((v - 0.5) / 0.275)
                    return d <= 1 && d >= 0.36 * 0.36 * 4   // stroke about 0.08 of the height
                }
                if ring(0.5) || ring(2.5) || middle(u, v) { g[x, y] = 30; bits[y * w + x] = 1 }
            }
        }
        return (g, BinaryImage(width: w, height: height, bits: bits))
    }

    /// A 5 the threshold broke in two: its bar (0.08 of the height, a seventh of the typical
    /// digit) above its bowl (a "U" 0.2 tall, under half the typical digit), a gap between.
    func brokenFive(_ u: Double, _ v: Double, bar: Bool = true, bowl: Bool = true) -> Bool {
        let inBar = bar && u >= 1.35 && u <= 1.65 && v >= 0.225 && v <= 0.305
        let inBowl = bowl && v >= 0.45 && v <= 0.65 && u >= 1.35 && u <= 1.65
            && (u <= 1.41 || u >= 1.59 || v >= 0.59)
        return inBar || inBowl
    }

    @Test("A digit broken into pieces each shorter than a digit is read whole when together they stand as tall as one",
          arguments: [60, 120, 240])
    func brokenDigitPieces(height: Int) {
        let (g, b) = threeGlyphs(height: height) { brokenFive($0, $1) }
        let crops = DigitSegmenter().fieldDigits(gray: g, binary: b, region: PixelBox(x: 0, y: 0, width: g.width, height: g.height))
        #expect(crops.count == 3)
        // the middle crop holds both pieces: from the bar's top to the bowl's bottom
        if crops.count == 3 {
            #expect(Double(crops[1].box.height) >= 0.4 * Double(height))
        }
    }

    @Test("Control: the bar alone, or the bowl alone, between two digits is no digit", arguments: [60, 240])
    func lonePiecesAreNoDigit(height: Int) {
        let full = { (g: GrayImage) in PixelBox(x: 0, y: 0, width: g.width, height: g.height) }
        let (g1, b1) = threeGlyphs(height: height) { brokenFive($0, $1, bowl: false) }
        #expect(DigitSegmenter().fieldDigits(gray: g1, binary: b1, region: full(g1)).count == 2)
        let (g2, b2) = threeGlyphs(height: height) { brokenFive($0, $1, bar: false) }
        #expect(DigitSegmenter().fieldDigits(gray: g2, binary: b2, region: full(g2)).count == 2)
    }

    /// A ring as `ring` draws it, its centre moved `dx` pixels right of the region's centre.
    func ring(_ x: Int, _ y: Int, size: Int, shiftedBy dx: Int) -> Bool { ring(x - dx, y, size: size) }

    @Test("On a whole page, ink cut by the photo's edge is no digit; the same glyph clear of the edge is",
          arguments: [120, 300])
    func inkCutByThePhotoEdge(size: Int) {
        // the page is twice as wide as high: a ring in the middle of its right half, and
        // one whose centre lies on the left edge (half of it in view)
        let (w, h) = (2 * size, size)
        var g = GrayImage(width: w, height: h, fill: 235)
        var bits = [UInt8](repeating: 0, count: w * h)
        let draw = { (inView: (Int, Int) -> Bool) in
            for y in 0..<h { for x in 0..<w where inView(x, y) { g[x, y] = 30; bits[y * w + x] = 1 } }
        }
        draw { x, y in ring(x, y, size: size, shiftedBy: size) || ring(x, y, size: size, shiftedBy: -size / 2) }
        let page = PixelBox(x: 0, y: 0, width: w, height: h)
        let b = BinaryImage(width: w, height: h, bits: bits)
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: page, photoEdge: true).count == 1)
        // control: a field's border is no photo edge, the half glyph is read there
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: b, region: page).count == 2)
        // control: the second ring moved in clear of the edge is read on the page too
        bits = [UInt8](repeating: 0, count: w * h)
        g = GrayImage(width: w, height: h, fill: 235)
        draw { x, y in ring(x, y, size: size, shiftedBy: size) || ring(x, y, size: size, shiftedBy: -size * 15 / 100) }
        let clear = BinaryImage(width: w, height: h, bits: bits)
        #expect(DigitSegmenter().fieldDigits(gray: g, binary: clear, region: page, photoEdge: true).count == 2)
    }

    /// A straightened sheet `size` square read in its readable area (inset `size` / 25,
    /// as the layout's) holding two square rings ("o"s) 3/10 of `size` a side: one on the
    /// right, clear of the margins (a digit), one on the left with its top at `top`: at 0
    /// it reaches the outline (another sheet's print the outline cut across), a few px in
    /// it only enters the margin (a digit written near the edge).
    func paperCut(size: Int, top: Int, paperEdge: Bool) -> (digits: [InkCrop], offPaper: Int) {
        let side = size * 3 / 10, stroke = max(2, size / 50)
        func squareRing(_ x: Int, _ y: Int, x0: Int, y0: Int) -> Bool {
            let inside = x >= x0 && x < x0 + side && y >= y0 && y < y0 + side
            let hole = x >= x0 + stroke && x < x0 + side - stroke && y >= y0 + stroke && y < y0 + side - stroke
            return inside && !hole
        }
        let (g, b) = region(size: size) { x, y in
            squareRing(x, y, x0: size * 55 / 100, y0: size * 35 / 100) || squareRing(x, y, x0: size / 10, y0: top)
        }
        let inset = size / 25
        let readable = PixelBox(x: inset, y: inset, width: size - 2 * inset, height: size - 2 * inset)
        return DigitSegmenter().fieldGlyphs(gray: g, binary: b, region: readable, paperEdge: paperEdge)
    }

    @Test("On paper, a glyph the readable area's border cuts that runs on to the outline is no digit; counted, not read",
          arguments: [200, 400])
    func runsOffPaper(size: Int) {
        let cut = paperCut(size: size, top: 0, paperEdge: true)
        #expect(cut.digits.count == 1 && cut.offPaper == 1)
        // control: the same blob reaching into the margin, short of the outline, is read
        let near = paperCut(size: size, top: size / 50, paperEdge: true)
        #expect(near.digits.count == 2 && near.offPaper == 0)
        // control: not paper (a box's inside), the cut blob is read as it was
        let box = paperCut(size: size, top: 0, paperEdge: false)
        #expect(box.digits.count == 2 && box.offPaper == 0)
        #expect(DigitSegmenter().fieldDigits(gray: GrayImage(width: 4, height: 4, fill: 235),
                                             binary: BinaryImage(width: 4, height: 4, bits: [UInt8](repeating: 0, count: 16)),
                                             region: PixelBox(x: 0, y: 0, width: 4, height: 4), paperEdge: true).isEmpty)
    }
}

