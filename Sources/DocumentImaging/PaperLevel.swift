public import ImagingCore

extension GrayImage {
    /// The paper's brightness around each pixel: the median of the `window × window`
    /// square around it. A median follows a shadow's edge where it runs (each side of a
    /// straight edge keeps its own level up to the edge), while strokes thinner than half
    /// the window, covering less than half of it, leave it at the paper. Computed on a
    /// copy reduced so that the window is about `PaperLevel.reducedWindow` pixels across,
    /// then interpolated bilinearly; one pixel of the reduced copy is the precision.
    /// Complexity: O(width × height) for the reduction, O(reduced pixels ×
    /// `reducedWindow`) for the medians (a running histogram along each row).
    public func paperLevel(window: Int) -> [UInt8] {
        let factor = max(1, window / PaperLevel.reducedWindow)
        let small = reduced(by: factor)
        let w = small.width, h = small.height
        let radius = max(1, (window / factor) / 2)
        var level = [UInt8](repeating: 0, count: w * h)
        small.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = max(0, y - radius), y1 = min(h - 1, y + radius)
                var histogram = [Int](repeating: 0, count: 256), count = 0
                func add(_ x: Int, _ delta: Int) {
                    for yy in y0...y1 { histogram[Int(src[yy * w + x])] += delta }
                    count += delta * (y1 - y0 + 1)
                }
                for x in 0...min(w - 1, radius) { add(x, 1) }
                for x in 0..<w {
                    if x > 0 {
                        if x + radius < w { add(x + radius, 1) }
                        if x - radius - 1 >= 0 { add(x - radius - 1, -1) }
                    }
                    var seen = 0, v = 0
                    while v < 255 { seen += histogram[v]; if 2 * seen >= count { break }; v += 1 }
                    level[y * w + x] = UInt8(v)
                }
            }
        }
        if factor == 1 { return level }
        // back to full size: bilinear between the reduced pixels' centres
        var out = [UInt8](repeating: 0, count: width * height)
        let f = Double(factor)
        for y in 0..<height {
            let sy = min(Double(h - 1), max(0, (Double(y) + 0.5) / f - 0.5))
            let y0 = Int(sy), y1 = min(h - 1, y0 + 1), ty = sy - Double(y0)
            for x in 0..<width {
                let sx = min(Double(w - 1), max(0, (Double(x) + 0.5) / f - 0.5))
                let x0 = Int(sx), x1 = min(w - 1, x0 + 1), tx = sx - Double(x0)
                let top = Double(level[y0 * w + x0]) * (1 - tx) + Double(level[y0 * w + x1]) * tx
                let bottom = Double(level[y1 * w + x0]) * (1 - tx) + Double(level[y1 * w + x1]) * tx
                out[y * width + x] = UInt8((top * (1 - ty) + bottom * ty).rounded())
            }
        }
        return out
    }
}

/// Constants of `GrayImage.paperLevel(window:)`.
public enum PaperLevel {
    /// How many pixels of the reduced copy the median window spans: enough for a median
    /// to be one (an odd count of a few pixels each way), few enough to stay cheap.
    public static let reducedWindow = 9
}
