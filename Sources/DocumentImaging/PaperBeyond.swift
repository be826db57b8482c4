public import ImagingCore

/// Whether paper lies past a quad's side: a frame or a box drawn on a sheet has paper
/// beyond its line; a sheet's own edge has the desk (or whatever it lies on) beyond it.
public enum PaperBeyond {
    /// The points sampled along a side, over its middle `sampledShare` (its ends meet the
    /// neighbouring sides), as `InnerPaperEdge` samples a side.
    public static let samples = 15
    /// See `samples`.
    public static let sampledShare = 0.8

    /// True when `image` past the side from `a` to `b` of a quad around `centre` is darker
    /// than the paper inside it by `contrastPercent`: the brighter of the medians at the
    /// depths `outside` (in `unit`s out from the side) against the brighter of those at the
    /// depths `inside` (in), each over `samples` points along the side. nil when no depth
    /// either way has two thirds of its points in the image (a side the photo's frame cuts).
    public static func isOffPaper(side a: Point, _ b: Point, centre: Point, unit: Double, outside: [Double],
                                  inside: [Double], contrastPercent: Double, in image: GrayImage) -> Bool? {
        let length = Polygon.distance(a, b)
        guard length > 0 else { return nil }
        let direction = Point((b.x - a.x) / length, (b.y - a.y) / length)
        // the normal pointing away from the quad's centre, whichever way the quad runs
        var normal = FlatZones.outwardNormal(direction)
        let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
        if normal.x * (centre.x - mid.x) + normal.y * (centre.y - mid.y) > 0 { normal = Point(-normal.x, -normal.y) }
        // the median grey `depth` units out from the side (negative: in); nil when under
        // two thirds of its points lie in the photo
        func level(_ depth: Double) -> Double? {
            let values = (0..<samples).compactMap { k -> Double? in
                let share = (1 - sampledShare) / 2 + sampledShare * (Double(k) + 0.5) / Double(samples)
                return FlatZones.grey(image, from: a, along: direction, normal: normal, at: share * length, offset: depth * unit)
            }
            guard values.count * 3 >= samples * 2 else { return nil }
            return values.sorted()[values.count / 2]
        }
        guard let outerLevel = outside.compactMap({ level($0) }).max(),
              let paper = inside.compactMap({ level(-$0) }).max() else { return nil }
        return outerLevel < paper * (1 - contrastPercent / 100)
    }
}
