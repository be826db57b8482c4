public import ImagingCore

/// Where a grid's frame runs in a region straightened from an outline that is not the
/// frame: the edge of a shadow or of the sheet below, a corner found on the page's curve.
/// The straight ruling then sits askew on the grid, up to a cell off at one end, which
/// `BentRuling` does not reach (it follows bends of part of a cell).
///
/// Each side of the frame is looked for from outside: at points a third of a cell apart
/// along it, the first line met walking in from the region's edge — a lane inked over
/// most of `runShare` of a cell along the side, no thicker than `widestLine` of a cell (a
/// thicker inked band is a shadow or the sheet below, and is walked past), and darker in
/// the grey image than the paper on both sides of it by `lineContrast` of its depth (the
/// ink a threshold leaves along a shadow's edge has the shade's level on its outer side:
/// an edge, not a line). In a thicker band the frame is its dark core, when it has one
/// (the threshold joins a frame to the shade beside it). The side is the line most of
/// those points agree with (within `offLine` of a cell: where the frame is broken the
/// next ruling line is met instead), fitted to them by total least squares; each corner
/// is where two sides meet.
public enum FrameFit {
    /// The stretch along a side, as a share of the cell pitch, that must be inked (90 %)
    /// for a lane to be a line there: longer than a digit's bar, shorter than a cell.
    public static let runShare = 0.8
    /// A line is at most this share of the cell pitch thick: a puzzle's frame is about a
    /// tenth of a cell, twice that blurred (`BentRuling.widestLine`), with room for a
    /// frame heavier than its box lines.
    public static let widestLine = 0.25
    /// A point more than this share of the cell pitch off the fitted side is another
    /// line's or a stroke's.
    public static let offLine = 0.08
    /// A side is fitted only through at least this share of its points.
    public static let fewestPoints = 1.0 / 3
    /// How far past the ruling's outer line a side is looked for, in cells: the frame may
    /// lie a cell inside where the straight ruling puts it at one end.
    public static let reach = 1.2
    /// A line is darker than the grey on each side of it by at least this share of its
    /// depth below the brighter side (and by `leastContrast` levels).
    public static let lineContrast = 0.3
    /// The fewest grey levels a line is darker than each side of it.
    public static let leastContrast = 10

    /// The frame's corners (top-left, top-right, bottom-right, bottom-left) in `ink`'s
    /// pixels (`gray`'s threshold), `ruling` being the straight ruling found in it; nil
    /// when a side is not found along enough of its length. `margin`: how many pixels of
    /// the images lie outside the region on each side (straightened with it, so that a
    /// line along the region's edge has paper or shade beside it to be told by); the walk
    /// in starts at the region's edge.
    public static func corners(of ruling: Ruling, in ink: BinaryImage, gray: GrayImage, margin: Int = 0) -> [Point]? {
        let pitch = BentRuling.pitch(of: ruling)
        guard pitch >= 8, ruling.rowCount >= 1, ruling.columnCount >= 1 else { return nil }
        let drift = 2
        let rowLanes = BentRuling.Lanes(ink, horizontal: true, drift: drift)
        let columnLanes = BentRuling.Lanes(ink, horizontal: false, drift: drift)
        // top, right, bottom, left: lanes, where the side lies, which way is inward
        let sides: [(lanes: BentRuling.Lanes, at: Double, along: [Double], inward: Int, horizontal: Bool)] = [
            (rowLanes, ruling.rows.first!, ruling.columns, 1, true),
            (columnLanes, ruling.columns.last!, ruling.rows, -1, false),
            (rowLanes, ruling.rows.last!, ruling.columns, -1, true),
            (columnLanes, ruling.columns.first!, ruling.rows, 1, false),
        ]
        var lines: [Line] = []
        for side in sides {
            guard let line = fitSide(side.lanes, gray: gray, at: side.at, along: side.along, inward: side.inward,
                                     horizontal: side.horizontal, pitch: pitch, drift: drift, margin: margin) else { return nil }
            lines.append(line)
        }
        var corners: [Point] = []
        for k in 0..<4 {
            // top-left = left ∩ top, top-right = top ∩ right …
            guard let p = lines[(k + 3) % 4].intersection(lines[k]) else { return nil }
            corners.append(p)
        }
        return corners
    }

    /// One side's line (in image coordinates), or nil.
    static func fitSide(_ lanes: BentRuling.Lanes, gray: GrayImage, at position: Double, along: [Double], inward: Int,
                        horizontal: Bool, pitch: Double, drift: Int, margin: Int) -> Line? {
        let run = max(4, Int(runShare * pitch)), needed = run * 9 / 10
        let thickest = Int(widestLine * pitch) + 2 * drift
        // walk from the region's edge (the outside) to `reach` cells past the ruling's line
        let edge = inward > 0 ? margin : lanes.count - 1 - margin
        let limit = Int((position + Double(inward) * reach * pitch).rounded())
        let steps = max(0, (limit - edge) * inward)
        func isLine(_ lane: Int, _ u: Int) -> Bool { lanes.inkedCount(lane, u - run / 2, u + run - run / 2) >= needed }
        // the mean grey of lanes lo…hi over the run at u (nil: none of it in the image)
        func grey(_ lo: Int, _ hi: Int, _ u: Int) -> Int? {
            let first = max(0, min(lo, hi)), last = min(lanes.count - 1, max(lo, hi))
            guard first <= last else { return nil }
            var total = 0, n = 0
            for lane in first...last {
                for t in max(0, u - run / 2)..<min(lanes.length, u + run - run / 2) {
                    total += Int(horizontal ? gray[t, lane] : gray[lane, t]); n += 1
                }
            }
            return n > 0 ? total / n : nil
        }
        // darker than the paper on both sides: a line, not the inked rim of a shade
        func isDarkLine(from first: Int, to last: Int, _ u: Int) -> Bool {
            let gap = drift + 2
            guard let line = grey(first + inward * drift, last - inward * drift, u) else { return false }
            // outside: as much of the strip beyond it as the image holds (none when the
            // line runs along the image's edge)
            let imageEdge = inward > 0 ? 0 : lanes.count - 1
            let outside = first == imageEdge ? nil
                : grey(first - inward * (gap + 2), first - inward * min(gap, abs(first - imageEdge)), u)
            let sides = [outside, grey(last + inward * gap, last + inward * (gap + 2), u)].compactMap { $0 }
            guard let bright = sides.max() else { return false }
            return sides.allSatisfy { $0 - line >= max(leastContrast, Int(lineContrast * Double(bright - line))) }
        }
        // within a band first…last (first the outer end): the lanes darker than halfway
        // from its darkest lane to the lighter of its outer end (the shade) and the paper
        // inside it, around the darkest, when they are a line's width
        func darkCore(from first: Int, to last: Int, _ u: Int) -> (Int, Int)? {
            let band = stride(from: first, through: last, by: inward).map { ($0, grey($0, $0, u) ?? 255) }
            guard let darkest = band.min(by: { $0.1 < $1.1 }),
                  let inside = grey(last + inward * (drift + 2), last + inward * (drift + 4), u) else { return nil }
            let cut = darkest.1 + (min(inside, band[0].1) - darkest.1) / 2
            guard let at = band.firstIndex(where: { $0.0 == darkest.0 }) else { return nil }
            var lo = at, hi = at
            while lo > 0 && band[lo - 1].1 <= cut { lo -= 1 }
            while hi < band.count - 1 && band[hi + 1].1 <= cut { hi += 1 }
            guard hi - lo + 1 <= Int(widestLine * pitch) else { return nil }
            return (band[lo].0, band[hi].0)
        }
        var points: [Point] = [], tried = 0
        var u = along.first! + pitch / 2
        while u <= along.last! - pitch / 2 {
            defer { u += pitch / 3 }
            tried += 1
            let at = Int(u.rounded())
            var k = 0
            while k <= steps {
                let lane = edge + inward * k
                guard isLine(lane, at) else { k += 1; continue }
                var thick = 1
                while k + thick <= steps && isLine(edge + inward * (k + thick), at) { thick += 1 }
                var (first, last) = (lane, edge + inward * (k + thick - 1))
                if thick > thickest {
                    // a band: a shade, or a frame the threshold joined to the shade beside
                    // it — then the frame is the band's dark core
                    guard let core = darkCore(from: first, to: last, at) else { k += thick; continue }
                    (first, last) = core
                }
                guard isDarkLine(from: first, to: last, at) else { k += thick; continue }
                let middle = Double(first + last) / 2
                points.append(horizontal ? Point(u, middle) : Point(middle, u))
                break
            }
        }
        let band = max(1.5, offLine * pitch)
        guard tried > 0, Double(points.count) >= fewestPoints * Double(tried),
              let line = LineFit.consensusLine(points, band: band),
              Double(points.filter({ line.distance($0) <= band }).count) >= fewestPoints * Double(tried) else { return nil }
        return line
    }
}
