public import ImagingCore

extension RulingFinder {
    /// `ruling` of the straightened region `gray` divided finer wherever its grey levels
    /// show the finer lines: a puzzle whose thin lines a blur or a pale print left under
    /// the thresholds, found by its heavy box lines alone (9 × 3, 3 × 3), is the 9 × 9
    /// grid its profile shows.
    ///
    /// Each direction is tried on its own (`FullLengthProfile.finestDivision`): every
    /// cell cut into k equal parts, the largest k (within `maxCells`) for which every new
    /// line shows. Heavy and thin lines are one lattice, each line judged by its own
    /// darkness against the cells beside it, not against the heaviest line. The profile is
    /// read only where a line is looked for, and a division is given up at its first
    /// missing line: a grid with no finer lines costs a few rows' percentiles.
    public static func subdivided(_ ruling: Ruling, in gray: GrayImage, maxCells: Int = 30) -> Ruling {
        let dark = gray.darkness()
        var rows = FullLengthProfile(SmearedRows(dark, width: gray.width, height: gray.height, horizontal: true))
        var columns = FullLengthProfile(SmearedRows(dark, width: gray.width, height: gray.height, horizontal: false))
        return Ruling(rows: rows.finestDivision(of: ruling.rows, maxCells: maxCells),
                      columns: columns.finestDivision(of: ruling.columns, maxCells: maxCells))
    }
}

/// How dark 90 % of each row (column) of a region is (`ProfileLevels.Direction
/// .fullLength`), worked out for a row only when first asked.
struct FullLengthProfile {
    let rows: SmearedRows
    private var known: [Double?]
    private var histogram = [Int](repeating: 0, count: 256)

    init(_ rows: SmearedRows) {
        self.rows = rows
        known = [Double?](repeating: nil, count: rows.count)
    }

    /// Row `i`'s 10th percentile of smeared darkness.
    mutating func fullLength(_ i: Int) -> Double {
        if let v = known[i] { return v }
        let v = rows.percentiles(of: i, histogram: &histogram).p10
        known[i] = v
        return v
    }

    /// `lines` (borders included) with each interval cut into k equal parts, for the
    /// largest k ≤ `maxCells` / intervals under which every new line shows
    /// (`line(near:pitch:)`); `lines` when none does. Each new line is placed where it runs.
    mutating func finestDivision(of lines: [Double], maxCells: Int) -> [Double] {
        let intervals = lines.count - 1
        guard intervals >= 1, maxCells / intervals >= 2 else { return lines }
        for k in stride(from: maxCells / intervals, through: 2, by: -1) {
            var fine: [Double] = [lines[0]]
            var shows = true
            for (a, b) in zip(lines, lines.dropFirst()) where shows {
                let pitch = (b - a) / Double(k)
                guard pitch >= RulingFinder.smallestCell else { shows = false; break }
                for j in 1..<k {
                    guard let at = line(near: a + Double(j) * pitch, pitch: pitch) else { shows = false; break }
                    fine.append(at)
                }
                fine.append(b)
            }
            if shows { return fine }
        }
        return lines
    }

    /// Where a line runs within `RulingFinder.lineTolerance` of a pitch of `expected` (the
    /// middle of its darkest rows), if one does: a ruling is dark along nearly its whole
    /// length (its 10th percentile, `fullLength`), where digits, text and a cell's blank
    /// paper are not, so the row's `fullLength` stands above that of the cells either
    /// side (the median over the middle half of each) by the margin a line stands above
    /// those cells' levels (`ProfileLevels.lineMargin`). nil when no line shows there.
    mutating func line(near expected: Double, pitch: Double) -> Double? {
        let count = rows.count
        func indices(_ from: Double, _ to: Double) -> [Int] {
            let lo = max(0, Int(from.rounded(.up))), hi = min(count - 1, Int(to.rounded(.down)))
            return lo <= hi ? Array(lo...hi) : []
        }
        let near = indices(expected - RulingFinder.lineTolerance * pitch, expected + RulingFinder.lineTolerance * pitch)
        let before = indices(expected - 0.75 * pitch, expected - 0.25 * pitch).map { fullLength($0) }
        let after = indices(expected + 0.25 * pitch, expected + 0.75 * pitch).map { fullLength($0) }
        let levels = near.map { fullLength($0) }
        guard let top = levels.max(), !before.isEmpty, !after.isEmpty else { return nil }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let margin = ProfileLevels.lineMargin(over: before + after).margin
        guard top >= max(median(before), median(after)) + margin else { return nil }
        // the middle of the rows near the top (the smear widens a line into a plateau)
        let core = zip(near, levels).filter { $0.1 >= 0.9 * top }.map(\.0)
        return Double(core.first! + core.last!) / 2
    }
}
