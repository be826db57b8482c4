public import ImagingCore

extension RulingFinder {
    /// The ruling of a rectified region read from its grey levels.
    ///
    /// For each row (column) the darkness against the paper is smeared ±1.5 % across
    /// the line direction (to follow bent lines) and its 30th percentile along the row
    /// is taken: a ruling is dark along its whole length, so its percentile is high,
    /// while a row through digits is dark only where the digits are. Rows above
    /// `strongestLineShare` of the strongest line's level, and above a floor set by the
    /// paper's noise (`GrayImage.paperNoiseFloor`) and the image's contrast (10 % of its
    /// 99th percentile), are lines; a line whose 10th percentile also clears that level (dark
    /// along 90 % of its length) is proven a ruling; then the largest even division whose
    /// interior lines are all present, one of them proven, wins (`evenDivision`).
    ///
    /// `againstBackground`: rows standing out of the profile's own background are lines
    /// instead (`ProfileLevels.Direction.linesAboveBackground`), however faint beside the
    /// strongest line and under the paper's pixel noise.
    /// - Returns: nil when the region holds no grid.
    public static func ruling(in gray: GrayImage, darkness given: [UInt8]? = nil, maxCells: Int = 30,
                              againstBackground: Bool = false) -> Ruling? {
        let levels = ProfileLevels(of: gray, darkness: given)
        return ruling(levels, maxCells: maxCells, againstBackground: againstBackground)
    }

    /// `ruling(in:)` from profiles already taken.
    public static func ruling(_ levels: ProfileLevels, maxCells: Int = 30, againstBackground: Bool = false) -> Ruling? {
        let rows = againstBackground ? levels.rows.linesAboveBackground()
            : levels.rows.lines(floor: levels.floor, strongestShare: strongestLineShare)
        let columns = againstBackground ? levels.columns.linesAboveBackground()
            : levels.columns.lines(floor: levels.floor, strongestShare: strongestLineShare)
        // a frame heavier than the ruling inside it ends the grid (`evenDivision`'s
        // `heavy`): the strip past it is the paper or the sheet below the quad took in
        guard let r = evenDivision(rows.map(\.position), length: Double(levels.height), maxCells: maxCells,
                                   heavy: heavy(rows.map { ($0.position, $0.width) }),
                                   unproven: rows.filter { !$0.strong }.map(\.position)),
              let c = evenDivision(columns.map(\.position), length: Double(levels.width), maxCells: maxCells,
                                   heavy: heavy(columns.map { ($0.position, $0.width) }),
                                   unproven: columns.filter { !$0.strong }.map(\.position)) else { return nil }
        return plausible(Ruling(rows: r, columns: c), width: levels.width, height: levels.height)
    }

    /// A row (column) whose level is under this share of the strongest one's is no line
    /// (`ruling(in:)`): rows through digits and shade stay out. Where a heavy frame or
    /// jigsaw region line is several times as dark as the blurred thin lines beside it,
    /// only lines taken against the profile's background find them: the layout asks for
    /// those when nothing else shows the grid (`Layout.ruling(of:faintLines:)`).
    public static let strongestLineShare = 0.25

    /// Line centres across one direction (see `ruling(in:)`).
    public static func profileLines(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool,
                                    floor: Double = 8) -> [Double] {
        ProfileLevels.Direction(dark, width: width, height: height, horizontal: horizontal)
            .lines(floor: floor, strongestShare: strongestLineShare).map(\.position)
    }

}

/// The grey-level profiles `RulingFinder.ruling(in:)` reads a ruling from: per row and per
/// column, how dark 70 % and 90 % of it are against the paper. Taken once, thresholded as
/// often as asked.
public struct ProfileLevels: Sendable {
    /// One direction's profile: a level per row (`horizontal`) or per column.
    public struct Direction: Sendable {
        /// 30th percentile of each row's smeared darkness: 70 % of the row is this dark.
        let level: [Double]
        /// 10th percentile: 90 % of the row is this dark.
        let fullLength: [Double]
        /// How far the darkness was smeared across the rows (pixels each side).
        let smear: Int

        /// The profile of `dark` (`width` × `height`) along rows (`horizontal`) or
        /// columns (`SmearedRows`: each row's darkness smeared ±1.5 % of the rows across
        /// it, then its percentiles within a margin of 4 % at either end).
        init(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool) {
            let rows = SmearedRows(dark, width: width, height: height, horizontal: horizontal)
            var level = [Double](repeating: 0, count: rows.count)
            var fullLength = [Double](repeating: 0, count: rows.count)
            var histogram = [Int](repeating: 0, count: 256)
            for i in 0..<rows.count {
                let p = rows.percentiles(of: i, histogram: &histogram)
                (level[i], fullLength[i]) = (p.p30, p.p10)
            }
            (self.level, self.fullLength, self.smear) = (level, fullLength, rows.smear)
        }

        /// The lines: runs of rows at or above `floor` and `strongestShare` of the
        /// strongest row's level (`lines(above:)`).
        func lines(floor: Double, strongestShare: Double) -> [(position: Double, strong: Bool, width: Int)] {
            let strongest = level.max() ?? 0
            guard strongest >= floor else { return [] }
            return lines(above: max(floor, strongestShare * strongest))
        }

        /// The lines standing out of the profile's background: runs of rows above its
        /// median level by `backgroundDeviations` robust standard deviations of the levels
        /// (1.4826 × their median absolute deviation), and by `leastLineContrast` at
        /// least. A row's level is a percentile over hundreds of pixels: its own noise is
        /// far below a pixel's (`GrayImage.paperNoiseFloor`), so a thin line a blur has
        /// left barely darker than the paper's grain still stands out of the rows beside
        /// it (`lines(above:)`).
        func linesAboveBackground() -> [(position: Double, strong: Bool, width: Int)] {
            guard !level.isEmpty else { return [] }
            let (background, margin) = ProfileLevels.lineMargin(over: level)
            return lines(above: background + margin)
        }

        /// Runs of rows at or above `threshold`, each with its centre (the middle of its
        /// rows within 10 % of its peak), whether it is proven (its 10th percentile clears
        /// the same level: dark along 90 % of its length) and its width (the run less the
        /// smear's widening on either side, at least 1).
        func lines(above threshold: Double) -> [(position: Double, strong: Bool, width: Int)] {
            var result: [(position: Double, strong: Bool, width: Int)] = []
            var i = 0
            while i < level.count {
                guard level[i] >= threshold else { i += 1; continue }
                var j = i
                while j + 1 < level.count && level[j + 1] >= threshold { j += 1 }
                let top = level[i...j].max()!
                let core = (i...j).filter { level[$0] >= top - 0.1 * top }
                result.append((Double(core.first! + core.last!) / 2, fullLength[i...j].max()! >= threshold,
                               max(1, j - i + 1 - 2 * smear)))
                i = j + 1
            }
            return result
        }
    }

    /// The median of `levels` (not empty) and how far above it a line stands: by
    /// `backgroundDeviations` robust standard deviations of the levels (1.4826 × their
    /// median absolute deviation: their noise), and by `leastLineContrast` at least.
    static func lineMargin(over levels: [Double]) -> (background: Double, margin: Double) {
        let sorted = levels.sorted(), background = sorted[sorted.count / 2]
        let deviations = levels.map { abs($0 - background) }.sorted()
        let spread = 1.4826 * deviations[deviations.count / 2]
        return (background, max(leastLineContrast, backgroundDeviations * spread))
    }

    /// See `Direction.linesAboveBackground`: how many robust standard deviations of the
    /// levels a line stands above the background (3: a row of paper reaches it about once
    /// in a thousand). 2 and 3 measured the same on corpus seed 1, 5 lost a grid.
    public static let backgroundDeviations = 3.0
    /// See `Direction.linesAboveBackground`: the least darkness (grey levels) a line
    /// stands above the background by, where the levels hardly vary at all (a flat
    /// profile's deviation is 0). 3 and 5 measured the same on corpus seed 1.
    public static let leastLineContrast = 5.0

    /// Rows' profile (lines running across).
    public let rows: Direction
    /// Columns' profile (lines running down).
    public let columns: Direction
    /// The least level a line has: the paper's noise (`GrayImage.paperNoiseFloor`) or
    /// 10 % of the image's 99th-percentile darkness, whichever is higher.
    public let floor: Double
    /// The profiled image's size.
    public let width: Int, height: Int

    /// The profiles of `gray`, whose darkness against the paper (`GrayImage.darkness()`)
    /// is `darkness` when already taken.
    public init(of gray: GrayImage, darkness given: [UInt8]? = nil) {
        let dark = given ?? gray.darkness()
        let histogram = ByteHistogram(dark)
        floor = max(0.1 * Double(histogram.percentile(0.99)), GrayImage.paperNoiseFloor(histogram))
        rows = Direction(dark, width: gray.width, height: gray.height, horizontal: true)
        columns = Direction(dark, width: gray.width, height: gray.height, horizontal: false)
        (width, height) = (gray.width, gray.height)
    }
}

/// A darkness image's rows (`horizontal`) or columns, each smeared across the line
/// direction by ±1.5 % of their count (a running maximum: a line a little bent or aslant
/// stays within one row), with the percentiles `ProfileLevels` reads of each row within a
/// margin of 4 % at either end.
struct SmearedRows {
    /// The smeared darkness, laid out as the image.
    let smeared: [UInt8]
    let width: Int, height: Int, horizontal: Bool
    /// How many rows (columns), how long each, and how far each was smeared (pixels).
    let count: Int, length: Int, smear: Int
    /// The ends of each row left out.
    let margin: Int

    init(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool) {
        (self.width, self.height, self.horizontal) = (width, height, horizontal)
        (length, count) = horizontal ? (width, height) : (height, width)
        smear = max(1, count * 15 / 1000)
        margin = max(1, length * 4 / 100)
        let (lines, across, radius) = (horizontal ? width : height, count, smear)
        let (stride, step) = horizontal ? (width, 1) : (1, width)
        var smeared = dark
        smeared.withUnsafeMutableBufferPointer { buf in
            GrayImage.runningExtreme(buf.baseAddress!, lines: lines, length: across, pixelStride: stride, lineStep: step,
                                     radius: radius, takesMax: true)
        }
        self.smeared = smeared
    }

    /// Row `i`'s 10th and 30th percentiles of smeared darkness (how dark 90 % and 70 % of
    /// it are), from `histogram` (256 counters, overwritten).
    func percentiles(of i: Int, histogram: inout [Int]) -> (p10: Double, p30: Double) {
        for b in 0..<256 { histogram[b] = 0 }
        smeared.withUnsafeBufferPointer { sm in
            for k in margin..<(length - margin) {
                histogram[Int(sm[horizontal ? i * width + k : k * width + i])] += 1
            }
        }
        let n = length - 2 * margin
        var seen = 0, p10 = -1, p30 = 0
        for b in 0..<256 {
            seen += histogram[b]
            if p10 < 0 && seen * 10 >= n { p10 = b }
            if seen * 10 >= n * 3 { p30 = b; break }
        }
        return (Double(max(0, p10)), Double(p30))
    }
}
