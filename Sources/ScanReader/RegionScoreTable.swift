import Foundation

/// Tallies of region scores over a group of photos (all, one document type, one condition).
public struct RegionTally: Sendable, Equatable {
    /// Photos in the group.
    public var photos = 0
    /// Photos the reader failed on.
    public var failed = 0
    /// Truth regions.
    public var regions = 0
    /// Truth regions found (corners within tolerance).
    public var found = 0
    /// Truth regions read exactly.
    public var exact = 0
    /// Truth digits, and those read right.
    public var digits = 0, digitsRight = 0
    /// Photos with at least one result region holding digits that is not in the truth.
    public var photosWithExtra = 0
    /// Photos whose orientation the reader got right.
    public var orientationRight = 0

    /// An empty tally.
    public init() {}

    /// Adds one photo's score.
    public mutating func add(_ s: PhotoScore) {
        photos += 1
        failed += s.failed ? 1 : 0
        regions += s.regions.count
        found += s.regions.filter { $0.matched != nil }.count
        exact += s.regions.filter(\.exact).count
        digits += s.regions.reduce(0) { $0 + $1.digits }
        digitsRight += s.regions.reduce(0) { $0 + $1.digitsRight }
        photosWithExtra += s.extraRegions > 0 ? 1 : 0
        orientationRight += s.orientationRight ? 1 : 0
    }
}

/// The per-type and per-condition table `scanreader eval` prints for region truth.
public struct RegionScoreTable: Sendable {
    /// Every photo's score, in truth order.
    public private(set) var scores: [PhotoScore] = []

    /// An empty table.
    public init() {}

    /// Adds a photo.
    public mutating func add(_ score: PhotoScore) { scores.append(score) }

    /// The tally of all photos.
    public var total: RegionTally { tally { _ in true } }

    /// The tally of the photos satisfying `include`.
    public func tally(_ include: (PhotoTruth) -> Bool) -> RegionTally {
        var t = RegionTally()
        for s in scores where include(s.truth) { t.add(s) }
        return t
    }

    /// Markdown: one row for all photos, one per document type and per variant within
    /// it, one per condition (a photo counts in every condition it has), sorted by name.
    public func markdown() -> String {
        var lines = ["| photos | n | regions found | read exactly | digits right | photos with an extra region | orientation right |",
                     "|---|---|---|---|---|---|---|"]
        func row(_ name: String, _ t: RegionTally) {
            func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "–" : String(format: "%.1f %%", Double(a) / Double(b) * 100) }
            lines.append("| \(name) | \(t.photos) | \(pct(t.found, t.regions)) (\(t.found)/\(t.regions)) | "
                         + "\(pct(t.exact, t.regions)) | \(pct(t.digitsRight, t.digits)) | "
                         + "\(pct(t.photosWithExtra, t.photos)) | \(pct(t.orientationRight, t.photos)) |")
        }
        row("**all**", total)
        let types = Set(scores.compactMap(\.truth.type)).sorted()
        for type in types {
            row("type: **\(type)**", tally { $0.type == type })
            let variants = Set(scores.filter { $0.truth.type == type }.flatMap { $0.truth.variants ?? [] }).sorted()
            for variant in variants {
                row("\(type) / \(variant)", tally { $0.type == type && ($0.variants ?? []).contains(variant) })
            }
        }
        let conditions = Set(scores.flatMap { $0.truth.conditions ?? [] }).sorted()
        for condition in conditions { row(condition, tally { $0.conditions?.contains(condition) ?? false }) }
        return lines.joined(separator: "\n")
    }
}
