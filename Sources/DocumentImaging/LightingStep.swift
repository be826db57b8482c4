public import ImagingCore

extension GrayImage {
    /// Whether the dark band along a ruling line is the dark side of a lighting step (a
    /// hard shadow's edge, the rim of the sheet below) rather than a drawn line: across
    /// the line, the mean brightness of `span` (the line's extent) is profiled `reach`
    /// pixels either side of `position`; a line is darker than the paper on both sides,
    /// a step's shaded side is about as dark as the band itself (`shadeShare` of the
    /// light side's contrast). `horizontal` lines run along rows (`position` is a y).
    /// Complexity: O(reach × span).
    public func isLightingStep(at position: Double, horizontal: Bool, span: Range<Int>, reach: Int) -> Bool {
        let across = horizontal ? height : width
        let centre = Int(position.rounded())
        let lo = max(0, centre - reach), hi = min(across - 1, centre + reach)
        let along = span.clamped(to: 0..<(horizontal ? width : height))
        guard hi - lo >= 4, !along.isEmpty else { return false }
        // mean brightness of each row (column) across the line
        var profile: [Double] = []
        for o in lo...hi {
            var sum = 0
            for t in along { sum += Int(horizontal ? self[t, o] : self[o, t]) }
            profile.append(Double(sum) / Double(along.count))
        }
        func mean(_ r: ClosedRange<Int>) -> Double? {
            let r = r.clamped(to: lo...hi)
            guard !r.isEmpty else { return nil }
            return r.map { profile[$0 - lo] }.reduce(0, +) / Double(r.count)
        }
        // the band: the darkest lane within a third of the reach; the sides: the outer half
        // of the reach on each side
        let inner = max(1, reach / 3), outer = max(1, reach / 2)
        guard let band = (max(lo, centre - inner)...min(hi, centre + inner)).map({ profile[$0 - lo] }).min(),
              let before = mean((centre - reach)...(centre - outer)),
              let after = mean((centre + outer)...(centre + reach)) else { return false }
        let light = max(before, after), dark = min(before, after)
        return light - band > 0 && dark - band < Self.shadeShare * (light - band)
    }

    /// A band is the dark side of a lighting edge when the paper on its darker side is
    /// within this share of the light side's contrast of the band's own brightness: a
    /// line has light paper on both sides.
    public static let shadeShare = 0.35
}
