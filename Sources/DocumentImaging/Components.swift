/// An axis-aligned box in pixels: x, y of the top-left, width, height.
public struct PixelBox: Sendable, Equatable, Hashable {
    /// Geometry.
    public var x, y, width, height: Int
    /// Makes a box.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// One past the right and bottom edges.
    public var maxX: Int { x + width }
    /// One past the bottom edge.
    public var maxY: Int { y + height }
    /// True when the two boxes share a pixel.
    public func overlaps(_ o: PixelBox) -> Bool {
        x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }
    /// True when every pixel of `o` lies in this box grown by `margin` pixels on each side.
    public func contains(_ o: PixelBox, margin: Int = 0) -> Bool {
        o.x >= x - margin && o.y >= y - margin && o.maxX <= maxX + margin && o.maxY <= maxY + margin
    }
    /// True when `o` lies in this box and this box is larger: `o` grown into it.
    public func strictlyContains(_ o: PixelBox) -> Bool {
        contains(o) && self != o
    }
    /// The smallest box holding both.
    public func union(_ o: PixelBox) -> PixelBox {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelBox(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }
}

/// A connected set of ink pixels.
public struct Component: Sendable {
    /// Bounding box.
    public var box: PixelBox
    /// Number of pixels.
    public var area: Int
    /// Label in the label image (1-based).
    public let label: Int32
}

/// Connected ink components (8-connected) of a binary image region.
public struct ComponentMap: Sendable {
    /// Labels, row-major over `region` (0 = paper).
    public let labels: [Int32]
    /// The region of the binary image that was labelled.
    public let region: PixelBox
    /// Components, indexed by label − 1.
    public let components: [Component]

    /// Labels the ink inside `region` of `binary` by two-pass union–find.
    /// Complexity: O(region area · α).
    public init(_ binary: BinaryImage, region: PixelBox) {
        let w = region.width, h = region.height
        var labels = [Int32](repeating: 0, count: w * h)
        var parent: [Int32] = [0]
        func find(_ a: Int32) -> Int32 {
            var a = a
            while parent[Int(a)] != a { parent[Int(a)] = parent[Int(parent[Int(a)])]; a = parent[Int(a)] }
            return a
        }
        // (the bits and labels read through pointers, the four neighbours merged in turn
        // without building an array per ink pixel: the loops run per pixel)
        binary.bits.withUnsafeBufferPointer { bits in
            labels.withUnsafeMutableBufferPointer { labels in
                for y in 0..<h {
                    let row = bits.baseAddress! + (region.y + y) * binary.width + region.x
                    let here = labels.baseAddress! + y * w, above = y > 0 ? here - w : here   // read only when y > 0
                    for x in 0..<w where row[x] != 0 {
                        // already-labelled 8-neighbours: west, north-west, north, north-east
                        var root: Int32 = 0
                        func merge(_ l: Int32) {
                            guard l != 0 else { return }
                            let r = find(l)
                            if root == 0 { root = r } else if r != root {
                                let (keep, drop) = r < root ? (r, root) : (root, r)
                                parent[Int(drop)] = keep
                                root = keep
                            }
                        }
                        merge(x > 0 ? here[x - 1] : 0)
                        merge(x > 0 && y > 0 ? above[x - 1] : 0)
                        merge(y > 0 ? above[x] : 0)
                        merge(x + 1 < w && y > 0 ? above[x + 1] : 0)
                        if root == 0 {
                            root = Int32(parent.count)
                            parent.append(root)
                        }
                        here[x] = root
                    }
                }
            }
        }
        var compact = [Int32](repeating: 0, count: parent.count)
        var boxes: [(Int, Int, Int, Int, Int)] = []   // minX, minY, maxX, maxY, area
        for y in 0..<h {
            for x in 0..<w where labels[y * w + x] != 0 {
                let i = y * w + x
                let root = find(labels[i])
                if compact[Int(root)] == 0 {
                    boxes.append((Int.max, Int.max, -1, -1, 0))
                    compact[Int(root)] = Int32(boxes.count)
                }
                let l = compact[Int(root)]
                labels[i] = l
                var b = boxes[Int(l) - 1]
                b = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y), b.4 + 1)
                boxes[Int(l) - 1] = b
            }
        }
        self.labels = labels
        self.region = region
        components = boxes.enumerated().map { i, b in
            Component(box: PixelBox(x: b.0 + region.x, y: b.1 + region.y, width: b.2 - b.0 + 1, height: b.3 - b.1 + 1),
                      area: b.4, label: Int32(i + 1))
        }
    }

    /// A lookup table for `belongs(_:_:to:)`: true at the chosen labels.
    public func mask(of set: Set<Int32>) -> [Bool] {
        var mask = [Bool](repeating: false, count: components.count + 1)
        for l in set where Int(l) < mask.count { mask[Int(l)] = true }
        return mask
    }

    /// Whether pixel (x, y) (binary-image coordinates) belongs to a label marked in `mask`.
    public func belongs(_ x: Int, _ y: Int, to mask: [Bool]) -> Bool {
        let lx = x - region.x, ly = y - region.y
        guard lx >= 0, ly >= 0, lx < region.width, ly < region.height else { return false }
        return mask[Int(labels[ly * region.width + lx])]
    }
}
