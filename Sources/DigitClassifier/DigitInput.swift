/// One 28×28 classifier input: bytes, ink 255, paper 0 (MNIST's polarity).
///
/// Made by `normalized(ink:width:height:)`, the preprocessing contract that training
/// uses too (Training/preprocess.py is its Python twin; a committed fixture proves the
/// two give the same bytes).
public struct DigitInput: Sendable, Equatable {
    /// Side of the square input.
    public static let side = 28
    /// Side of the box the ink is fitted into.
    public static let fit = 20

    /// 784 bytes, row by row.
    public let pixels: [UInt8]

    /// Wraps 784 already-normalized bytes (e.g. read from an IDX file).
    /// - Precondition: `pixels.count == 784`.
    public init(normalizedPixels pixels: [UInt8]) {
        precondition(pixels.count == Self.side * Self.side, "\(pixels.count) bytes, 784 expected")
        self.pixels = pixels
    }

    /// The same input moved `dx` px right and `dy` px down, paper coming in at the edges.
    public func shifted(dx: Int, dy: Int) -> DigitInput {
        let side = Self.side
        var out = [UInt8](repeating: 0, count: side * side)
        for y in max(0, dy)..<min(side, side + dy) {
            for x in max(0, dx)..<min(side, side + dx) {
                out[y * side + x] = pixels[(y - dy) * side + (x - dx)]
            }
        }
        return DigitInput(normalizedPixels: out)
    }

    /// The contract: an ink crop becomes the model's input.
    ///
    /// 1. Bounding box of the pixels > 0 (none: all zeros).
    /// 2. Scale s = 20 / max(w, h); new size max(1, ⌊w·s + ½⌋) × max(1, ⌊h·s + ½⌋).
    /// 3. Area (box-filter) resampling in Double, separable.
    /// 4. Bytes ⌊v·255 + ½⌋ (here v is already in bytes/255).
    /// 5. Placed so the centre of mass lands at (13.5, 13.5) in pixel-index coordinates,
    ///    offset ⌊13.5 − c + ½⌋ clamped inside the frame.
    ///
    /// - Parameters:
    ///   - ink: `width × height` bytes, ink high, background 0, other components removed.
    /// - Complexity: O(width × height).
    public static func normalized(ink: [UInt8], width: Int, height: Int) -> DigitInput {
        precondition(ink.count == width * height, "\(ink.count) bytes for \(width)x\(height)")
        let side = Self.side
        var out = [UInt8](repeating: 0, count: side * side)
        var x0 = width, x1 = -1, y0 = height, y1 = -1
        for y in 0..<height {
            for x in 0..<width where ink[y * width + x] > 0 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return DigitInput(normalizedPixels: out) }
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        let s = Double(Self.fit) / Double(max(w, h))
        let nw = max(1, Int((Double(w) * s + 0.5).rounded(.down)))
        let nh = max(1, Int((Double(h) * s + 0.5).rounded(.down)))
        let wx = areaWeights(source: w, target: nw)
        let wy = areaWeights(source: h, target: nh)
        // horizontal pass: h × nw
        var rows = [Double](repeating: 0, count: h * nw)
        for y in 0..<h {
            for (i, taps) in wx.enumerated() {
                var sum = 0.0
                for (j, weight) in taps { sum += Double(ink[(y0 + y) * width + x0 + j]) / 255 * weight }
                rows[y * nw + i] = sum
            }
        }
        // vertical pass and quantization: nh × nw
        var small = [UInt8](repeating: 0, count: nh * nw)
        for (i, taps) in wy.enumerated() {
            for x in 0..<nw {
                var sum = 0.0
                for (j, weight) in taps { sum += rows[j * nw + x] * weight }
                small[i * nw + x] = UInt8(min(255, max(0, (sum * 255 + 0.5).rounded(.down))))
            }
        }
        var total = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<nh {
            for x in 0..<nw {
                let v = Double(small[y * nw + x])
                total += v; sx += v * Double(x); sy += v * Double(y)
            }
        }
        let cx = total > 0 ? sx / total : Double(nw - 1) / 2
        let cy = total > 0 ? sy / total : Double(nh - 1) / 2
        let ox = min(max(Int((13.5 - cx + 0.5).rounded(.down)), 0), side - nw)
        let oy = min(max(Int((13.5 - cy + 0.5).rounded(.down)), 0), side - nh)
        for y in 0..<nh {
            for x in 0..<nw { out[(oy + y) * side + ox + x] = small[y * nw + x] }
        }
        return DigitInput(normalizedPixels: out)
    }

    /// For each target cell, the source cells it overlaps and their weights (summing to 1).
    private static func areaWeights(source: Int, target: Int) -> [[(Int, Double)]] {
        let step = Double(source) / Double(target)
        return (0..<target).map { i in
            let lo = Double(i) * step, hi = Double(i + 1) * step
            var taps: [(Int, Double)] = []
            var j = Int(lo.rounded(.down))
            while j < source, Double(j) < hi {
                let overlap = min(hi, Double(j + 1)) - max(lo, Double(j))
                if overlap > 0 { taps.append((j, overlap / step)) }
                j += 1
            }
            return taps
        }
    }
}
