extension InkCrop {
    /// The part of a glyph's height, from its top, in which a bar crossing its stem lies:
    /// the bar a writer draws across a 7's stem sits at about half its height, below the
    /// top bar (which a 7 without a cross has too) and above the foot of the stem.
    public static let crossBarBand = 0.35...0.75

    /// A bar at least this many strokes long, reaching as far past the stem on each side,
    /// crosses it: a stem alone measures 1 / sin of its lean (1 upright, 1.4 at 45°, 2 at
    /// 30°), and 2.5 is a stem leaning 24° off the horizontal, flatter than a 7's or a 1's.
    public static let crossBarLeastStrokes = 2.5

    /// How far above and below a run the stem it may cross is looked for, in strokes: past
    /// the bar's own thickness (about a stroke) and its blur.
    static let stemReach = 2.0

    /// True when a bar crosses the glyph's stem in the middle of its height, as a 7 is
    /// crossed where a 1 is written with a flag (`crossBarStrokes` at least
    /// `crossBarLeastStrokes`).
    public var hasCrossBar: Bool { (crossBarStrokes ?? 0) >= Self.crossBarLeastStrokes }

    /// How far a bar across the middle of the glyph's height (`crossBarBand`) reaches past
    /// the stem it crosses, in strokes (the median length of the crop's horizontal runs of
    /// ink): of each horizontal run there, twice its shorter arm either side of the stem,
    /// the stem's middle taken from the ink `stemReach` strokes above and below the run.
    /// At most about 1 where a stem alone passes (0 where the stem leans so far that the
    /// ink above and below misses the run); a flag that joins the stem from one side,
    /// ending at it (a 1 written ⊣), measures about 1 too, and a bar crossing a 7's stem
    /// about its own length. Ink is what is at least half the crop's darkest ink. nil for a crop with no
    /// ink.
    /// - Complexity: O(width × height).
    public var crossBarStrokes: Double? {
        let (w, h) = (box.width, box.height)
        guard let darkest = ink.max(), darkest > 0 else { return nil }
        let level = darkest / 2 + 1
        var rows = [[ClosedRange<Int>]](repeating: [], count: h)
        var lengths: [Int] = []
        for y in 0..<h {
            var start: Int?
            for x in 0...w {
                let isInk = x < w && ink[y * w + x] >= level
                if isInk, start == nil { start = x }
                if !isInk, let s = start { rows[y].append(s...(x - 1)); lengths.append(x - s); start = nil }
            }
        }
        guard let top = rows.firstIndex(where: { !$0.isEmpty }),
              let bottom = rows.lastIndex(where: { !$0.isEmpty }) else { return nil }
        lengths.sort()
        let stroke = Double(lengths[lengths.count / 2])
        let height = Double(bottom - top + 1)
        let reach = max(1, Int((Self.stemReach * stroke).rounded()))
        let first = top + Int((Self.crossBarBand.lowerBound * height).rounded(.down))
        let last = min(bottom, top + Int((Self.crossBarBand.upperBound * height).rounded(.up)) - 1)
        // the middle of the run in row `y` overlapping `run` most
        func stemMiddle(_ y: Int, _ run: ClosedRange<Int>) -> Double? {
            guard (0..<h).contains(y) else { return nil }
            let overlapping = rows[y].filter { $0.overlaps(run) }
            guard let stem = overlapping.max(by: { $0.clamped(to: run).count < $1.clamped(to: run).count }) else { return nil }
            return Double(stem.lowerBound + stem.upperBound) / 2
        }
        var longest = 0.0
        for y in first...max(first, last) where y <= bottom {
            for run in rows[y] {
                guard let above = stemMiddle(y - reach, run), let below = stemMiddle(y + reach, run) else { continue }
                let middle = (above + below) / 2
                let arm = min(middle - Double(run.lowerBound), Double(run.upperBound) - middle) + 0.5
                longest = max(longest, 2 * arm)
            }
        }
        return longest / stroke
    }
}
