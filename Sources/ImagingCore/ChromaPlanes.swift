/// A photo's colour apart from its brightness, at a coarse scale: the blue- and
/// red-difference planes (Cb and Cr of JPEG's YCbCr, 128 for grey), each pixel the mean
/// over a square of `scale` × `scale` pixels of the gray image it goes with. Paper differs
/// from what it lies on in colour as often as in brightness: a pink or yellow note on a
/// light desk can be as bright as the desk.
public struct ChromaPlanes: Sendable {
    /// Cb: blue less luminance, 128 for grey.
    public var blueDifference: GrayImage
    /// Cr: red less luminance, 128 for grey.
    public var redDifference: GrayImage
    /// Gray-image pixels per plane pixel, along either axis.
    public var scale: Double

    /// Two planes of the same size and the gray-image pixels each pixel spans.
    public init(blueDifference: GrayImage, redDifference: GrayImage, scale: Double) {
        precondition(blueDifference.width == redDifference.width && blueDifference.height == redDifference.height,
                     "chroma planes of different sizes")
        self.blueDifference = blueDifference
        self.redDifference = redDifference
        self.scale = scale
    }

    /// The planes going with the gray image reduced by `factor` (`GrayImage.reduced(by:)`).
    public func forReduced(by factor: Int) -> ChromaPlanes {
        ChromaPlanes(blueDifference: blueDifference, redDifference: redDifference, scale: scale / Double(factor))
    }

    /// The planes turned as `GrayImage.oriented(_:)` turns their gray image.
    public func oriented(_ orientation: ExifOrientation) -> ChromaPlanes {
        ChromaPlanes(blueDifference: blueDifference.oriented(orientation),
                     redDifference: redDifference.oriented(orientation), scale: scale)
    }

    /// The planes turned as `GrayImage.rotated(quarterTurns:)` turns their gray image.
    public func rotated(quarterTurns: Int) -> ChromaPlanes {
        ChromaPlanes(blueDifference: blueDifference.rotated(quarterTurns: quarterTurns),
                     redDifference: redDifference.rotated(quarterTurns: quarterTurns), scale: scale)
    }

    /// Both planes laid out as the gray image reduced by `factor` (`width` × `height`):
    /// each pixel the mean of the plane pixels within its block (at least the one under
    /// the block's corner). Complexity: O(width × height + plane pixels).
    public func resampled(reducedBy factor: Int, width: Int, height: Int) -> [GrayImage] {
        let step = Double(factor) / scale
        // the plane pixels [lo, hi) under output pixel k along an axis of `limit` pixels
        func spans(_ count: Int, _ limit: Int) -> [(lo: Int, hi: Int)] {
            (0..<count).map { k in
                let lo = min(limit - 1, Int(Double(k) * step)), hi = min(limit, Int(Double(k + 1) * step))
                return (lo, max(lo + 1, hi))
            }
        }
        return [blueDifference, redDifference].map { plane in
            var out = GrayImage(width: width, height: height, fill: 128)
            guard plane.width > 0, plane.height > 0 else { return out }
            let columns = spans(width, plane.width), rows = spans(height, plane.height)
            plane.pixels.withUnsafeBufferPointer { px in
                out.pixels.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        let (r0, r1) = rows[y]
                        for x in 0..<width {
                            let (c0, c1) = columns[x]
                            var sum = 0
                            for py in r0..<r1 {
                                let row = py * plane.width
                                for px0 in c0..<c1 { sum += Int(px[row + px0]) }
                            }
                            let count = (r1 - r0) * (c1 - c0)
                            dst[y * width + x] = UInt8((sum + count / 2) / count)
                        }
                    }
                }
            }
            return out
        }
    }
}
