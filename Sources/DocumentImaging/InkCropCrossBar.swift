extension InkCrop {
    /// The part of a glyph's height, from its top, in which a bar crossing its stem lies:
    /// the bar a writer draws across a 7's stem sits at about half its height, below the
    /// top bar (which a 7 without a cross has too) and above the foot of the stem.
    public static let crossBarBand = 0.35...0.75

    /// A run across a glyph's middle at least this many strokes long is a bar crossing its
    /// stem: a stem alone gives 1 / sin of its lean (1 upright, 1.4 at 45°, 2 at 30°); 2.5
    /// is a stem leaning 24° off the horizontal, flatter than a 7's or a 1's.
    public static let crossBarLeastStrokes = 2.5

    /// True when a bar crosses the glyph's stem in the middle of its height, as a 7 is
    /// crossed where a 1 is written with a flag (`crossBarStrokes` at least
    /// `crossBarLeastStrokes`).
    public var hasCrossBar: Bool { (crossBarStrokes ?? 0) >= Self.crossBarLeastStrokes }

    /// The longest horizontal run of ink in the middle of the glyph's height
    /// (`crossBarBand`), in strokes (the median length of all the crop's horizontal runs
    /// of ink): about 1 where a steep stem alone passes there, 1.5 where it leans 45°, and
    /// two strokes or more where a bar crosses it. Ink is what is at least half the crop's
    /// darkest ink. nil for a crop with no ink.
    /// - Complexity: O(width × height).
    public var crossBarStrokes: Double? {
        let (w, h) = (box.width, box.height)
        guard let darkest = ink.max(), darkest > 0 else { return nil }
        let level = darkest / 2 + 1
        var runs: [Int] = [], longestPerRow = [Int](repeating: 0, count: h)
        var top = h, bottom = -1
        for y in 0..<h {
            var run = 0
            for x in 0...w {
                if x < w, ink[y * w + x] >= level { run += 1; continue }
                if run > 0 { runs.append(run); longestPerRow[y] = max(longestPerRow[y], run); run = 0 }
            }
            if longestPerRow[y] > 0 { top = min(top, y); bottom = y }
        }
        guard bottom >= top else { return nil }
        let height = Double(bottom - top + 1)
        let first = top + Int((Self.crossBarBand.lowerBound * height).rounded(.down))
        let last = top + Int((Self.crossBarBand.upperBound * height).rounded(.up)) - 1
        let longest = longestPerRow[first...max(first, min(last, bottom))].max() ?? 0
        runs.sort()
        let stroke = Double(runs[runs.count / 2])
        return Double(longest) / stroke
    }
}
