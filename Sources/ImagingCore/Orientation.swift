/// The eight EXIF orientations (TIFF tag 0x0112): how the stored pixels must be
/// transformed to appear upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left–right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top–bottom.
    case downMirrored = 4
    /// Mirrored left–right, then rotated 90° counter-clockwise (a transpose).
    case leftMirrored = 5
    /// Must be rotated 90° clockwise to be upright.
    case right = 6
    /// Mirrored left–right, then rotated 90° clockwise (a transverse).
    case rightMirrored = 7
    /// Must be rotated 90° counter-clockwise to be upright.
    case left = 8

    /// Whether width and height trade places when applied.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation equivalent to applying this one and then turning the result
    /// `turns` quarter turns clockwise.
    public func followed(byClockwiseQuarterTurns turns: Int) -> ExifOrientation {
        let t = ((turns % 4) + 4) % 4
        guard t != 0 else { return self }
        // the orientation whose effect on a probe image equals the composition
        let probe = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let target = probe.oriented(self).rotated(quarterTurns: t)
        return ExifOrientation.allCases.first { probe.oriented($0) == target } ?? self
    }
}

extension GrayImage {
    /// The image made upright for the given EXIF orientation.
    /// Complexity: O(width × height).
    public func oriented(_ orientation: ExifOrientation) -> GrayImage {
        if orientation == .up { return self }
        let (w, h) = orientation.swapsAxes ? (height, width) : (width, height)
        let sw = width, sh = height
        var out = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        // source column and row for output pixel (x, y)
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (sw - 1 - x, y)
                        case .down: (sx, sy) = (sw - 1 - x, sh - 1 - y)
                        case .downMirrored: (sx, sy) = (x, sh - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, sh - 1 - x)
                        case .rightMirrored: (sx, sy) = (sw - 1 - y, sh - 1 - x)
                        case .left: (sx, sy) = (sw - 1 - y, x)
                        }
                        dst[y * w + x] = src[sy * sw + sx]
                    }
                }
            }
        }
        return GrayImage(width: w, height: h, pixels: out)
    }

    /// The image rotated clockwise by `quarterTurns` × 90°.
    public func rotated(quarterTurns: Int) -> GrayImage {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return oriented(.right)
        case 2: return oriented(.down)
        case 3: return oriented(.left)
        default: return self
        }
    }
}

extension ExifOrientation {
    /// Where a point of the stored pixels appears once this orientation is applied, in
    /// continuous coordinates (pixel edges at integers), for a stored image of
    /// `storedWidth` × `storedHeight`. The inverse of `storedPoint(of:…)`.
    public func displayedPoint(ofStored p: (x: Double, y: Double), storedWidth sw: Double,
                               storedHeight sh: Double) -> (x: Double, y: Double) {
        switch self {
        case .up: return p
        case .upMirrored: return (sw - p.x, p.y)
        case .down: return (sw - p.x, sh - p.y)
        case .downMirrored: return (p.x, sh - p.y)
        case .leftMirrored: return (p.y, p.x)
        case .right: return (sh - p.y, p.x)
        case .rightMirrored: return (sh - p.y, sw - p.x)
        case .left: return (p.y, sw - p.x)
        }
    }

    /// The orientation that undoes this one (applied to the upright image).
    public var inverse: ExifOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self    // the others undo themselves
        }
    }

    /// Where a point of the upright (displayed) image lies in the stored pixels of a
    /// `storedWidth` × `storedHeight` image: the mapping `oriented(_:)` samples with.
    public func storedPoint(of p: (x: Double, y: Double), storedWidth sw: Double,
                            storedHeight sh: Double) -> (x: Double, y: Double) {
        let (dw, dh) = swapsAxes ? (sh, sw) : (sw, sh)
        return inverse.displayedPoint(ofStored: p, storedWidth: dw, storedHeight: dh)
    }
}
