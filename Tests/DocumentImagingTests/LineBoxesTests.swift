@testable import DocumentImaging
import ImagingCore
import Testing

/// Boxes found from their lines (`LineBoxes`) on literal ink images.
@Suite("Boxes from their lines")
struct LineBoxesTests {
    /// A blank ink image with rectangles painted in.
    struct Ink {
        var image: BinaryImage
        init(_ width: Int, _ height: Int) { image = BinaryImage(width: width, height: height, bits: [UInt8](repeating: 0, count: width * height)) }
        mutating func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ value: UInt8 = 1) {
            for y in max(0, y0)..<min(image.height, y1) { for x in max(0, x0)..<min(image.width, x1) { image.bits[y * image.width + x] = value } }
        }
        /// The outline of the box spanning x0..<x1, y0..<y1 with lines `t` pixels thick.
        mutating func box(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, thickness t: Int) {
            paint(x0, y0, x1, y0 + t); paint(x0, y1 - t, x1, y1); paint(x0, y0, x0 + t, y1); paint(x1 - t, y0, x1, y1)
        }
    }

    @Test("A box is found at its lines' middles, across line widths, sizes and positions",
          arguments: [1, 2, 3, 5], [(40, 30), (200, 40), (60, 120)])
    func sweep(thickness: Int, size: (Int, Int)) throws {
        var ink = Ink(600, 400)
        let (x0, y0) = (97, 131), (x1, y1) = (97 + size.0, 131 + size.1)
        ink.box(x0, y0, x1, y1, thickness: thickness)
        let boxes = LineBoxes(longerSide: 600).boxes(in: ink.image)
        #expect(boxes.count == 1)
        let box = try #require(boxes.first)
        let half = Double(thickness) / 2
        #expect(abs(box.top - (Double(y0) + half)) <= 0.5 && abs(box.bottom - (Double(y1) - half)) <= 0.5)
        #expect(abs(box.left - (Double(x0) + half)) <= 0.5 && abs(box.right - (Double(x1) - half)) <= 0.5)
        #expect(box.outer == PixelBox(x: x0, y: y0, width: size.0, height: size.1))
    }

    @Test("Boxes of one size come in the order their top lines are found, the same every run (a form's fields)")
    func equalSizesInOrder() {
        var ink = Ink(600, 600)
        let tops = [40, 130, 220, 310, 400, 490]
        for (k, y) in tops.enumerated() { ink.box(60 + 30 * k, y, 360 + 30 * k, y + 60, thickness: 2) }
        let boxes = LineBoxes(longerSide: 600).boxes(in: ink.image)
        // (a set's order varies from process to process: this ran in random order before)
        #expect(boxes.map(\.outer.y) == tops)
    }

    @Test("Found through breaks: a faint stretch, digits crossing the top line, a missing corner")
    func brokenLines() {
        var ink = Ink(600, 400)
        ink.box(100, 100, 400, 160, thickness: 2)
        ink.paint(200, 100, 208, 102, 0)          // a gap in the top line
        ink.paint(150, 90, 154, 150)              // an upright crossing the top line
        ink.paint(300, 92, 304, 150)
        ink.paint(398, 100, 400, 106, 0)          // the top right corner faint
        #expect(LineBoxes(longerSide: 600).boxes(in: ink.image).count == 1)
    }

    @Test("Found when a side runs on past a corner into specks or a label's letters (the side kept for its drawn stretch)",
          arguments: [false, true])
    func sideRunningOnIntoSpecks(below: Bool) throws {
        // a 300 × 60 box, lines 2 px; 2-px dots 10 px apart (within a bridged gap of each
        // other) continue its left side 90 px past the top corner, or its right side past
        // the bottom one: joined to them, the side is inked over under half its length
        var ink = Ink(600, 400)
        ink.box(100, 100, 400, 160, thickness: 2)
        for k in 1...9 {
            if below { ink.paint(398, 160 + 10 * k - 2, 400, 160 + 10 * k) } else { ink.paint(100, 100 - 10 * k, 102, 100 - 10 * k + 2) }
        }
        let finder = LineBoxes(longerSide: 600)
        #expect(finder.boxes(in: ink.image).map(\.outer) == [PixelBox(x: 100, y: 100, width: 300, height: 60)])
        // the side ends at the box's lines, not at the last dot
        let side = try #require(finder.lines(in: ink.image).columns.first { $0.across.contains(below ? 399 : 100) })
        #expect(side.along.lowerBound >= 90 && side.along.upperBound <= 170)

        // control: the dots alone, and a row of them, are no line
        var dots = Ink(600, 400)
        for k in 0..<20 { dots.paint(100, 100 + 10 * k, 102, 102 + 10 * k); dots.paint(100 + 10 * k, 300, 102 + 10 * k, 302) }
        let (rows, columns) = finder.lines(in: dots.image)
        #expect(rows.isEmpty && columns.isEmpty)
    }

    @Test("No box (negative controls): three sides; lines of dashes with uprights; a thick bar for a side")
    func controls() {
        let finder = LineBoxes(longerSide: 600)
        var open = Ink(600, 400)
        open.box(100, 100, 400, 160, thickness: 2)
        open.paint(398, 100, 400, 160, 0)         // no right side
        #expect(finder.boxes(in: open.image).isEmpty)

        // print: words of thin strokes with gaps wider than a line's breaks, tall letters
        var print = Ink(600, 400)
        for row in 0..<6 {
            let y = 100 + row * 20
            var x = 50
            while x < 500 { print.paint(x, y, x + 30, y + 2); print.paint(x, y - 14, x + 2, y + 2); x += 30 + 16 }
        }
        #expect(finder.boxes(in: print.image).isEmpty)

        var bar = Ink(600, 400)
        bar.box(100, 100, 400, 160, thickness: 2)
        bar.paint(90, 100, 112, 160)              // the left side a bar 22 px thick
        #expect(finder.boxes(in: bar.image).isEmpty)
    }

    @Test("Found when digits wider than a line's breaks lie across its bottom line",
          arguments: [20, 40])
    func digitsAcrossLine(width: Int) {
        // a 300 × 60 box, lines 2 px; two blots `width` px wide and 14 px tall (digits
        // written low) lying across the bottom line: the line is thick there, yet ink (at
        // 60 px each, 40 % of the line, it is no longer drawn through: `inkedShare`)
        var ink = Ink(600, 400)
        ink.box(100, 100, 400, 160, thickness: 2)
        ink.paint(150, 150, 150 + width, 164)
        ink.paint(260, 150, 260 + width, 164)
        let finder = LineBoxes(longerSide: 600)
        #expect(width > finder.bridgedGap)
        #expect(finder.boxes(in: ink.image).map(\.outer) == [PixelBox(x: 100, y: 100, width: 300, height: 60)])
    }

    @Test("Control: two boxes side by side, the paper between them as wide as those digits, stay two",
          arguments: [20, 40, 60])
    func boxesSideBySide(gap: Int) {
        var ink = Ink(600, 400)
        ink.box(100, 100, 250, 160, thickness: 2)
        ink.box(250 + gap, 100, 400 + gap, 160, thickness: 2)
        #expect(LineBoxes(longerSide: 600).boxes(in: ink.image).map(\.outer).sorted { $0.x < $1.x }
                == [PixelBox(x: 100, y: 100, width: 150, height: 60), PixelBox(x: 250 + gap, y: 100, width: 150, height: 60)])
    }

    @Test("A ruled grid gives each span between its row lines (a band, bands joined), a nested box both")
    func splitAndNested() {
        var grid = Ink(600, 400)
        grid.box(100, 100, 400, 250, thickness: 2)
        grid.paint(100, 150, 400, 152); grid.paint(100, 200, 400, 202)
        grid.paint(200, 100, 202, 250); grid.paint(300, 100, 302, 250)
        let spans = LineBoxes(longerSide: 600).boxes(in: grid.image)
        // a line of a box's extent across it may be a line or a digit's stroke: the box
        // is given whole and in its parts, and the layout weighs the whole against them
        #expect(spans.map { Int((Double($0.outer.height) / 50).rounded()) }.sorted() == [1, 1, 1, 2, 2, 3])
        #expect(spans.allSatisfy { $0.outer.x == 100 && $0.outer.width == 300 })

        var nested = Ink(600, 400)
        nested.box(100, 100, 500, 300, thickness: 2)
        nested.box(200, 150, 350, 200, thickness: 2)
        #expect(LineBoxes(longerSide: 600).boxes(in: nested.image).map(\.outer)
                == [PixelBox(x: 100, y: 100, width: 400, height: 200), PixelBox(x: 200, y: 150, width: 150, height: 50)])
    }

    @Test("The settings scale with the region: the same drawing is found at half and double size")
    func scale() {
        for factor in [1, 2, 4] {
            var ink = Ink(300 * factor, 200 * factor)
            ink.box(50 * factor, 50 * factor, 200 * factor, 80 * factor, thickness: factor)
            #expect(LineBoxes(longerSide: 300 * factor).boxes(in: ink.image).count == 1, "factor \(factor)")
        }
    }
}

/// What makes a line: drawn through, straight, thin.
@Suite("Lines for boxes")
struct LineBoxesLineTests {
    func rows(_ paint: (inout [UInt8], Int) -> Void) -> Int {
        let (w, h) = (300, 40)
        var bits = [UInt8](repeating: 0, count: w * h)
        paint(&bits, w)
        return LineBoxes(longerSide: 300).lines(bits, width: w, height: h).count
    }

    @Test("A dashed run whose gaps are bridged but add up to over 30 % is no line; dashes with short gaps are")
    func inkedShare() {
        // dashes 4 px, gaps 3 px: 57 % inked
        #expect(rows { bits, w in for x in 20..<280 where x % 7 < 4 { bits[20 * w + x] = 1 } } == 0)
        // dashes 12 px, gaps 2 px: 86 % inked
        #expect(rows { bits, w in for x in 20..<280 where x % 14 < 12 { bits[20 * w + x] = 1 } } == 1)
    }

    @Test("A line sloping 1 in 15 (3.8°) is no box side; one sloping 1 in 26 (2.2°) is")
    func straightness() {
        #expect(rows { bits, w in for x in 20..<280 { bits[(10 + (x - 20) / 15) * w + x] = 1 } } == 0)
        #expect(rows { bits, w in for x in 20..<280 { bits[(10 + (x - 20) / 26) * w + x] = 1 } } == 1)
    }
}

/// A form photographed out of focus: its box lines blur into bands that swallow the
/// digits written against them at the low threshold; the line's core, taken at the high
/// one (`LineBoxes.inkFractions`), is a line again.
@Suite("Blurred boxes")
struct BlurredBoxesTests {
    /// A 720 × 480 sheet with a box at (200, 150)–(560, 230), lines `line` px, and a row
    /// of tall strokes `stroke` px wide (a number written big) touching its top and bottom
    /// lines, blurred by `blur` passes of a box filter of `radius`.
    func sheet(blur: Int, line: Int = 3, stroke: Int = 3, radius: Int = 2) -> GrayImage {
        var g = GrayImage(width: 720, height: 480, fill: 235)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) { for y in y0..<y1 { for x in x0..<x1 { g[x, y] = 40 } } }
        paint(200, 150, 560, 150 + line); paint(200, 230 - line, 560, 230); paint(200, 150, 200 + line, 230); paint(560 - line, 150, 560, 230)
        for x in stride(from: 230, to: 540, by: 30) { paint(x, 150 + line, x + stroke, 230 - line); paint(x, 188, x + 16, 188 + stroke) }
        return TestImages.boxBlurred(g, radius: radius, passes: blur)
    }

    func found(blur: Int, radius: Int = 2, fractions: [Double]) -> Int {
        let g = sheet(blur: blur, radius: radius)
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(720, 0), bottomRight: Point(720, 480), bottomLeft: Point(0, 480))
        guard let (inks, _, _) = LineBoxes.straightenedInk(of: whole, in: g, longestSide: 720, fractions: fractions) else { return -1 }
        return inks.reduce(0) { $0 + LineBoxes(longerSide: 720).boxes(in: $1).count }
    }

    @Test("Sharp, the box is found at either threshold")
    func sharp() {
        #expect(found(blur: 0, fractions: [0.15]) == 1)
        #expect(found(blur: 0, fractions: [0.5]) == 1)
    }

    @Test("Blurred, only the line's core shows the box", arguments: [(2, 2), (1, 3)])
    func blurred(blur: (passes: Int, radius: Int)) {
        #expect(found(blur: blur.passes, radius: blur.radius, fractions: [0.15]) == 0)
        #expect(found(blur: blur.passes, radius: blur.radius, fractions: [0.5]) == 1)
        #expect(found(blur: blur.passes, radius: blur.radius, fractions: LineBoxes.inkFractions) >= 1)
    }
}

/// The sheet pass straightens every sheet and looks for the boxes drawn on it; on a noisy
/// blank sheet the noise, measured against the paper, was ink nearly everywhere and its
/// rows and columns of specks made lines and dozens of boxes.
@Suite("Boxes on a noisy sheet")
struct NoisySheetBoxesTests {
    /// A 720 × 480 sheet at grey 200 with noise of about ±30 levels (a fixed sequence), a
    /// large stroke (a written 1) and, when `boxed`, a box drawn 3 px wide.
    func boxes(boxed: Bool) -> Int {
        var g = GrayImage(width: 720, height: 480, fill: 200)
        var state: UInt32 = 12345
        for y in 0..<480 {
            for x in 0..<720 {
                state = state &* 1_664_525 &+ 1_013_904_223
                g[x, y] = UInt8(200 + Int(state >> 24) % 61 - 30)
            }
        }
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) { for y in y0..<y1 { for x in x0..<x1 { g[x, y] = 40 } } }
        paint(358, 140, 362, 340)
        if boxed { paint(200, 150, 560, 153); paint(200, 227, 560, 230); paint(200, 150, 203, 230); paint(557, 150, 560, 230) }
        let whole = Quadrilateral(topLeft: Point(0, 0), topRight: Point(720, 0), bottomRight: Point(720, 480), bottomLeft: Point(0, 480))
        guard let (inks, ridges, _) = LineBoxes.straightenedInk(of: whole, in: g, longestSide: 720) else { return -1 }
        return LineBoxes(longerSide: 720).boxes(in: inks, ridges: ridges, largestShare: 0.5).count
    }

    @Test("A noisy blank sheet holding one large stroke has no boxes")
    func blank() { #expect(boxes(boxed: false) == 0) }

    @Test("Control: a box drawn on the same noisy sheet is found")
    func boxed() { #expect(boxes(boxed: true) >= 1) }
}

/// The thickest line taken follows the width of the strokes (`LineBoxes.forStrokes`):
/// blur widens a thin line as it widens every stroke.
struct StrokeWidthLineTests {
    /// A 720 × 240 region (its share-based thickest line: 7 px) holding a box whose lines
    /// are `line` px thick around five digit-like bars and rings of strokes `stroke` px wide.
    static func region(line: Int, stroke: Int) -> BinaryImage {
        var ink = LineBoxesTests.Ink(720, 240)
        ink.box(60, 60, 620, 190, thickness: line)
        for k in 0..<5 {
            let x = 100 + 100 * k
            ink.paint(x, 80, x + stroke, 170)                                  // an upright stroke
            ink.box(x + 30, 85, x + 70, 165, thickness: stroke)                // a ring, a 0
        }
        return ink.image
    }

    @Test("Lines as wide as the strokes are lines, past the share-based thickness, across stroke widths",
          arguments: [7, 9, 12])
    func blurredBoxFound(stroke: Int) {
        let image = Self.region(line: stroke, stroke: stroke)
        let plain = LineBoxes(longerSide: 720)
        #expect(LineBoxes.typicalStrokeWidth(of: image) == Double(stroke))
        let adjusted = plain.forStrokes(of: image)
        #expect(adjusted.maximumThickness >= stroke)
        #expect(adjusted.boxes(in: image).contains { $0.outer == PixelBox(x: 60, y: 60, width: 560, height: 130) })
        // the share-based thickness alone takes no line that wide
        if stroke > plain.maximumThickness { #expect(!plain.boxes(in: image).contains { $0.outer.width == 560 }) }
    }

    @Test("A glyph's loop drawn in strokes as thick as the lines taken is no box: it has no room for a glyph",
          arguments: [7, 9, 12])
    func loopIsNoBox(stroke: Int) {
        let image = Self.region(line: stroke, stroke: stroke)
        let blank = BinaryImage(width: image.width, height: image.height, bits: [UInt8](repeating: 0, count: image.width * image.height))
        let found = LineBoxes(longerSide: 720).boxes(in: [image], ridges: blank, largestShare: 0.9)
        // the box around them, and no ring (40 × 80 px, at most 33 px between its lines' middles)
        #expect(found.contains { $0.outer == PixelBox(x: 60, y: 60, width: 560, height: 130) })
        #expect(!found.contains { $0.outer.width <= 40 })
        // the rings are lines' boxes at that thickness: the room is what leaves them out
        #expect(LineBoxes(longerSide: 720).forStrokes(of: image).boxes(in: image).contains { $0.outer.width <= 40 })
    }

    @Test("Control: a frame of bars three times the strokes' width is no box of lines")
    func thickBarsAreNoLines() {
        let image = Self.region(line: 27, stroke: 9)
        #expect(!LineBoxes(longerSide: 720).forStrokes(of: image).boxes(in: image).contains { $0.outer.width == 560 })
    }
}
