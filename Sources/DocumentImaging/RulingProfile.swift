public import ImagingCore

extension RulingFinder {
    /// The ruling of a rectified region read from its grey levels.
    ///
    /// For each row (column) the darkness against the paper is smeared ±1.5 % across
    /// the line direction (to follow bent lines) and its 30th percentile along the row
    /// is taken: a ruling is dark along its whole length, so its percentile is high,
    /// while a row through digits is dark only where the digits are. Rows above a
    /// quarter of the strongest line's level, and above a floor set by the paper's noise
    /// (`GrayImage.paperNoiseFloor`) and the image's contrast (10 % of its 99th
    /// percentile), are lines; a line whose 10th percentile also clears that level (dark
    /// along 90 % of its length) is proven a ruling; then the largest even division whose
    /// interior lines are all present, one of them proven, wins (`evenDivision`).
    /// - Returns: nil when the region holds no grid.
    public static func ruling(in gray: GrayImage, darkness given: [UInt8]? = nil, maxCells: Int = 30) -> Ruling? {
        let dark = given ?? gray.darkness()
        // paper noise and the image's contrast bound what counts as a line's darkness
        let histogram = ByteHistogram(dark)
        let floor = max(0.1 * Double(histogram.percentile(0.99)), GrayImage.paperNoiseFloor(histogram))
        let rows = profileLinesWithStrength(dark, width: gray.width, height: gray.height, horizontal: true, floor: floor)
        let columns = profileLinesWithStrength(dark, width: gray.width, height: gray.height, horizontal: false,
                                               floor: floor)
        // a frame heavier than the ruling inside it ends the grid (`evenDivision`'s
        // `heavy`): the strip past it is the paper or the sheet below the quad took in
        guard let r = evenDivision(rows.map(\.position), length: Double(gray.height), maxCells: maxCells,
                                   heavy: heavy(rows.map { ($0.position, $0.width) }),
                                   unproven: rows.filter { !$0.strong }.map(\.position)),
              let c = evenDivision(columns.map(\.position), length: Double(gray.width), maxCells: maxCells,
                                   heavy: heavy(columns.map { ($0.position, $0.width) }),
                                   unproven: columns.filter { !$0.strong }.map(\.position)) else { return nil }
        return plausible(Ruling(rows: r, columns: c), width: gray.width, height: gray.height)
    }

    /// Line centres across one direction (see `ruling(in:)`).
    public static func profileLines(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool,
                                    floor: Double = 8) -> [Double] {
        profileLinesWithStrength(dark, width: width, height: height, horizontal: horizontal, floor: floor).map(\.position)
    }

    /// `profileLines` with whether each line is strong (dark along 90 % of its length) and
    /// its width: the run above the line level, less the smear's widening on either side
    /// (at least 1).
    static func profileLinesWithStrength(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool,
                                         floor: Double = 8) -> [(position: Double, strong: Bool, width: Int)] {
        let length = horizontal ? width : height, count = horizontal ? height : width
        let smear = max(1, count * 15 / 1000)
        let margin = max(1, length * 4 / 100)
        // smear: the maximum over ±smear across the line direction, by doubling windows
        var smeared = dark
        var reach = 0   // smeared[i] = max over i−reach … i+reach
        while reach < smear {
            let step = min(reach + 1, smear - reach)
            let previous = smeared
            previous.withUnsafeBufferPointer { src in
                smeared.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        for x in 0..<width {
                            let i = horizontal ? y : x
                            var m = src[y * width + x]
                            if i >= step {
                                let v = horizontal ? src[(y - step) * width + x] : src[y * width + x - step]
                                if v > m { m = v }
                            }
                            if i + step < count {
                                let v = horizontal ? src[(y + step) * width + x] : src[y * width + x + step]
                                if v > m { m = v }
                            }
                            dst[y * width + x] = m
                        }
                    }
                }
            }
            reach += step
        }
        var level = [Double](repeating: 0, count: count)
        var fullLength = [Double](repeating: 0, count: count)   // 10th percentile
        var histogram = [Int](repeating: 0, count: 256)
        let n = length - 2 * margin
        smeared.withUnsafeBufferPointer { sm in
            for i in 0..<count {
                for b in 0..<256 { histogram[b] = 0 }
                for k in margin..<(length - margin) {
                    histogram[Int(sm[horizontal ? i * width + k : k * width + i])] += 1
                }
                // 30th percentile: 70 % of the row is at least this dark; 10th: 90 %
                var seen = 0, p10 = -1, p30 = 0
                for b in 0..<256 {
                    seen += histogram[b]
                    if p10 < 0 && seen * 10 >= n { p10 = b }
                    if seen * 10 >= n * 3 { p30 = b; break }
                }
                level[i] = Double(p30)
                fullLength[i] = Double(max(0, p10))
            }
        }
        let strongest = level.max() ?? 0
        guard strongest >= floor else { return [] }
        let threshold = max(floor, 0.25 * strongest)
        var result: [(position: Double, strong: Bool, width: Int)] = []
        var i = 0
        while i < count {
            guard level[i] >= threshold else { i += 1; continue }
            var j = i
            while j + 1 < count && level[j + 1] >= threshold { j += 1 }
            let top = level[i...j].max()!
            let core = (i...j).filter { level[$0] >= top - 0.1 * top }
            result.append((Double(core.first! + core.last!) / 2, fullLength[i...j].max()! >= threshold,
                           max(1, j - i + 1 - 2 * smear)))
            i = j + 1
        }
        return result
    }
}
