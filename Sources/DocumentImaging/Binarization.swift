public import ImagingCore

/// A two-level image: 1 = ink (foreground), 0 = paper. Row-major, one byte per pixel.
public struct BinaryImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height` values, each 0 or 1.
    public var bits: [UInt8]

    /// Wraps bits. - Precondition: `bits.count == width * height`.
    public init(width: Int, height: Int, bits: [UInt8]) {
        precondition(bits.count == width * height, "\(bits.count) bits for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bits = bits
    }

    /// Whether (x, y) is ink; outside the image is paper.
    @inlinable public func isInk(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height && bits[y * width + x] != 0
    }
}

extension BinaryImage {
    /// The image rotated clockwise by `quarterTurns` × 90°, as `GrayImage.rotated` turns
    /// the picture it came from.
    public func rotated(quarterTurns: Int) -> BinaryImage {
        let turned = GrayImage(width: width, height: height, pixels: bits).rotated(quarterTurns: quarterTurns)
        return BinaryImage(width: turned.width, height: turned.height, bits: turned.pixels)
    }

    /// The bits column by column (`height` values per column): the transposed image's bits.
    public func transposedBits() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let (w, h) = (width, height)
        bits.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                // in tiles, so neither side strides through memory a pixel at a time for long
                let tile = 32
                for y0 in stride(from: 0, to: h, by: tile) {
                    for x0 in stride(from: 0, to: w, by: tile) {
                        for y in y0..<min(h, y0 + tile) {
                            for x in x0..<min(w, x0 + tile) { dst[x * h + y] = src[y * w + x] }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The rectangle at (x, y) of width × height, which must lie inside the image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> BinaryImage {
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height)
        var out = [UInt8](repeating: 0, count: w * h)
        for row in 0..<h {
            out[(row * w)..<(row * w + w)] = bits[((y + row) * width + x)..<((y + row) * width + x + w)]
        }
        return BinaryImage(width: w, height: h, bits: out)
    }

    /// Ink grown by one pixel in all 8 directions (3×3 dilation): closes one-pixel
    /// breaks in faint ruling lines. Complexity: O(width × height).
    public func dilated() -> BinaryImage {
        let w = width, h = height
        var across = [UInt8](repeating: 0, count: w * h)   // max over x-1…x+1
        var out = [UInt8](repeating: 0, count: w * h)
        guard w > 0, h > 0 else { return self }
        // edge pixels apart, so the inner loops have no conditions and vectorize
        bits.withUnsafeBufferPointer { src in
            across.withUnsafeMutableBufferPointer { mid in
                for y in 0..<h {
                    let s = src.baseAddress! + y * w, m = mid.baseAddress! + y * w
                    if w == 1 { m[0] = s[0]; continue }
                    m[0] = s[0] | s[1]
                    for x in 1..<(w - 1) { m[x] = s[x - 1] | s[x] | s[x + 1] }
                    m[w - 1] = s[w - 2] | s[w - 1]
                }
            }
            across.withUnsafeBufferPointer { mid in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<h {
                        let m = mid.baseAddress! + y * w, d = dst.baseAddress! + y * w
                        let above = y > 0 ? m - w : m, below = y + 1 < h ? m + w : m
                        for x in 0..<w { d[x] = above[x] | m[x] | below[x] }
                    }
                }
            }
        }
        return BinaryImage(width: w, height: h, bits: out)
    }
}

/// How to decide ink from paper.
public enum BinarizationMethod: Sendable, Equatable {
    /// Bradley & Roth 2007 ("Adaptive thresholding using the integral image"): a pixel
    /// is ink when darker than its `window`-wide neighbourhood mean by `percent` %.
    /// Survives uneven light and shadows. `window` ≤ 0 picks 1/16 of the longer side.
    case localMean(window: Int = 0, percent: Double = 12)
    /// Sauvola & Pietikäinen 2000: T = m · (1 + k · (s / 128 − 1)) over a `window`,
    /// mean m and standard deviation s from integral images.
    case sauvola(window: Int = 0, k: Double = 0.2)
    /// Otsu 1979: one global threshold maximising between-class variance.
    case otsu
    /// A pixel is ink when darker by `percent` % than the paper around it, the paper
    /// being the closing over `window × window` squares (`closed(width:height:)`) of the
    /// image halved (2 × 2 means, its pixel noise halved): strokes narrower than the
    /// window are filled with the paper's level, and a shadow's edge keeps its step —
    /// where a local mean, raised by the light side within its window, makes a band along
    /// the edge's dark side ink. The closing sits above the paper's mean by some of its
    /// noise, so on grainy paper this alone takes more specks for ink than `localMean`.
    /// `window` ≤ 0 picks 1/16 of the longer side.
    case belowClosing(window: Int = 0, percent: Double = 15)
}

extension GrayImage {
    /// The image thresholded and inverted: dark ink becomes 1.
    /// Complexity: O(width × height) for every method (integral images, running extremes).
    public func binarized(_ method: BinarizationMethod = .localMean()) -> BinaryImage {
        switch method {
        case .otsu: return thresholded(below: otsuThreshold())
        case let .localMean(window, percent):
            // v · n · 100 < sum · (100 − percent)
            return localMeanBinarizations(window: window, percents: [percent])[0]
        case let .belowClosing(window, percent):
            let size = windowSize(window)
            let half = reduced(by: 2)
            let paper = half.closed(width: max(1, size / 2), height: max(1, size / 2))
            let factor = 1 - percent / 100
            var bits = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                let py = min(paper.height - 1, y / 2)
                for x in 0..<width {
                    let level = Double(paper.pixels[py * paper.width + min(paper.width - 1, x / 2)])
                    bits[y * width + x] = Double(pixels[y * width + x]) < level * factor ? 1 : 0
                }
            }
            return BinaryImage(width: width, height: height, bits: bits)
        case let .sauvola(window, k):
            return adaptive(window: window, needsSquares: true) { sum, squares, n, v in
                let m = Double(sum) / Double(n)
                let variance = max(0, Double(squares) / Double(n) - m * m)
                return Double(v) < m * (1 + k * (variance.squareRoot() / 128 - 1))
            }
        }
    }

    /// Bradley local-mean thresholds at several `percents` from one integral image (the
    /// detector's default and sensitive passes share it). Same results as
    /// `binarized(.localMean(window:percent:))` for each percent.
    public func localMeanBinarizations(window: Int, percents: [Double]) -> [BinaryImage] {
        let w = width, h = height
        let size = windowSize(window)
        let r = size / 2, stride = w + 1
        var integral = [Int32](repeating: 0, count: stride * (h + 1))
        var outputs = percents.map { _ in [UInt8](repeating: 0, count: w * h) }
        let factors = percents.map { 100 - $0 }
        // per column: the window's left and right edges (clipped) and its width
        let edges = (0..<w).map { max(0, $0 - r) } + (0..<w).map { min(w, $0 + r + 1) }   // lefts, then rights
        let widths = (0..<w).map { Double(edges[w + $0] - edges[$0]) }
        // the row's window sums, then each pixel × window area × 100
        var rowSums = [Double](repeating: 0, count: 2 * w)
        pixels.withUnsafeBufferPointer { src in
            integral.withUnsafeMutableBufferPointer { ii in
                for y in 0..<h {
                    var row: Int32 = 0
                    let above = ii.baseAddress! + y * stride + 1, here = above + stride, line = src.baseAddress! + y * w
                    for x in 0..<w {
                        row &+= Int32(line[x])
                        here[x] = above[x] &+ row
                    }
                }
                edges.withUnsafeBufferPointer { edges in
                    widths.withUnsafeBufferPointer { widths in
                        rowSums.withUnsafeMutableBufferPointer { rowSums in
                            let lefts = edges.baseAddress!, rights = lefts + w
                            let sums = rowSums.baseAddress!, scaled = sums + w
                            for y in 0..<h {
                                let y0 = max(0, y - r), y1 = min(h, y + r + 1), rows = Double(y1 - y0)
                                let top = ii.baseAddress! + y0 * stride, bottom = ii.baseAddress! + y1 * stride
                                let line = src.baseAddress! + y * w
                                // the window sums and each pixel × window area × 100 along the
                                // row, then one comparison per percent: loops without branches
                                for x in 0..<w {
                                    let x0 = lefts[x], x1 = rights[x]
                                    sums[x] = Double(bottom[x1] &- top[x1] &- bottom[x0] &+ top[x0])
                                    scaled[x] = Double(line[x]) * widths[x] * rows * 100
                                }
                                for k in factors.indices {
                                    let factor = factors[k]
                                    outputs[k].withUnsafeMutableBufferPointer { out in
                                        let o = out.baseAddress! + y * w
                                        for x in 0..<w { o[x] = scaled[x] < sums[x] * factor ? 1 : 0 }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return outputs.map { BinaryImage(width: w, height: h, bits: $0) }
    }

    /// A local method's window: `window` when positive, else 1/16 of the longer side (at
    /// least 15 pixels).
    private func windowSize(_ window: Int) -> Int {
        window > 0 ? window : max(15, max(width, height) / 16)
    }

    /// Otsu's threshold: the grey level t maximising the between-class variance of
    /// {< t} and {≥ t}.
    public func otsuThreshold() -> UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        for v in pixels { histogram[Int(v)] += 1 }
        let total = Double(pixels.count)
        let sumAll = (0..<256).reduce(0.0) { $0 + Double($1 * histogram[$1]) }
        var best = 0.0, threshold = 0, weightBelow = 0.0, sumBelow = 0.0
        for t in 1..<256 {
            weightBelow += Double(histogram[t - 1])
            sumBelow += Double((t - 1) * histogram[t - 1])
            let weightAbove = total - weightBelow
            if weightBelow == 0 || weightAbove == 0 { continue }
            let meanBelow = sumBelow / weightBelow, meanAbove = (sumAll - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t }
        }
        return UInt8(threshold)
    }

    private func thresholded(below t: UInt8) -> BinaryImage {
        BinaryImage(width: width, height: height, bits: pixels.map { $0 < t ? 1 : 0 })
    }

    /// Runs `isInk(sum, sumOfSquares, count, value)` over a clipped square window
    /// around each pixel, sums from integral images.
    private func adaptive(window: Int, needsSquares: Bool, _ isInk: (Int, Int, Int, UInt8) -> Bool) -> BinaryImage {
        let w = width, h = height
        let size = windowSize(window)
        let r = size / 2
        let stride = w + 1
        var integral = [Int](repeating: 0, count: stride * (h + 1))
        var squares = [Int](repeating: 0, count: needsSquares ? stride * (h + 1) : stride)
        var bits = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            integral.withUnsafeMutableBufferPointer { ii in
                squares.withUnsafeMutableBufferPointer { sq in
                    for y in 0..<h {
                        var row = 0, rowSq = 0
                        for x in 0..<w {
                            let v = Int(src[y * w + x])
                            row += v
                            ii[(y + 1) * stride + x + 1] = ii[y * stride + x + 1] + row
                            if needsSquares {
                                rowSq += v * v
                                sq[(y + 1) * stride + x + 1] = sq[y * stride + x + 1] + rowSq
                            }
                        }
                    }
                }
            }
            integral.withUnsafeBufferPointer { ii in
                squares.withUnsafeBufferPointer { sq in
                    for y in 0..<h {
                        let y0 = max(0, y - r), y1 = min(h, y + r + 1)
                        for x in 0..<w {
                            let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                            let n = (x1 - x0) * (y1 - y0)
                            let s = ii[y1 * stride + x1] - ii[y0 * stride + x1] - ii[y1 * stride + x0] + ii[y0 * stride + x0]
                            let q = needsSquares
                                ? sq[y1 * stride + x1] - sq[y0 * stride + x1] - sq[y1 * stride + x0] + sq[y0 * stride + x0] : 0
                            if isInk(s, q, n, src[y * w + x]) { bits[y * w + x] = 1 }
                        }
                    }
                }
            }
        }
        return BinaryImage(width: w, height: h, bits: bits)
    }
}

extension GrayImage {
    /// Ink measured against the paper (see `darkness(blocks:)`): darker than it by
    /// `fraction` of the image's contrast (the darkness's 99th percentile), and by at
    /// least 8 levels. `aboveNoise`: also darker than the paper's own noise reaches
    /// (`paperNoiseFloor`; on a noisy blank sheet the contrast is the noise's, and a
    /// fraction of it makes half the paper ink). Pass `darkness` when already computed.
    public func binarizedAgainstPaper(fraction: Double = 0.15, darkness given: [UInt8]? = nil,
                                      aboveNoise: Bool = false) -> BinaryImage {
        let d = given ?? darkness()
        let histogram = ByteHistogram(d)
        let contrast = Double(histogram.percentile(0.99))
        let floor = aboveNoise ? Self.paperNoiseFloor(histogram) : 0
        let threshold = UInt8(min(255, max(8, fraction * contrast, floor)))
        return BinaryImage(width: width, height: height, bits: d.map { $0 > threshold ? 1 : 0 })
    }

    /// `ink` (a threshold of this image) where the pixel is also darker by `percent` % than
    /// the paper as a closing over `window`-pixel squares measures it
    /// (`BinarizationMethod.belowClosing`): strokes narrower than the squares stay; a
    /// shadow's edge keeps its step under a closing, so the band a local mean makes along
    /// its dark side goes.
    public func inkBelowClosing(_ ink: BinaryImage, window: Int, percent: Double) -> BinaryImage {
        let paper = binarized(.belowClosing(window: max(1, window), percent: percent))
        return BinaryImage(width: width, height: height, bits: zip(ink.bits, paper.bits).map { $0 & $1 })
    }

    /// The darkness (`darkness(blocks:)`) the paper's own noise reaches, from its
    /// histogram: twice the median darkness (most of a region is paper, and the paper
    /// level is its 90th percentile, so the median is a noise's width below it) plus 3
    /// levels. `RulingFinder.ruling(in:)` floors its grey profiles with it, the sheet pass
    /// its ink (`LineBoxes.straightenedInk`).
    public static func paperNoiseFloor(_ darkness: ByteHistogram) -> Double {
        2 * Double(darkness.percentile(0.5)) + 3
    }

    /// How much darker than the paper each pixel is (0 = paper). The paper level is
    /// the 90th percentile of each of `blocks × blocks` tiles, interpolated bilinearly:
    /// unlike a local mean it does not sink where ink is dense, so faint rulings
    /// between handwritten digits keep their contrast. Complexity: O(width × height).
    public func darkness(blocks: Int = 12) -> [UInt8] {
        let bw = max(1, (width + blocks - 1) / blocks), bh = max(1, (height + blocks - 1) / blocks)
        let nx = (width + bw - 1) / bw, ny = (height + bh - 1) / bh
        var paper = [Double](repeating: 255, count: nx * ny)
        var histogram = [Int32](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { src in
            histogram.withUnsafeMutableBufferPointer { counts in
                for by in 0..<ny {
                    for bx in 0..<nx {
                        counts.update(repeating: 0)
                        let x0 = bx * bw, x1 = min(width, (bx + 1) * bw)
                        let y0 = by * bh, y1 = min(height, (by + 1) * bh)
                        for y in y0..<y1 {
                            let line = src.baseAddress! + y * width
                            for x in x0..<x1 { counts[Int(line[x])] &+= 1 }
                        }
                        let n = (x1 - x0) * (y1 - y0)
                        var seen = 0, level = 255
                        for v in 0..<256 { seen += Int(counts[v]); if seen * 10 >= n * 9 { level = v; break } }
                        paper[by * nx + bx] = Double(level)
                    }
                }
            }
        }
        // bilinear interpolation between tile centres: the columns' tiles and weights
        // once, then per row the tiles' levels at that row, then per pixel
        // (columns' tiles: lefts, then rights; all read through pointers in the per-pixel loops)
        var tiles = [Int](repeating: 0, count: 2 * width)
        var weight = [Double](repeating: 0, count: width)
        for x in 0..<width {
            let tx = min(max((Double(x) + 0.5) / Double(bw) - 0.5, 0), Double(nx - 1))
            tiles[x] = Int(tx); tiles[width + x] = min(nx - 1, tiles[x] + 1); weight[x] = tx - Double(tiles[x])
        }
        var out = [UInt8](repeating: 0, count: width * height)
        // the tiles' levels at the row, then the paper's level at each pixel of it
        var rowLevels = [Double](repeating: 0, count: nx + width)
        out.withUnsafeMutableBufferPointer { dst in
            pixels.withUnsafeBufferPointer { src in
                tiles.withUnsafeBufferPointer { tiles in
                    weight.withUnsafeBufferPointer { weight in
                        rowLevels.withUnsafeMutableBufferPointer { rowLevels in
                            let left = tiles.baseAddress!, right = left + width
                            let level = rowLevels.baseAddress!, paperAt = level + nx
                            for y in 0..<height {
                                let ty = min(max((Double(y) + 0.5) / Double(bh) - 0.5, 0), Double(ny - 1))
                                let y0 = Int(ty), y1 = min(ny - 1, y0 + 1), fy = ty - Double(y0)
                                for bx in 0..<nx { level[bx] = paper[y0 * nx + bx] * (1 - fy) + paper[y1 * nx + bx] * fy }
                                for x in 0..<width {
                                    paperAt[x] = level[left[x]] * (1 - weight[x]) + level[right[x]] * weight[x]
                                }
                                let line = src.baseAddress! + y * width, out = dst.baseAddress! + y * width
                                for x in 0..<width { out[x] = UInt8(max(0, min(255, paperAt[x] - Double(line[x])))) }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
