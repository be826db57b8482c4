/// A point in image coordinates (x right, y down), pixels.
public struct Point: Sendable, Equatable, Hashable {
    /// Coordinates.
    public var x, y: Double
    /// Makes a point.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    /// The mean of `points`, summed in their order (as `map(\.x).reduce(0, +)` sums, so
    /// results are the same to the bit, without a key path's cost per call in hot loops).
    /// - Precondition: `points` is not empty. Complexity: O(n).
    static func centroid(of points: [Point]) -> Point {
        precondition(!points.isEmpty, "the centroid of no points")
        var sx = 0.0, sy = 0.0
        for p in points { sx += p.x; sy += p.y }
        let n = Double(points.count)
        return Point(sx / n, sy / n)
    }
}

/// One border of a connected component, with its place in the nesting.
public struct Contour: Sendable {
    /// Border pixels in traversal order (integral coordinates).
    public let points: [Point]
    /// True for the border of a hole (paper inside ink), false for an outer border.
    public let isHole: Bool
    /// Index of the enclosing contour in the list, nil for top-level borders.
    public let parent: Int?
}

extension BinaryImage {
    /// All borders of the ink components, 8-connected, with their hierarchy: Suzuki &
    /// Abe 1985, "Topological structural analysis of digitized binary images by border
    /// following". Complexity: O(width × height + total border length).
    public func contours() -> [Contour] {
        let w = width + 2, h = height + 2
        var f = [Int32](repeating: 0, count: w * h)
        f.withUnsafeMutableBufferPointer { f in
            bits.withUnsafeBufferPointer { bits in
                for y in 0..<height {
                    let line = bits.baseAddress! + y * width, out = f.baseAddress! + (y + 1) * w + 1
                    for x in 0..<width { out[x] = Int32(line[x]) }
                }
            }
        }
        // 8 neighbours counter-clockwise as seen on screen, starting east; `step[d]` is
        // the same move as an index offset, `dx`, `dy` as coordinates
        let dx = [1, 1, 0, -1, -1, -1, 0, 1], dy = [0, -1, -1, -1, 0, 1, 1, 1]
        let step = (0..<8).map { dy[$0] * w + dx[$0] }
        var result: [Contour] = []
        var kinds: [Bool] = [true]          // index NBD-1: isHole; NBD 1 is the frame
        var parents: [Int?] = [nil]         // index NBD-1: parent NBD-1 (frame = 0)
        var nbd: Int32 = 1
        let paperRunBytes = MemoryLayout<UInt64>.size
        step.withUnsafeBufferPointer { step in
            bits.withUnsafeBufferPointer { bits in
                f.withUnsafeMutableBufferPointer { f in
                    for y in 1..<(h - 1) {
                        var lnbd: Int32 = 1
                        // the row's bits: pixel x of f is bit x − 1; paper never changes in f, and
                        // a paper pixel starts no border and leaves `lnbd` as it is, so runs of
                        // paper are skipped a word at a time
                        let row = UnsafeRawPointer(bits.baseAddress! + (y - 1) * width)
                        var x = 1
                        while x < w - 1 {
                            if x - 1 + paperRunBytes <= width, row.loadUnaligned(fromByteOffset: x - 1, as: UInt64.self) == 0 {
                                x += paperRunBytes
                                continue
                            }
                            defer { x += 1 }
                            let p = y * w + x
                            let v = f[p]
                            if v == 0 { continue }
                            var startDir = -1, isHole = false
                            if v == 1 && f[p - 1] == 0 {
                                startDir = 4                           // came from the west
                            } else if v >= 1 && f[p + 1] == 0 {
                                startDir = 0; isHole = true            // east is paper
                                if v > 1 { lnbd = v }
                            }
                            if startDir >= 0 {
                                nbd += 1
                                let lnbdIsHole = kinds[Int(lnbd) - 1]
                                let parentIndex: Int? = (isHole == lnbdIsHole)
                                    ? parents[Int(lnbd) - 1] : Int(lnbd) - 1
                                kinds.append(isHole)
                                parents.append(parentIndex)
                                var points: [Point] = []
                                // 3.1: clockwise from the start direction for a non-zero pixel
                                var found = -1
                                for k in 0..<8 {
                                    let d = (startDir - k + 8) & 7
                                    if f[p + step[d]] != 0 { found = d; break }
                                }
                                if found < 0 {
                                    f[p] = -nbd
                                    points.append(Point(Double(x - 1), Double(y - 1)))
                                } else {
                                    var x3 = x, y3 = y, q3 = p, fromDir = found
                                    let p1 = p + step[found]
                                    while true {
                                        points.append(Point(Double(x3 - 1), Double(y3 - 1)))
                                        // 3.3: counter-clockwise from the direction after fromDir
                                        var eastExamined = false, next = -1
                                        for k in 1...8 {
                                            let d = (fromDir + k) & 7
                                            if f[q3 + step[d]] != 0 { next = d; break }
                                            if d == 0 { eastExamined = true }
                                        }
                                        if eastExamined { f[q3] = -nbd } else if f[q3] == 1 { f[q3] = nbd }
                                        let q4 = q3 + step[next]
                                        if q4 == p && q3 == p1 { break }
                                        // the pixel we came from, seen from the next one
                                        fromDir = (next + 4) & 7
                                        x3 += dx[next]; y3 += dy[next]; q3 = q4
                                    }
                                }
                                let parent = parentIndex.flatMap { $0 == 0 ? nil : $0 - 1 }
                                result.append(Contour(points: points, isHole: isHole, parent: parent))
                            }
                            let after = f[p]
                            if after != 1 { lnbd = abs(after) }
                        }
                    }
                }
            }
        }
        return result
    }
}
