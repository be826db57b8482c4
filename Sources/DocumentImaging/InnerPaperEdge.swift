public import ImagingCore

/// The edge of a sheet lying on other paper, seen inside a straightened region whose
/// outline is the paper below (a note on a pile of sheets, a sheet on another a little
/// larger): going in from a side, the paper below, then the upper sheet's edge — a dark
/// line, its shadow on the paper below — then the upper sheet. A region's own edge on a
/// desk has no paper outside the dip and is no such edge.
public enum InnerPaperEdge {
    /// Positions sampled along each side, over its middle `sampledShare`.
    static let samples = 15
    /// The middle share of a side that is sampled (its ends meet the neighbouring sides).
    static let sampledShare = 0.8
    /// The share of the samples that must find the edge, on one straight line.
    static let agreeingShare = 2.0 / 3.0

    /// For each side of `gray` (top, right, bottom, left), where a paper edge runs inside
    /// it, as its distance in from that side at the side's start and at its end (top and
    /// bottom run left to right, left and right top to bottom), pixels; nil where none
    /// does. The edge is looked for up to `depthShare` of the region across the side,
    /// as a dip darker by `contrastPercent` of the paper level than both the paper inside
    /// it and the paper between it and the side. Complexity: O(samples × depth × band).
    public static func sides(of gray: GrayImage, depthShare: Double, contrastPercent: Double) -> [(start: Double, end: Double)?] {
        let (w, h) = (gray.width, gray.height)
        return (0..<4).map { side in
            let horizontal = side == 0 || side == 2      // the side runs along x
            let length = horizontal ? w : h, across = horizontal ? h : w
            // the value at `d` pixels in from the side, `t` along it
            func value(_ t: Int, _ d: Int) -> Int {
                switch side {
                case 0: return Int(gray[t, d])
                case 1: return Int(gray[w - 1 - d, t])
                case 2: return Int(gray[t, h - 1 - d])
                default: return Int(gray[d, t])
                }
            }
            let depth = Int(depthShare * Double(across))
            let innerSpan = max(2, depth / 2)
            guard depth >= 3, depth + innerSpan < across, length >= samples else { return nil }
            let band = max(1, length / (2 * samples))
            var found: [(t: Double, d: Double)] = []
            for k in 0..<samples {
                let centre = Int((1 - sampledShare) / 2 * Double(length) + sampledShare * Double(length) * (Double(k) + 0.5) / Double(samples))
                let lo = max(0, centre - band / 2), hi = min(length, lo + band)
                let profile = (0..<(depth + innerSpan)).map { d in
                    Double((lo..<hi).reduce(0) { $0 + value($1, d) }) / Double(hi - lo)
                }
                guard let dip = (1..<depth).min(by: { profile[$0] < profile[$1] }) else { continue }
                let inner = profile[(dip + 1)...(dip + innerSpan)].max()!
                let outer = profile[0..<dip].max()!
                let step = contrastPercent / 100 * inner
                if inner - profile[dip] >= step, outer - profile[dip] >= step {
                    found.append((Double(centre) + 0.5, Double(dip) + 0.5))
                }
            }
            let needed = Int((agreeingShare * Double(samples)).rounded(.up))
            guard found.count >= needed, var line = fit(found) else { return nil }
            // points off the first fit (a digit near the edge) dropped, the rest fitted again
            let kept = found.filter { abs($0.d - (line.a + line.b * $0.t)) <= max(1.5, 0.01 * Double(length)) }
            guard kept.count >= needed, let again = fit(kept) else { return nil }
            line = again
            return (line.a, line.a + line.b * Double(length))
        }
    }

    /// The least-squares line d = a + b·t through `points`; nil when they share one t.
    /// Offsets are measured across the side, so they are fitted as a function of the
    /// position along it (`Line(fitting:)` fits the principal axis instead).
    static func fit(_ points: [(t: Double, d: Double)]) -> (a: Double, b: Double)? {
        let n = Double(points.count)
        let st = points.reduce(0) { $0 + $1.t }, sd = points.reduce(0) { $0 + $1.d }
        let stt = points.reduce(0) { $0 + $1.t * $1.t }, std = points.reduce(0) { $0 + $1.t * $1.d }
        let denominator = n * stt - st * st
        guard abs(denominator) > 1e-9 else { return nil }
        let b = (n * std - st * sd) / denominator
        return ((sd - b * st) / n, b)
    }
}
