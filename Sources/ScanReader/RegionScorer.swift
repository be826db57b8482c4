import ImagingCore

/// How one truth region fared.
public struct RegionOutcome: Sendable, Equatable {
    /// Index of the result region it was matched to, if any.
    public var matched: Int?
    /// Largest corner distance over the truth quad's mean side (0 for pages), when matched.
    public var cornerError: Double?
    /// The matched region's reading equals the truth.
    public var exact: Bool
    /// Digits in the truth.
    public var digits: Int
    /// Of those, digits read right (per cell for grids read with the right lattice, else
    /// the longest common subsequence of the digit strings).
    public var digitsRight: Int
}

/// How one photo fared against its truth.
public struct PhotoScore: Sendable, Equatable {
    /// The photo's truth.
    public var truth: PhotoTruth
    /// The reader's orientation is the one that makes the regions read upright
    /// (`PhotoTruth.readingOrientations`: either of two for a document on a diagonal).
    public var orientationRight: Bool
    /// One outcome per truth region, in truth order.
    public var regions: [RegionOutcome]
    /// Result regions holding digits that match no truth region.
    public var extraRegions: Int
    /// The reader failed on the file (status "error").
    public var failed: Bool

    /// Truth regions not read exactly, plus extra regions: how bad the photo went.
    public var badness: Int { regions.filter { !$0.exact }.count + extraRegions }
}

/// Scores a reading against region truth: regions found (corners within a tolerance of
/// the region's size), read exactly, digits right, extra regions, orientation.
///
/// Corners, read and true, are pixel-centre coordinates: (0, 0) is the middle of the
/// top-left pixel. They are compared in the truth's upright frame: when the reader chose
/// another orientation its corners are carried back through the stored pixels, so a region
/// found but read sideways still counts as found (and not as read). The four corners are
/// compared up to a cyclic shift: which corner is "top-left" of a document turned
/// upside down in an upright photo is the reader's choice.
public enum RegionScorer {
    /// The default corner tolerance: 5 % of the region's mean side.
    public static let defaultTolerance = 0.05

    /// Scores `result` against `truth`.
    /// - Parameter tolerance: largest corner distance, as a fraction of the truth
    ///   region's mean side, for a region to count as found.
    /// Complexity: O(t × r) for t truth and r result regions, plus the digit alignments.
    public static func score(_ result: ScanResult, against truth: PhotoTruth,
                             tolerance: Double = defaultTolerance) -> PhotoScore {
        let failed = result.status != "ok"
        let readOrientation = result.orientation ?? 1
        let corners = result.regions.map { region in
            region.corners.map { toTruthFrame(($0[0], $0[1]), result: result, truth: truth) }
        }
        // every acceptable (truth, result) pair, best first; then one-to-one
        var pairs: [(t: Int, r: Int, error: Double)] = []
        for (t, region) in truth.regions.enumerated() {
            for (r, read) in result.regions.enumerated() where (region.kind == "page") == (read.kind == "page") {
                let error = region.kind == "page" ? 0 : cornerError(truth: region.corners.map { ($0[0], $0[1]) },
                                                                    read: corners[r])
                if error <= tolerance { pairs.append((t, r, error)) }
            }
        }
        pairs.sort { $0.error < $1.error }
        var truthTaken = [Int?](repeating: nil, count: truth.regions.count)
        var errors = [Double?](repeating: nil, count: truth.regions.count)
        var resultTaken = Set<Int>()
        for p in pairs where truthTaken[p.t] == nil && !resultTaken.contains(p.r) {
            truthTaken[p.t] = p.r; errors[p.t] = p.error; resultTaken.insert(p.r)
        }
        let outcomes = truth.regions.enumerated().map { t, region in
            outcome(region, read: truthTaken[t].map { result.regions[$0] }, index: truthTaken[t], error: errors[t])
        }
        let extra = result.regions.enumerated().filter { r, region in
            !resultTaken.contains(r) && region.text.contains(where: \.isNumber)
        }.count
        return PhotoScore(truth: truth, orientationRight: !failed && truth.readingOrientations.contains(readOrientation),
                          regions: outcomes, extraRegions: extra, failed: failed)
    }

    /// A result point (the reader's upright frame) in the truth's upright frame.
    static func toTruthFrame(_ p: (Double, Double), result: ScanResult, truth: PhotoTruth) -> (Double, Double) {
        let read = ExifOrientation(rawValue: result.orientation ?? 1) ?? .up
        let want = ExifOrientation(rawValue: truth.orientation) ?? .up
        guard read != want, let w = result.width, let h = result.height else { return p }
        let (sw, sh) = read.swapsAxes ? (Double(h), Double(w)) : (Double(w), Double(h))
        // corners are pixel centres, the turns map pixel edges: a pixel's centre lies half
        // a pixel in from its top-left edge
        let stored = read.storedPoint(of: (p.0 + 0.5, p.1 + 0.5), storedWidth: sw, storedHeight: sh)
        let q = want.displayedPoint(ofStored: stored, storedWidth: sw, storedHeight: sh)
        return (q.x - 0.5, q.y - 0.5)
    }

    /// The largest corner distance over the truth quad's mean side, at the best cyclic
    /// shift of the read corners.
    static func cornerError(truth: [(Double, Double)], read: [(Double, Double)]) -> Double {
        guard truth.count == 4, read.count == 4 else { return .infinity }
        func dist(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
            ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
        }
        let side = (0..<4).map { dist(truth[$0], truth[($0 + 1) % 4]) }.reduce(0, +) / 4
        guard side > 0 else { return .infinity }
        let best = (0..<4).map { shift in (0..<4).map { dist(truth[$0], read[($0 + shift) % 4]) }.max()! }.min()!
        return best / side
    }

    static func outcome(_ truth: RegionTruth, read: RegionResult?, index: Int?, error: Double?) -> RegionOutcome {
        let truthCells = truth.cells ?? []
        let digits = truth.cells != nil
            ? truthCells.reduce(0) { $0 + $1.filter(\.isNumber).count }
            : truth.text.filter(\.isNumber).count
        guard let read else { return RegionOutcome(matched: nil, cornerError: nil, exact: false, digits: digits, digitsRight: 0) }
        if let cells = truth.cells, let grid = read.grid, grid.rows == truth.rows, grid.cols == truth.cols,
           grid.cells.count == cells.count {
            var right = 0, exact = true
            for (t, r) in zip(cells, grid.cells) {
                let want = t == "?" ? "" : t
                if r.text != want { exact = false }
                right += t.allSatisfy(\.isNumber) ? commonSubsequence(Array(t), Array(r.text)) : 0
            }
            return RegionOutcome(matched: index, cornerError: error, exact: exact, digits: digits, digitsRight: right)
        }
        // a field, or a grid read with another lattice: compare the digit sequences
        let want = truth.cells.map { $0.filter { $0 != "?" }.joined() } ?? truth.text
        let got = read.text.filter { $0 != "." }
        let wantDigits = Array(want.filter(\.isNumber))
        return RegionOutcome(matched: index, cornerError: error, exact: got == want, digits: digits,
                             digitsRight: commonSubsequence(wantDigits, Array(got)))
    }

    /// Length of the longest common subsequence. Complexity: O(a × b).
    static func commonSubsequence(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return 0 }
        var previous = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var row = [0]
            row.reserveCapacity(b.count + 1)
            for (j, y) in b.enumerated() { row.append(x == y ? previous[j] + 1 : max(previous[j + 1], row[j])) }
            previous = row
        }
        return previous[b.count]
    }
}
