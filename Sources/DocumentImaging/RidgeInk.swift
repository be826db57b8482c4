public import ImagingCore

extension GrayImage {
    /// Thin lines found by their shape rather than by how dark they are: a pixel darker by
    /// `step` grey levels than both pixels `reach` away across it — above and below (a
    /// row's line), or left and right (a column's line). A hairline drawn in pale ink,
    /// blurred to a few levels below the paper, is still a ridge along its whole length,
    /// where any threshold set by the page's darkest ink keeps only specks of it; the
    /// inside of a blot or a broad shadow is no ridge.
    public func ridges(reach: Int, step: Int) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: width * height)
        guard reach > 0, width > 2 * reach, height > 2 * reach else { return BinaryImage(width: width, height: height, bits: bits) }
        let w = width
        pixels.withUnsafeBufferPointer { px in
            bits.withUnsafeMutableBufferPointer { out in
                for y in reach..<(height - reach) {
                    let row = y * w
                    for x in reach..<(w - reach) {
                        let v = Int(px[row + x]) + step
                        let aboveAndBelow = min(Int(px[row - reach * w + x]), Int(px[row + reach * w + x]))
                        let leftAndRight = min(Int(px[row + x - reach]), Int(px[row + x + reach]))
                        if v <= aboveAndBelow || v <= leftAndRight { out[row + x] = 1 }
                    }
                }
            }
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }

    /// The grey step a ridge needs (`ridges(reach:step:)`): `ridgeStepOverNoise` times the median
    /// difference of vertically neighbouring pixels `reach` apart (the paper's own grain
    /// and the photo's noise at that distance), at least `smallestRidgeStep`.
    public func ridgeStep(reach: Int) -> Int {
        var histogram = ByteHistogram()
        guard height > reach else { return GrayImage.smallestRidgeStep }
        pixels.withUnsafeBufferPointer { px in
            for y in stride(from: 0, to: height - reach, by: 2) {
                let row = y * width
                for x in stride(from: 0, to: width, by: 2) {
                    histogram.add(UInt8(abs(Int(px[row + reach * width + x]) - Int(px[row + x]))))
                }
            }
        }
        return max(GrayImage.smallestRidgeStep, Int((GrayImage.ridgeStepOverNoise * Double(histogram.percentile(0.5))).rounded()))
    }

    /// See `ridgeStep`: a ridge stands this many typical neighbour differences above the grain.
    public static let ridgeStepOverNoise = 3.0
    /// See `ridgeStep`: the least step, grey levels, on a copy so clean its grain is nil.
    public static let smallestRidgeStep = 3
}
