/// An 8-bit grayscale raster, row-major, one byte per pixel, no padding.
///
/// The currency between the stages: the decoder produces one, the geometry stage reads
/// and warps them, the debug renderer draws on copies. A value type: copies share
/// storage until written (copy-on-write through `[UInt8]`).
public struct GrayImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` bytes, row by row; 0 is black, 255 white.
    public var pixels: [UInt8]

    /// Wraps existing pixels.
    /// - Precondition: `pixels.count == width * height`, both sides ≥ 0.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative size \(width)x\(height)")
        precondition(pixels.count == width * height,
                     "\(pixels.count) pixels for a \(width)x\(height) image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one value.
    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height,
                  pixels: [UInt8](repeating: fill, count: width * height))
    }

    /// The pixel at column `x`, row `y`.
    /// - Precondition: the point lies inside the image.
    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height,
                         "pixel (\(x), \(y)) outside \(width)x\(height)")
            return pixels[y * width + x]
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height,
                         "pixel (\(x), \(y)) outside \(width)x\(height)")
            pixels[y * width + x] = newValue
        }
    }

    /// The image shrunk by an integer factor, each output pixel the mean of a
    /// `factor × factor` block (partial blocks at the right and bottom edges averaged
    /// over what they hold). Complexity: O(width × height).
    public func reduced(by factor: Int) -> GrayImage {
        precondition(factor >= 1, "reduction factor \(factor) must be ≥ 1")
        if factor == 1 { return self }
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: w * h)
        var columnSums = [UInt32](repeating: 0, count: width)   // 32-bit: vectorizes
        let width = self.width, height = self.height
        pixels.withUnsafeBufferPointer { srcBuffer in
            columnSums.withUnsafeMutableBufferPointer { sumBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    let src = srcBuffer.baseAddress!, sums = sumBuffer.baseAddress!, dst = outBuffer.baseAddress!
                    for oy in 0..<h {
                        let y0 = oy * factor, y1 = min(y0 + factor, height)
                        sums.update(repeating: 0, count: width)
                        for y in y0..<y1 {
                            let row = src + y * width
                            for x in 0..<width { sums[x] &+= UInt32(row[x]) }
                        }
                        // whole blocks share one divisor: a shift when it is a power of two
                        // (the usual halving), else a multiply by its inverse (exact for
                        // blocks under 10 000 pixels: the quotient's fraction is a multiple
                        // of 1/n, far above Float's rounding error), so no integer division
                        let n = UInt32((y1 - y0) * factor)
                        var full = width / factor
                        let row = dst + oy * w
                        if n & (n - 1) == 0 {
                            let shift = UInt32(n.trailingZeroBitCount)
                            if factor == 2 {
                                for ox in 0..<full { row[ox] = UInt8(truncatingIfNeeded: (sums[2 * ox] &+ sums[2 * ox + 1] &+ n / 2) &>> shift) }
                            } else {
                                for ox in 0..<full {
                                    var sum: UInt32 = 0
                                    for x in (ox * factor)..<(ox * factor + factor) { sum &+= sums[x] }
                                    row[ox] = UInt8(truncatingIfNeeded: (sum &+ n / 2) &>> shift)
                                }
                            }
                        } else if n < 10_000 {
                            let inverse = 1 / Float(n)
                            for ox in 0..<full {
                                var sum: UInt32 = 0
                                for x in (ox * factor)..<(ox * factor + factor) { sum &+= sums[x] }
                                row[ox] = UInt8(Float(sum &+ n / 2) * inverse + 1e-4)
                            }
                        } else {
                            full = 0
                        }
                        for ox in full..<w {   // a narrower last block, or very large blocks
                            let x0 = ox * factor, x1 = min(x0 + factor, width)
                            var sum: UInt32 = 0
                            for x in x0..<x1 { sum &+= sums[x] }
                            let m = UInt32((y1 - y0) * (x1 - x0))
                            dst[oy * w + ox] = UInt8((sum + m / 2) / m)
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}

extension GrayImage {
    /// The image shrunk by an integer factor, each output pixel the darkest of its
    /// `factor × factor` block (partial blocks at the edges over what they hold). A dark
    /// line one pixel wide keeps its full darkness at any reduction, where a mean would
    /// fade it to 1/factor of its contrast. Complexity: O(width × height).
    public func reducedKeepingDarkest(by factor: Int) -> GrayImage {
        precondition(factor >= 1, "reduction factor \(factor) must be ≥ 1")
        if factor == 1 { return self }
        let w = (width + factor - 1) / factor, h = (height + factor - 1) / factor
        var out = [UInt8](repeating: 255, count: w * h)
        var columnMinima = [UInt8](repeating: 255, count: width)
        let width = self.width, height = self.height
        pixels.withUnsafeBufferPointer { srcBuffer in
            columnMinima.withUnsafeMutableBufferPointer { minBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    let src = srcBuffer.baseAddress!, mins = minBuffer.baseAddress!, dst = outBuffer.baseAddress!
                    for oy in 0..<h {
                        // the darkest of the block's rows, column by column (vectorizes)
                        let y0 = oy * factor, y1 = min(y0 + factor, height)
                        mins.update(from: src + y0 * width, count: width)
                        for y in (y0 + 1)..<max(y0 + 1, y1) {
                            let row = src + y * width
                            for x in 0..<width { mins[x] = Swift.min(mins[x], row[x]) }
                        }
                        let row = dst + oy * w
                        for ox in 0..<w {
                            let x0 = ox * factor, x1 = Swift.min(x0 + factor, width)
                            var darkest = mins[x0]
                            for x in (x0 + 1)..<max(x0 + 1, x1) { darkest = Swift.min(darkest, mins[x]) }
                            row[ox] = darkest
                        }
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }
}

/// Percentiles of byte values by counting (O(n), no sorting).
public struct ByteHistogram: Sendable {
    /// Count per value.
    public var counts: [Int] { bins }
    /// Number of values added.
    public var total: Int { added }
    // stored for `add`, which is inlined into callers' pixel loops
    @usableFromInline var bins = [Int](repeating: 0, count: 256)
    @usableFromInline var added = 0

    /// An empty histogram.
    public init() {}

    /// A histogram of `values`.
    public init(_ values: [UInt8]) {
        values.withUnsafeBufferPointer { buffer in
            for v in buffer { bins[Int(v)] += 1 }
        }
        added = values.count
    }

    /// Counts one value.
    @inlinable
    public mutating func add(_ v: UInt8) { bins[Int(v)] += 1; added += 1 }

    /// The smallest value v such that at least `fraction` of the values are ≤ v
    /// (255 when empty).
    public func percentile(_ fraction: Double) -> UInt8 {
        guard total > 0 else { return 255 }
        let target = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for v in 0..<256 {
            seen += bins[v]
            if seen >= target { return UInt8(v) }
        }
        return 255
    }
}
