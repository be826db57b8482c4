public import ImagingCore

extension RulingFinder {
    /// The ruling of a rectified region read from its grey levels.
    ///
    /// For each row (column) the darkness against the paper is smeared ±1.5 % across
    /// the line direction (to follow bent lines) and its 30th percentile along the row
    /// is taken: a ruling is dark along its whole length, so its percentile is high,
    /// while a row through digits is dark only where the digits are. Rows above a
    /// quarter of the strongest line's level, and above a floor set by the paper's noise
    /// (2 × the median darkness + 3) and the image's contrast (10 % of its 99th
    /// percentile), are lines; then the largest even division
    /// whose interior lines are all present wins (`evenDivision`).
    /// - Returns: nil when the region holds no grid.
    public static func ruling(in gray: GrayImage, maxCells: Int = 30) -> Ruling? {
        let dark = gray.darkness()
        // paper noise and the image's contrast bound what counts as a line's darkness
        var histogram = [Int](repeating: 0, count: 256)
        for v in dark { histogram[Int(v)] += 1 }
        func percentile(_ p: Int) -> Double {
            var seen = 0
            for b in 0..<256 { seen += histogram[b]; if seen * 100 >= dark.count * p { return Double(b) } }
            return 255
        }
        let floor = max(0.1 * percentile(99), 2 * percentile(50) + 3)
        let rows = profileLines(dark, width: gray.width, height: gray.height, horizontal: true, floor: floor)
        let columns = profileLines(dark, width: gray.width, height: gray.height, horizontal: false, floor: floor)
        guard let r = evenDivision(rows, length: Double(gray.height), maxCells: maxCells),
              let c = evenDivision(columns, length: Double(gray.width), maxCells: maxCells) else { return nil }
        return plausible(Ruling(rows: r, columns: c), width: gray.width, height: gray.height)
    }

    /// Line centres across one direction (see `ruling(in:)`).
    public static func profileLines(_ dark: [UInt8], width: Int, height: Int, horizontal: Bool,
                                    floor: Double = 8) -> [Double] {
        let length = horizontal ? width : height, count = horizontal ? height : width
        let smear = max(1, count * 15 / 1000)
        let margin = max(1, length * 4 / 100)
        var level = [Double](repeating: 0, count: count)
        var histogram = [Int](repeating: 0, count: 256)
        var smeared = [UInt8](repeating: 0, count: length)
        for i in 0..<count {
            for k in 0..<length { smeared[k] = 0 }
            for j in max(0, i - smear)...min(count - 1, i + smear) {
                for k in margin..<(length - margin) {
                    let v = dark[horizontal ? j * width + k : k * width + j]
                    if v > smeared[k] { smeared[k] = v }
                }
            }
            for b in 0..<256 { histogram[b] = 0 }
            for k in margin..<(length - margin) { histogram[Int(smeared[k])] += 1 }
            // 30th percentile: 70 % of the row is at least this dark
            let n = length - 2 * margin
            var seen = 0, p30 = 0
            for b in 0..<256 { seen += histogram[b]; if seen * 10 >= n * 3 { p30 = b; break } }
            level[i] = Double(p30)
        }
        let strongest = level.max() ?? 0
        guard strongest >= floor else { return [] }
        let threshold = max(floor, 0.25 * strongest)
        var result: [Double] = []
        var i = 0
        while i < count {
            guard level[i] >= threshold else { i += 1; continue }
            var j = i
            while j + 1 < count && level[j + 1] >= threshold { j += 1 }
            let top = level[i...j].max()!
            let core = (i...j).filter { level[$0] >= top - 0.1 * top }
            result.append(Double(core.first! + core.last!) / 2)
            i = j + 1
        }
        return result
    }
}
