@testable import DocumentImaging
import ImagingCore
import Testing

@Suite("Cell segmentation")
struct SegmentationTests {
    /// A 60×60 cell whose columns take the given grey levels (left, band, right).
    func cell(left: UInt8, band: UInt8, right: UInt8) -> GrayImage {
        var g = GrayImage(width: 60, height: 60, fill: left)
        for y in 0..<60 {
            for x in 27..<33 { g[x, y] = band }
            for x in 33..<60 { g[x, y] = right }
        }
        return g
    }

    @Test("The dark side of a lighting edge is not a stroke; a stroke between light paper is")
    func shadowEdge() {
        let inner = PixelBox(x: 5, y: 5, width: 50, height: 50)
        let band = PixelBox(x: 27, y: 5, width: 6, height: 50)
        #expect(DigitSegmenter.isShadowEdge(band, in: cell(left: 200, band: 120, right: 125), inner: inner))
        #expect(!DigitSegmenter.isShadowEdge(band, in: cell(left: 200, band: 60, right: 195), inner: inner))
        // a short mark is never taken for an edge
        let short = PixelBox(x: 27, y: 15, width: 6, height: 30)
        #expect(!DigitSegmenter.isShadowEdge(short, in: cell(left: 200, band: 120, right: 125), inner: inner))
    }

    @Test("A second digit beside the first makes a cell's ink a solver's note; a broken digit's piece does not")
    func digitBeside() {
        let nine = Component(box: PixelBox(x: 30, y: 10, width: 9, height: 14), area: 60, label: 1)
        let eight = Component(box: PixelBox(x: 20, y: 11, width: 9, height: 13), area: 65, label: 2)
        #expect(DigitSegmenter.hasDigitBeside(nine, among: [nine, eight]))
        // the lower half of a broken 5: below, overlapping across
        let piece = Component(box: PixelBox(x: 31, y: 18, width: 8, height: 9), area: 30, label: 3)
        #expect(!DigitSegmenter.hasDigitBeside(nine, among: [nine, piece]))
        // a speck beside it
        let speck = Component(box: PixelBox(x: 41, y: 15, width: 2, height: 2), area: 4, label: 4)
        #expect(!DigitSegmenter.hasDigitBeside(nine, among: [nine, speck]))
    }

    @Test("Small ink out of a cell's middle slot is a solver's note; in a corner, short is enough; centred, under half the typical height; else a digit")
    func notes() {
        let segmenter = DigitSegmenter()
        let cell = PixelBox(x: 0, y: 0, width: 100, height: 100)
        func note(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
            segmenter.isNote(PixelBox(x: x, y: y, width: w, height: h), in: cell, typical: GlyphSize(height: 48, width: 34))
        }
        #expect(note(60, 8, 20, 30))       // small both ways, at the top
        #expect(!note(40, 35, 20, 30))     // as small, centred: not for `isNote` (two thirds
                                           // of the digits' size both ways is `isSmallNote`'s)
        #expect(note(45, 40, 12, 19))      // under half the typical height, centred: the fifth of
                                           // a solver's 3 × 3 candidates
        #expect(!note(44, 38, 12, 25))     // a small 1 just over half of it
        #expect(!note(25, 8, 50, 30))      // short but full width, at the top: a flat 2
        #expect(note(8, 10, 40, 36))       // wide and short, in the top-left corner
        #expect(!note(30, 32, 40, 36))     // the same, centred
        #expect(!note(4, 6, 34, 48))       // a full-height digit pushed into the corner
        // off the centre means out of the candidates' middle slot (a sixth of the cell):
        // a printed given, small beside large handwriting, 0.14 of the cell low, is a digit;
        // the same ink in the right-hand slot (a third of the cell over) is a candidate
        #expect(!note(40, 49, 20, 30))
        #expect(note(73, 35, 20, 30))
    }

    @Test("A ruling line running a pixel or two inside a cell's margin is not a second digit beside the digit")
    func rulingJustInsideMargin() throws {
        // a 60-px cell (margin 4 px): a 2-px line at x = 6…7 down most of it, and a digit
        var gray = GrayImage(width: 60, height: 60, fill: 235)
        func ink(_ x: Int, _ y: Int) -> Bool {
            let line = (6...7).contains(x) && (8...51).contains(y)
            let ring = (18...29).contains(x) && (20...39).contains(y) && !((21...26).contains(x) && (23...36).contains(y))
            return line || ring
        }
        var bits = [UInt8](repeating: 0, count: 60 * 60)
        for y in 0..<60 { for x in 0..<60 where ink(x, y) { gray[x, y] = 20; bits[y * 60 + x] = 1 } }
        let crop = try #require(DigitSegmenter().cellDigit(gray: gray, binary: BinaryImage(width: 60, height: 60, bits: bits),
                                                          cell: PixelBox(x: 0, y: 0, width: 60, height: 60)))
        #expect(crop.box == PixelBox(x: 18, y: 20, width: 12, height: 20))
    }

    /// A 60×60 cell's grey image and its ink at two thresholds from literal masks:
    /// `strong` pixels dark (40), `faint` ones (a superset) light grey (190), paper 235.
    func cellInk(strong: (Int, Int) -> Bool, faint: (Int, Int) -> Bool) -> (GrayImage, BinaryImage, BinaryImage) {
        var gray = GrayImage(width: 60, height: 60, fill: 235)
        var s = [UInt8](repeating: 0, count: 3600), f = s
        for y in 0..<60 {
            for x in 0..<60 {
                if strong(x, y) { gray[x, y] = 40; s[y * 60 + x] = 1; f[y * 60 + x] = 1 } else if faint(x, y) { gray[x, y] = 190; f[y * 60 + x] = 1 }
            }
        }
        return (gray, BinaryImage(width: 60, height: 60, bits: s), BinaryImage(width: 60, height: 60, bits: f))
    }

    /// A bar (a "1", or a block standing for a wider digit) from y = 14 to 45 over
    /// `xs`, dark only where `dark(y)`, faint elsewhere.
    func brokenBar(_ x: Int, _ y: Int, _ xs: ClosedRange<Int> = 28...31, dark: (Int) -> Bool) -> Bool {
        xs.contains(x) && (14...45).contains(y) && dark(y)
    }

    @Test("A cell's digit the threshold broke far apart is made whole from the faint ink; specks in grain and two digits side by side are not")
    func brokenCellDigitJoined() throws {
        let cell = PixelBox(x: 0, y: 0, width: 60, height: 60)
        let segmenter = DigitSegmenter()
        // a 1 dark at its top and bottom, faint over its middle 12 px (past the 6 px by
        // which a cell's pieces are joined anyway)
        let (g, b, f) = cellInk(strong: { brokenBar($0, $1) { !(22...33).contains($0) } },
                                faint: { brokenBar($0, $1) { _ in true } })
        let whole = try #require(segmenter.cellContent(gray: g, binary: b, faint: f, cell: cell).digit)
        #expect(whole.box.height == 32)
        // control: the strong ink alone keeps only the piece nearest the centre and what
        // lies within reach of it
        let part = segmenter.cellContent(gray: g, binary: b, cell: cell).digit
        #expect(part.map { $0.box.height < 32 } ?? true)
        // specks (each under the speck size) strung together by threads of faint grain,
        // mostly specks: no digit
        let centres = [(24, 20), (33, 27), (26, 36), (31, 42)]
        let speck = { (x: Int, y: Int) in centres.contains { abs(x - $0.0) <= 1 && abs(y - $0.1) <= 1 } }
        let thread = { (x: Int, y: Int) in
            zip(centres, centres.dropFirst()).contains { a, b in
                (y == a.1 && (min(a.0, b.0)...max(a.0, b.0)).contains(x)) || (x == b.0 && (min(a.1, b.1)...max(a.1, b.1)).contains(y))
            }
        }
        let (g2, b2, f2) = cellInk(strong: speck, faint: { speck($0, $1) || thread($0, $1) })
        #expect(segmenter.cellContent(gray: g2, binary: b2, faint: f2, cell: cell).digit == nil)
        // two broken digits side by side, joined by faint ink between them: wider than
        // one digit, so read as thresholded
        let pair = { (x: Int, y: Int, dark: (Int) -> Bool) in
            self.brokenBar(x, y, 10...20, dark: dark) || self.brokenBar(x, y, 36...46, dark: dark)
        }
        let (g3, b3, f3) = cellInk(strong: { pair($0, $1) { !(22...33).contains($0) } },
                                   faint: { x, y in pair(x, y) { _ in true } || ((10...46).contains(x) && (28...30).contains(y)) })
        let pairRead = segmenter.cellContent(gray: g3, binary: b3, faint: f3, cell: cell).digit
        #expect(pairRead != nil && pairRead?.box == segmenter.cellContent(gray: g3, binary: b3, cell: cell).digit?.box)
    }

    @Test("A thin 7 the threshold kept only the bar of, its stem in crumbs, is grown whole on the faint ink when it stands a digit's height; a short candidate grown whole stays a note")
    func shortPieceGrownWhole() {
        // a 3 × 3 grid of 60 px cells: cells 0–5 hold a dark 8 × 30 bar (a 1: the grid's
        // digits), cell 6 a thin 7 whose 16 × 4 bar the threshold keeps and whose 2-px stem
        // it keeps only in 1-px crumbs (each under the speck size), cell 7 a short pencilled
        // 7 (a candidate: 14 px tall, its bar alone dark enough), cell 8 nothing
        var g = GrayImage(width: 180, height: 180, fill: 235)
        var strong = [UInt8](repeating: 0, count: 180 * 180), faint = strong
        func put(_ x: Int, _ y: Int, dark: Bool) {
            g[x, y] = dark ? 40 : 190
            faint[y * 180 + x] = 1
            if dark { strong[y * 180 + x] = 1 }
        }
        for k in 0..<6 {
            let (x0, y0) = (60 * (k % 3), 60 * (k / 3))
            for y in (y0 + 15)..<(y0 + 45) { for x in (x0 + 26)..<(x0 + 34) { put(x, y, dark: true) } }
        }
        func seven(_ x0: Int, _ y0: Int, height: Int) {
            for y in (y0 + 14)...(y0 + 17) { for x in (x0 + 22)...(x0 + 37) { put(x, y, dark: true) } }
            for y in (y0 + 18)...(y0 + 13 + height) {
                let x = x0 + 36 - (y - y0 - 18) / 3
                put(x, y, dark: y % 6 == 0 && height > 20)
                put(x + 1, y, dark: false)
            }
        }
        seven(0, 120, height: 31)
        seven(60, 120, height: 14)
        let lines = (0...3).map { Double(60 * $0) }
        let ruling = Ruling(rows: lines, columns: lines)
        let binary = BinaryImage(width: 180, height: 180, bits: strong)
        let grown = DigitSegmenter().gridCells(gray: g, binary: binary, faint: BinaryImage(width: 180, height: 180, bits: faint),
                                               ruling: ruling).digits
        #expect(grown[6].count == 1 && grown[6].first?.box.height == 31)
        #expect(grown[7].isEmpty && grown[8].isEmpty)
        #expect(grown[0..<6].allSatisfy { $0.count == 1 })
        // control: with no faint ink the 7's bar alone is too short for a digit
        #expect(DigitSegmenter().gridCells(gray: g, binary: binary, ruling: ruling).digits[6].isEmpty)
    }

    /// A 9 × 9 puzzle of 40 px cells on paper 230: the first `givens` cells hold a small
    /// glyph 8 × 14 of ink `level` (a given printed small), the next 40 a dark glyph 14 × 26
    /// (a handwritten answer), the rest nothing; `besideAt`: that small glyph's cell also
    /// holds a second small glyph in its top-left slot (a candidate).
    func handFilledPuzzle(givens: Int, level: UInt8, besideAt: Int? = nil) -> (gray: GrayImage, binary: BinaryImage, ruling: Ruling) {
        var g = GrayImage(width: 360, height: 360, fill: 230)
        func block(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ v: UInt8) {
            for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { g[x, y] = v } }
        }
        for k in 0..<(givens + 40) {
            let (x, y) = (40 * (k % 9), 40 * (k / 9))
            if k < givens {
                block(x + 16, y + 13, 8, 14, level)
                if k == besideAt { block(x + 5, y + 5, 6, 9, level) }
            } else {
                block(x + 13, y + 7, 14, 26, 20)
            }
        }
        let bits = g.pixels.map { $0 < 200 ? UInt8(1) : 0 }
        let lines = (0...9).map { Double(40 * $0) }
        return (g, BinaryImage(width: 360, height: 360, bits: bits), Ruling(rows: lines, columns: lines))
    }

    @Test("A puzzle's givens printed small in ink, each alone in its cell's middle, read as digits beside larger answers; pencilled, fewer than a sudoku's 17, or beside a candidate they are notes")
    func smallPrintedGivensKept() {
        let segmenter = DigitSegmenter()
        func read(_ p: (gray: GrayImage, binary: BinaryImage, ruling: Ruling), faint: Bool = false) -> [Int] {
            segmenter.gridCells(gray: p.gray, binary: p.binary, faint: faint ? p.binary : nil, ruling: p.ruling).digits.map(\.count)
        }
        // 8 × 14 against answers of 14 × 26: small both ways and no 1 (`isSmallNote`)
        let inked = handFilledPuzzle(givens: 20, level: 20)
        #expect(read(inked).prefix(60) == ArraySlice([Int](repeating: 1, count: 60)))
        #expect(read(inked, faint: true).prefix(20) == ArraySlice([Int](repeating: 1, count: 20)))
        // controls: in pencil grey (contrast 90 of the answers' 210), sixteen of them (under
        // a sudoku's fewest givens), a candidate beside one: notes, as before
        #expect(read(handFilledPuzzle(givens: 20, level: 140)).prefix(20).allSatisfy { $0 == 0 })
        #expect(read(handFilledPuzzle(givens: 16, level: 20)).prefix(16).allSatisfy { $0 == 0 })
        let beside = read(handFilledPuzzle(givens: 20, level: 20, besideAt: 3))
        #expect(beside[3] == 0 && beside[4] == 1)
        // the answers read as ever
        #expect(read(handFilledPuzzle(givens: 16, level: 20))[16..<56].allSatisfy { $0 == 1 })
    }
}
