extension RulingFinder {
    /// `ruling` divided finer wherever the grey levels show the finer lines: a puzzle
    /// whose thin lines a blur or a pale print left under the thresholds, found by its
    /// heavy box lines alone (9 × 3, 3 × 3), is the 9 × 9 grid its profile shows.
    ///
    /// Each direction is tried on its own (`ProfileLevels.Direction.finestDivision`): every
    /// cell cut into k equal parts, the largest k (within `maxCells`) for which every new
    /// line shows. Heavy and thin lines are one lattice, each line judged by its own
    /// darkness against the cells beside it, not against the heaviest line.
    public static func subdivided(_ ruling: Ruling, levels: ProfileLevels, maxCells: Int = 30) -> Ruling {
        Ruling(rows: levels.rows.finestDivision(of: ruling.rows, maxCells: maxCells),
               columns: levels.columns.finestDivision(of: ruling.columns, maxCells: maxCells))
    }
}

extension ProfileLevels.Direction {
    /// `lines` (borders included) with each interval cut into k equal parts, for the
    /// largest k ≤ `maxCells` / intervals under which every new line shows
    /// (`line(near:pitch:)`); `lines` when none does. Each new line is placed where it runs.
    func finestDivision(of lines: [Double], maxCells: Int) -> [Double] {
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
    /// side (the median over the middle half of each) by `ProfileLevels.leastLineContrast`
    /// and by `ProfileLevels.backgroundDeviations` robust deviations of those cells'
    /// levels (their noise). nil when no line shows there.
    func line(near expected: Double, pitch: Double) -> Double? {
        let count = fullLength.count
        func rows(_ from: Double, _ to: Double) -> [Int] {
            let lo = max(0, Int(from.rounded(.up))), hi = min(count - 1, Int(to.rounded(.down)))
            return lo <= hi ? Array(lo...hi) : []
        }
        let near = rows(expected - RulingFinder.lineTolerance * pitch, expected + RulingFinder.lineTolerance * pitch)
        let before = rows(expected - 0.75 * pitch, expected - 0.25 * pitch).map { fullLength[$0] }
        let after = rows(expected + 0.25 * pitch, expected + 0.75 * pitch).map { fullLength[$0] }
        guard let peak = near.max(by: { fullLength[$0] < fullLength[$1] }), !before.isEmpty, !after.isEmpty else { return nil }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let cells = before + after
        let middle = median(cells)
        let spread = 1.4826 * median(cells.map { abs($0 - middle) })
        let margin = max(ProfileLevels.leastLineContrast, ProfileLevels.backgroundDeviations * spread)
        guard fullLength[peak] >= max(median(before), median(after)) + margin else { return nil }
        // the middle of the rows near the top (the smear widens a line into a plateau)
        let core = near.filter { fullLength[$0] >= 0.9 * fullLength[peak] }
        return Double(core.first! + core.last!) / 2
    }
}
