public import ImagingCore

/// Lines looked for along the rows and columns of a straightened image and its ink: how
/// much of a stretch is inked near a place, and whether the ink there is a drawn line —
/// darker than the paper on both sides of it — or the edge of a dark area (a desk past a
/// sheet's edge, a shadow), dark on one side only.
public struct DrawnLines {
    /// The straightened image.
    public let gray: GrayImage
    /// Its ink.
    public let ink: BinaryImage
    /// How far either side of a place a line's ink may lie, pixels (its width and blur).
    public let reach: Int

    /// Lines of `gray`, whose ink is `ink`, within `reach` pixels of where they are looked for.
    public init(gray: GrayImage, ink: BinaryImage, reach: Int) {
        self.gray = gray
        self.ink = ink
        self.reach = reach
    }

    /// The share of `a…b` inked within `within` (default `reach`) of `position`: down the
    /// column `position` when `vertical`, else along the row.
    public func inkedShare(at position: Double, vertical: Bool, from a: Double, to b: Double, within: Int? = nil) -> Double {
        let c = Int(position.rounded()), r = within ?? reach
        let lo = Int(min(a, b).rounded()), hi = Int(max(a, b).rounded())
        guard hi > lo else { return 0 }
        var inked = 0
        for t in lo..<hi where (c - r...c + r).contains(where: { k in vertical ? ink.isInk(k, t) : ink.isInk(t, k) }) {
            inked += 1
        }
        return Double(inked) / Double(hi - lo)
    }

    /// The mean grey over `a…b` of the darkest pixel within `within` of `position` (down a
    /// column when `vertical`); pixels outside the image are skipped.
    public func meanDarkest(at position: Double, vertical: Bool, from a: Double, to b: Double, within: Int) -> Double {
        let c = Int(position.rounded()), lo = Int(min(a, b).rounded()), hi = Int(max(a, b).rounded())
        var sum = 0.0, count = 0
        for t in lo..<hi {
            let values = (c - within...c + within).compactMap { k -> UInt8? in
                let (x, y) = vertical ? (k, t) : (t, k)
                return x >= 0 && y >= 0 && x < gray.width && y < gray.height ? gray[x, y] : nil
            }
            if let darkest = values.min() { sum += Double(darkest); count += 1 }
        }
        return count > 0 ? sum / Double(count) : 0
    }

    /// Whether a drawn line runs over `a…b` at `position`: inked over `least` of it, and
    /// darker by `contrastPercent` than the grey on both sides just past its reach
    /// (`2 × reach + 1` away).
    public func isLine(at position: Double, vertical: Bool, from a: Double, to b: Double, inked least: Double,
                       contrastPercent: Double) -> Bool {
        guard inkedShare(at: position, vertical: vertical, from: a, to: b) >= least else { return false }
        let line = meanDarkest(at: position, vertical: vertical, from: a, to: b, within: reach)
        let beside = Double(2 * reach + 1)
        return [-beside, beside].allSatisfy { offset in
            line < meanDarkest(at: position + offset, vertical: vertical, from: a, to: b, within: 0) * (1 - contrastPercent / 100)
        }
    }
}
