extension LineBoxes {
    /// The boxes of a straightened region (`LineBoxes.straightenedInk`) covering at most
    /// `largestShare` of it (a larger one is its own border): those each of its
    /// thresholds shows (`inks`, lowest threshold first), and those only its `ridges` show
    /// — a box drawn in a hairline of pale ink, blurred to a few grey levels below the
    /// paper, is a ridge along every side where no threshold keeps more than specks of it
    /// (a comb's thin outline). The ridges also trace every stroke's middle, so a box only
    /// they show is taken when it lies in no box a threshold found (there a digit's bar
    /// from side to side would cut the box in two) and when it is no glyph's loop: a 0's
    /// or an 8's bowl is a ridge "box" whose sides are dark ink at the highest threshold
    /// (`loopDarkShare`), where a drawn line that dark is found by the thresholds already.
    public func boxes(in inks: [BinaryImage], ridges: BinaryImage, largestShare: Double) -> [Box] {
        let largest = largestShare * Double(ridges.width * ridges.height)
        let onRegion = { (box: Box) in Double(box.outer.width * box.outer.height) <= largest }
        let thresholded = inks.flatMap { ink in
            let finder = forStrokes(of: ink)
            return finder.boxes(in: ink).filter { onRegion($0) && min($0.bottom - $0.top, $0.right - $0.left) >= Double(finder.minimumRoom) }
        }
        guard let darkest = inks.last else { return thresholded }
        let faint = boxes(in: ridges).filter { box in
            onRegion(box) && !thresholded.contains { $0.outer.contains(box.outer, margin: maximumThickness) }
                && Self.darkShare(of: box, in: darkest) < Self.loopDarkShare
        }
        return thresholded + faint
    }

    /// These settings with the thickest line taken at least `strokeThicknessRatio` times the
    /// typical width of `ink`'s strokes (`typicalStrokeWidth`): blur widens a thin line as
    /// it widens every stroke, past a fixed share of the region in a small, blurred photo.
    /// Where that widens the lines taken, a box also needs room for a glyph (`minimumRoom`).
    public func forStrokes(of ink: BinaryImage) -> LineBoxes {
        guard let stroke = Self.typicalStrokeWidth(of: ink) else { return self }
        let widened = Int((Self.strokeThicknessRatio * stroke).rounded(.up))
        guard widened > maximumThickness else { return self }
        var adjusted = self
        adjusted.maximumThickness = widened
        adjusted.bridgedGap = 2 * widened
        // lines as thick as strokes also trace a glyph's loop (a 0 written flat): a box
        // has room for a glyph inside, `glyphRoomStrokes` strokes between its lines' middles
        adjusted.minimumRoom = Int((Self.glyphRoomStrokes * stroke).rounded(.up))
        return adjusted
    }

    /// See `forStrokes(of:)`: a written digit is at least five strokes tall (MNIST's are
    /// about seven), and a loop inside a glyph is at most about two strokes across its
    /// narrower way; a box holding a glyph has four strokes' room and a line between its
    /// lines' middles.
    public static let glyphRoomStrokes = 5.0

    /// See `forStrokes(of:)`: a drawn line is no wider than a written stroke, and half as
    /// wide again allows for blur, which widens a thin line more than a broad stroke.
    public static let strokeThicknessRatio = 1.5

    /// The median length of `ink`'s runs down its columns and along its rows, each no
    /// longer than a tenth of the shorter side (blobs and the region's own border left
    /// out): the width of its strokes and lines. nil without ink.
    static func typicalStrokeWidth(of ink: BinaryImage) -> Double? {
        let cap = max(2, min(ink.width, ink.height) / 10)
        var counts = [Int](repeating: 0, count: cap + 1)
        // the runs along each line of `bits` (`length` pixels a line): rows, then the
        // transposed image's rows, the columns
        func countRuns(_ bits: [UInt8], length: Int) {
            for start in stride(from: 0, to: bits.count, by: length) {
                var run = 0
                for k in start..<(start + length) {
                    if bits[k] != 0 { run += 1; continue }
                    if run <= cap { counts[run] += 1 }
                    run = 0
                }
                if run <= cap { counts[run] += 1 }
            }
        }
        countRuns(ink.bits, length: ink.width)
        countRuns(ink.transposedBits(), length: ink.height)
        counts[0] = 0   // the gaps between runs
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        var seen = 0
        for (length, n) in counts.enumerated() { seen += n; if 2 * seen >= total { return Double(length) } }
        return Double(cap)
    }

    /// See `boxes(in:ridges:largestShare:)`: a box only the ridges show whose lines are ink at the
    /// highest threshold over this share of their length is a glyph's loop.
    public static let loopDarkShare = 0.5

    /// The share of the four lines' length (sampled along their middles, one pixel apart)
    /// where `ink` holds ink within a pixel of the middle.
    static func darkShare(of box: Box, in ink: BinaryImage) -> Double {
        let (top, bottom, left, right) = (Int(box.top), Int(box.bottom), Int(box.left), Int(box.right))
        guard left < right, top < bottom else { return 0 }
        let inkedNear = { (x: Int, y: Int) in (-1...1).contains { dy in (-1...1).contains { ink.isInk(x + $0, y + dy) } } }
        let samples = (left..<right).flatMap { [inkedNear($0, top), inkedNear($0, bottom)] }
            + (top..<bottom).flatMap { [inkedNear(left, $0), inkedNear(right, $0)] }
        return Double(samples.filter { $0 }.count) / Double(samples.count)
    }
}
