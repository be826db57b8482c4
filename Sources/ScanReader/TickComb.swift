import DocumentImaging

/// A comb whose places are parted by ticks: a box with short separators standing on one
/// long side (the line written on) and reaching only part of the way across. No ruling
/// line spans the box, so no ruling is found in it; read as one field, its empty places
/// vanish from the text and its ticks read as 1s.
///
/// Each tick is a stroke rising from the frame's line: its reach, measured column by
/// column as the run of ink from the line's middle inward, is a share of the box's height
/// no line's own width or digit's foot reaches. The ticks must fall evenly, every one
/// present, on a division of the frame into places no narrower than `narrowestPlace` and
/// no wider than `widestPlace` of the box's height (their pitch may change smoothly along
/// the comb, `quadraticFit`), alike in reach and thin, with no finer division's ticks left
/// over, and with as many places as can be so divided.
enum TickComb {
    /// A tick reaches at least this share of the way across the box from its line; a
    /// frame's line, a speck or a digit's foot sitting on the line do not.
    static let shortestTick = 0.2
    /// A tick stops short of the opposite side: it reaches under this share of the way
    /// across (a line drawn across is a divider, found as a ruling line or not at all).
    static let longestTick = 0.8
    /// Ticks of one comb are printed alike: the shortest reaches at least this share of
    /// the longest (a digit's stroke sitting on the line reaches as far as the digit).
    static let tickLikeness = 0.75
    /// A tick lies within this share of the pitch of the smooth progression through the
    /// comb's ends and ticks (`quadraticFit`): printed ticks fall evenly along the comb,
    /// their pitch changing smoothly where the straightening left some perspective (a quad
    /// a little off the frame) or the sheet curls; strokes of digits written in a plain box
    /// fall so only by chance.
    static let tickTolerance = 0.1
    /// A tick is paired with a division's place end within this share of its pitch, before
    /// the progression is fitted (a quarter: the next end is a pitch away).
    static let pairingTolerance = 0.25
    /// Ink within this share of the box's height of its ends is the ends' own lines.
    static let endZone = 0.1
    /// A tick is a line, not a glyph: no wider than this share of the pitch.
    static let widestTick = 0.15
    /// A comb's place is at least this share of the box's height wide…
    static let narrowestPlace = 0.4
    /// …and at most this share.
    static let widestPlace = 2.0
    /// At least this many places (three ticks): one place more than a comb of boxes
    /// (`CellLattice.shortestComb`) needs, as a tick is less of a line than a divider (two
    /// digits' strokes on the line may fall where a division of three puts its ticks).
    static let fewestPlaces = CellLattice.shortestComb + 1
    /// The ink a tick's run may skip (pixels): a pixel the threshold lost.
    static let runGap = 1
    /// Columns standing out this close to each other (a share of the box's height) are one
    /// stroke: a slanting digit's stroke on the line passes the reach bar unevenly.
    static let strokeGap = 0.05

    /// A stroke standing on a frame's line: where its middle lies along the line, how wide
    /// it is and how far it reaches across (pixels).
    struct Tick {
        let middle: Double
        let width: Double
        let reach: Double
    }

    /// The comb's ruling in a straightened box's ink (`binary`, with the `lines` found in
    /// it): its two long sides and its places' ends, and the clockwise quarter turns that
    /// bring the side its ticks stand on to the bottom (ticks rise from the line written
    /// on, so a comb whose ticks hang from its top is upside down). nil when no long side
    /// carries ticks dividing the box evenly; the frame's four lines must have been found
    /// near the borders.
    static func ruling(in binary: BinaryImage, lines: FoundLines) -> (ruling: Ruling, upright: Int)? {
        let horizontal = binary.width >= binary.height
        let sides = horizontal ? lines.rows : lines.columns
        let ends = horizontal ? lines.columns : lines.rows
        let across = Double(horizontal ? binary.height : binary.width)
        let along = Double(horizontal ? binary.width : binary.height)
        let zone = Layout.lineTolerance * across
        guard let near = sides.first, let far = sides.last, near < zone, far > across - 1 - zone,
              let start = ends.first, let end = ends.last, start < zone, end > along - 1 - zone else { return nil }
        let isInk: (Int, Int) -> Bool = horizontal ? { binary.isInk($0, $1) } : { binary.isInk($1, $0) }
        // the far side is the bottom (horizontal) or the right (upright): a clockwise
        // quarter turn brings the right to the bottom, three the left
        let farTurns = horizontal ? 0 : 1, nearTurns = horizontal ? 2 : 3
        var best: (places: [Double], upright: Int)? = nil
        for (line, inward, upright) in [(far, -1, farTurns), (near, 1, nearTurns)] {
            let ticks = standing(on: line, inward: inward, span: far - near, from: start, to: end, isInk: isInk)
            if let places = evenPlaces(ticks, from: start, to: end, height: far - near),
               places.count > (best?.places.count ?? 0) { best = (places, upright) }
        }
        guard let (places, upright) = best else { return nil }
        let ruling = horizontal ? Ruling(rows: [near, far], columns: places) : Ruling(rows: places, columns: [near, far])
        return (ruling, upright)
    }

    /// The strokes standing on the line at `line` (across position) and running `inward`
    /// (+1 or −1) between the ends `from` and `to` (along): runs of columns whose reach is
    /// at least `shortestTick` of `span` while under `longestTick` of it, away from the
    /// ends' own lines.
    static func standing(on line: Double, inward: Int, span: Double, from: Double, to: Double,
                         isInk: (Int, Int) -> Bool) -> [Tick] {
        let y0 = Int(line.rounded())
        let limit = Int(span)
        // each column's reach: the run of ink from the line's middle inward
        func reach(_ x: Int) -> Int {
            var gap = 0, last = 0
            for d in 0...limit {
                if isInk(x, y0 + inward * d) { last = d; gap = 0 } else {
                    gap += 1
                    if gap > runGap { break }
                }
            }
            return last
        }
        let x0 = Int(from.rounded(.up)) + 1, x1 = Int(to.rounded(.down)) - 1
        guard x1 > x0 else { return [] }
        let reaches = (x0...x1).map(reach)
        let least = shortestTick * span
        var runs: [Tick] = []
        let gap = max(1, Int(strokeGap * span))
        var k = 0
        while k < reaches.count {
            guard Double(reaches[k]) >= least else { k += 1; continue }
            // columns reaching far enough, under `gap` apart (a slanting stroke's columns
            // pass the bar unevenly): one stroke
            var e = k
            while e + 1 < reaches.count,
                  let next = (e + 1...min(reaches.count - 1, e + gap)).first(where: { Double(reaches[$0]) >= least }) {
                e = next
            }
            let longest = Double(reaches[k...e].max()!)
            if longest < longestTick * span {
                runs.append(Tick(middle: Double(x0 + k + x0 + e) / 2, width: Double(e - k + 1), reach: longest))
            }
            k = e + 1
        }
        // the columns at the ends are the frame's own lines
        return runs.filter { $0.middle - from > endZone * span && to - $0.middle > endZone * span }
    }

    /// The places' ends (`from`, the ticks, `to`) of the most places whose even division
    /// of `from…to` pairs a tick with every inner end (within `pairingTolerance` of the
    /// pitch), the ends then lying on a smooth progression (`tickTolerance`), no tick wider
    /// than `widestTick` of the pitch, the ticks alike in reach (`tickLikeness`) and fewer
    /// ticks like them left over than half the places; nil when none does.
    static func evenPlaces(_ ticks: [Tick], from: Double, to: Double, height: Double) -> [Double]? {
        let length = to - from
        guard length > 0, height > 0 else { return nil }
        let most = Int(length / (narrowestPlace * height))
        guard most >= fewestPlaces else { return nil }
        for n in stride(from: most, through: fewestPlaces, by: -1) {
            let pitch = length / Double(n)
            guard pitch <= widestPlace * height else { break }
            var matched: [Tick] = []
            for k in 1..<n {
                let want = from + Double(k) * pitch
                guard let tick = ticks.min(by: { abs($0.middle - want) < abs($1.middle - want) }),
                      abs(tick.middle - want) <= pairingTolerance * pitch, tick.width <= widestTick * pitch else { break }
                matched.append(tick)
            }
            guard matched.count == n - 1, let shortest = matched.map(\.reach).min(),
                  let longest = matched.map(\.reach).max(), shortest >= tickLikeness * longest else { continue }
            // the ends as a smooth progression: each within `tickTolerance` of a pitch of
            // the quadratic through them all
            let ends = [from] + matched.map(\.middle) + [to]
            guard let fitted = quadraticFit(ends),
                  zip(ends, fitted).allSatisfy({ abs($0 - $1) <= tickTolerance * pitch }) else { continue }
            // ticks like these standing between them, as many as half the places, say the
            // places are finer than this division (one of the finer division's ticks was
            // lost); one or two are digits' strokes on the line
            let alike = tickLikeness * shortest...longest / tickLikeness
            let leftOver = ticks.filter { t in
                alike.contains(t.reach) && t.width <= widestTick * pitch && !matched.contains { $0.middle == t.middle }
            }
            guard 2 * leftOver.count < n else { continue }
            return ends
        }
        return nil
    }

    /// The least-squares quadratic through `values` taken at 0, 1, 2, …: its value at each
    /// (the ends of evenly pitched places seen through a little perspective lie on a
    /// smooth progression). nil for fewer than three values.
    static func quadraticFit(_ values: [Double]) -> [Double]? {
        guard values.count >= 3 else { return nil }
        let terms = values.indices.map { k in [1, Double(k), Double(k * k)] }
        guard let c = LinearSystem.leastSquares(terms, values) else { return nil }
        return terms.map { t in zip(t, c).reduce(0) { $0 + $1.0 * $1.1 } }
    }
}
