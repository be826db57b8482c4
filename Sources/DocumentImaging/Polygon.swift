import Foundation

/// Polygon helpers: simplification, area, convexity.
public enum Polygon {
    /// Douglas & Peucker 1973 simplification of a closed curve: the vertices kept are
    /// within `epsilon` pixels of the curve. The curve is split at two extreme points
    /// (the farthest from the centroid, then the farthest from that), which are true
    /// vertices of any convex shape, and both halves are simplified.
    /// Complexity: O(n log n) typical, O(n²) worst.
    public static func simplified(closed input: [Point], epsilon: Double) -> [Point] {
        guard input.count > 3 else { return input }
        let centre = Point.centroid(of: input)
        let (cx, cy) = (centre.x, centre.y)
        let extreme = input.indices.max {
            squaredDistance(input[$0], Point(cx, cy)) < squaredDistance(input[$1], Point(cx, cy))
        }!
        let points = Array(input[extreme...] + input[..<extreme])
        var far = 0, farDistance = -1.0
        for (i, p) in points.enumerated() {
            let d = squaredDistance(p, points[0])
            if d > farDistance { farDistance = d; far = i }
        }
        let first = simplifyOpen(Array(points[0...far]), epsilon: epsilon)
        let second = simplifyOpen(Array(points[far...]) + [points[0]], epsilon: epsilon)
        return Array(first.dropLast()) + Array(second.dropLast())
    }

    private static func simplifyOpen(_ points: [Point], epsilon: Double) -> [Point] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true; keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (a, b) = stack.popLast() {
            var index = -1, worst = epsilon
            for i in (a + 1)..<b {
                let d = distance(points[i], toLineThrough: points[a], points[b])
                if d > worst { worst = d; index = i }
            }
            if index >= 0 {
                keep[index] = true
                if index - a > 1 { stack.append((a, index)) }
                if b - index > 1 { stack.append((index, b)) }
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Convex hull, clockwise on screen (y down), by Andrew's monotone chain (1979).
    /// Complexity: O(n log n); O(n + x range) for pixel coordinates (a traced border).
    public static func convexHull(_ input: [Point]) -> [Point] {
        let p = columnExtremes(input) ?? {
            let sorted = input.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
            var unique: [Point] = []
            unique.reserveCapacity(sorted.count)
            for q in sorted where unique.last != q { unique.append(q) }   // duplicates are adjacent once sorted
            return unique
        }()
        guard p.count > 2 else { return p }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Point] = [], upper: [Point] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// For points on integer x not spread much wider than their number: the topmost and
    /// bottommost point of each column, sorted by (x, y), without sorting. Only those can
    /// be hull corners. nil when the points do not qualify.
    static func columnExtremes(_ input: [Point]) -> [Point]? {
        guard let first = input.first else { return nil }
        var lo = first.x, hi = first.x
        for q in input {
            guard q.x == q.x.rounded() else { return nil }
            lo = min(lo, q.x); hi = max(hi, q.x)
        }
        let span = Int(hi - lo) + 1
        guard span <= 2 * input.count + 64 else { return nil }
        var top = [Double](repeating: .infinity, count: span), bottom = [Double](repeating: -.infinity, count: span)
        for q in input {
            let i = Int(q.x - lo)
            top[i] = min(top[i], q.y); bottom[i] = max(bottom[i], q.y)
        }
        var out: [Point] = []
        out.reserveCapacity(2 * span)
        for i in 0..<span where top[i] <= bottom[i] {
            out.append(Point(lo + Double(i), top[i]))
            if bottom[i] != top[i] { out.append(Point(lo + Double(i), bottom[i])) }
        }
        return out
    }

    /// Signed area (shoelace): positive when the vertices run clockwise on screen (y down).
    public static func signedArea(_ p: [Point]) -> Double {
        var s = 0.0
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    /// How far (degrees) the outline turns at each vertex of a closed convex polygon:
    /// 180° less the interior angle; a straight vertex turns 0°.
    public static func turns(_ p: [Point]) -> [Double] {
        p.indices.map { i in
            let a = p[(i + p.count - 1) % p.count], b = p[i], c = p[(i + 1) % p.count]
            let incoming = atan2(b.y - a.y, b.x - a.x), outgoing = atan2(c.y - b.y, c.x - b.x)
            var turn = abs(outgoing - incoming) * 180 / .pi
            if turn > 180 { turn = 360 - turn }
            return turn
        }
    }

    /// A convex polygon with its bends straightened: the vertices where it turns by less
    /// than `bend` degrees dropped, when between the two vertices kept on either side the
    /// dropped ones turn by less than `bend` in all (a side bent a little, as along a
    /// curled page, not a gradual arc). nil when an arc turns further or fewer than three
    /// vertices remain.
    public static func straighteningBends(_ p: [Point], bend: Double) -> [Point]? {
        let turns = turns(p)
        let kept = p.indices.filter { turns[$0] >= bend }
        guard kept.count >= 3 else { return nil }
        for (k, start) in kept.enumerated() {
            let end = kept[(k + 1) % kept.count]
            var total = 0.0, i = (start + 1) % p.count
            while i != end { total += turns[i]; i = (i + 1) % p.count }
            if total >= bend { return nil }
        }
        return kept.map { p[$0] }
    }

    /// Whether the polygon is strictly convex (all turns the same way, none straight).
    public static func isConvex(_ p: [Point]) -> Bool {
        guard p.count >= 3 else { return false }
        var sign = 0.0
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count], c = p[(i + 2) % p.count]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if abs(cross) < 1e-9 { return false }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Euclidean distance.
    public static func distance(_ a: Point, _ b: Point) -> Double {
        squaredDistance(a, b).squareRoot()
    }

    static func squaredDistance(_ a: Point, _ b: Point) -> Double {
        (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)
    }

    /// Distance from `p` to the infinite line through `a` and `b` (to `a` if they coincide).
    static func distance(_ p: Point, toLineThrough a: Point, _ b: Point) -> Double {
        let len = distance(a, b)
        if len < 1e-12 { return distance(p, a) }
        return abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / len
    }
}

extension Polygon {
    /// A closed border with its thin spikes cut off: wherever the border leaves a point
    /// and comes back within `neck` pixels of it after a detour longer than 4 × neck
    /// (a fold line or a stroke touching a frame, traced out and back), the detour is
    /// replaced by the straight step between its ends. Detours longer than half the
    /// border are the shape itself and stay.
    /// Complexity: O(n · k), k the points within `neck` of a point.
    public static func removingSpikes(_ points: [Point], neck: Double) -> [Point] {
        let n = points.count
        let minimumDetour = max(8, Int(4 * neck))
        guard n > 2 * minimumDetour, neck > 0 else { return points }
        // points bucketed in neck-sized cells (counting sort: offsets, then indices)
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        let columns = Int((x1 - x0) / neck) + 1, rows = Int((y1 - y0) / neck) + 1
        let cellOf = points.map { Int(($0.y - y0) / neck) * columns + Int(($0.x - x0) / neck) }
        var start = [Int](repeating: 0, count: columns * rows + 1)
        for c in cellOf { start[c + 1] += 1 }
        for c in 0..<(columns * rows) { start[c + 1] += start[c] }
        var fill = start, members = [Int](repeating: 0, count: n)
        for (i, c) in cellOf.enumerated() { members[fill[c]] = i; fill[c] += 1 }
        let neck2 = neck * neck
        // a pass cannot cut a spike it starts inside: try two starts half a border
        // apart and keep the result with fewer points
        // (the buckets and points read through pointers: the loop below runs per border point)
        func pass(from first: Int, _ points: UnsafeBufferPointer<Point>, _ cellOf: UnsafeBufferPointer<Int>,
                  _ start: UnsafeBufferPointer<Int>, _ members: UnsafeBufferPointer<Int>) -> [Point] {
            var kept: [Point] = []
            var k = 0
            while k < n {
                let i = first + k < n ? first + k : first + k - n
                kept.append(points[i])
                let cx = cellOf[i] % columns, cy = cellOf[i] / columns
                var jump = 0
                for yy in max(0, cy - 1)...min(rows - 1, cy + 1) {
                    for xx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                        let c = yy * columns + xx
                        for m in start[c]..<start[c + 1] {
                            let j = members[m]
                            let ahead = j >= i ? j - i : j - i + n   // (j − i) mod n
                            guard ahead > minimumDetour, ahead < n / 2, k + ahead < n, ahead > jump,
                                  squaredDistance(points[i], points[j]) <= neck2 else { continue }
                            jump = ahead
                        }
                    }
                }
                k += max(1, jump)
            }
            return kept
        }
        let (a, b) = points.withUnsafeBufferPointer { points in
            cellOf.withUnsafeBufferPointer { cellOf in
                start.withUnsafeBufferPointer { start in
                    members.withUnsafeBufferPointer { members in
                        (pass(from: 0, points, cellOf, start, members), pass(from: n / 2, points, cellOf, start, members))
                    }
                }
            }
        }
        return a.count <= b.count ? a : b
    }
}
