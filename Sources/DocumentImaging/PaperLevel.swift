public import ImagingCore

/// The paper's brightness around each pixel of an image: the median of the
/// `window × window` square around it. A median follows a shadow's edge where it runs
/// (each side of a straight edge keeps its own level up to the edge), while strokes
/// thinner than half the window, covering less than half of it, leave it at the paper.
/// Kept on a copy reduced so that the window is about `reducedWindow` pixels across and
/// read bilinearly between its pixels' centres: one reduced pixel is the precision.
public struct PaperLevel: Sendable {
    /// How many pixels of the reduced copy the median window spans: enough for a median
    /// to be one (a few pixels each way), few enough to stay cheap.
    public static let reducedWindow = 9

    /// The medians, one per pixel of the reduced copy, row by row.
    let levels: [UInt8]
    /// The reduced copy's size and the reduction factor.
    let width: Int, height: Int, factor: Int

    /// The paper level of `image` over windows `window` pixels across.
    /// Complexity: O(image pixels) for the reduction, O(reduced pixels × window) for the
    /// medians (a running histogram along each row, its median moved step by step).
    public init(of image: GrayImage, window: Int) {
        factor = max(1, window / Self.reducedWindow)
        let small = image.reduced(by: factor)
        let w = small.width, h = small.height
        (width, height) = (w, h)
        let radius = max(1, (window / factor) / 2)
        var levels = [UInt8](repeating: 0, count: w * h)
        small.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = max(0, y - radius), y1 = min(h - 1, y + radius)
                // the median kept by a running histogram: `median` is the lowest level with
                // at least half the window at or below it; `atOrBelow` counts those
                var histogram = [Int](repeating: 0, count: 256), count = 0
                var median = 0, atOrBelow = 0
                func add(_ x: Int, _ delta: Int) {
                    for yy in y0...y1 {
                        let v = Int(src[yy * w + x])
                        histogram[v] += delta
                        if v <= median { atOrBelow += delta }
                    }
                    count += delta * (y1 - y0 + 1)
                }
                for x in 0...min(w - 1, radius) { add(x, 1) }
                for x in 0..<w {
                    if x > 0 {
                        if x + radius < w { add(x + radius, 1) }
                        if x - radius - 1 >= 0 { add(x - radius - 1, -1) }
                    }
                    while 2 * atOrBelow < count && median < 255 { median += 1; atOrBelow += histogram[median] }
                    while median > 0 && 2 * (atOrBelow - histogram[median]) >= count {
                        atOrBelow -= histogram[median]; median -= 1
                    }
                    levels[y * w + x] = UInt8(median)
                }
            }
        }
        self.levels = levels
    }

    /// The level at pixel (x, y) of the full-size image.
    public subscript(x: Int, y: Int) -> Int {
        // positions in 1/256 of a reduced pixel, from the first pixel's centre
        func place(_ v: Int, _ size: Int) -> (Int, Int, Int) {
            let p = min((size - 1) * 256, max(0, ((2 * v + 1) * 128) / factor - 128))
            let i = p >> 8
            return (i, min(size - 1, i + 1), p & 255)
        }
        let (x0, x1, tx) = place(x, width), (y0, y1, ty) = place(y, height)
        let top = Int(levels[y0 * width + x0]) * (256 - tx) + Int(levels[y0 * width + x1]) * tx
        let bottom = Int(levels[y1 * width + x0]) * (256 - tx) + Int(levels[y1 * width + x1]) * tx
        return (top * (256 - ty) + bottom * ty + 32768) >> 16
    }

    /// The lowest level anywhere in `box` (full-size pixels): no pixel of it reads lower.
    public func darkest(in box: PixelBox) -> Int {
        let x0 = max(0, box.x / factor - 1), x1 = min(width - 1, (box.maxX - 1) / factor + 1)
        let y0 = max(0, box.y / factor - 1), y1 = min(height - 1, (box.maxY - 1) / factor + 1)
        var low = 255
        for y in y0...max(y0, y1) { for x in x0...max(x0, x1) { low = min(low, Int(levels[y * width + x])) } }
        return low
    }
}
