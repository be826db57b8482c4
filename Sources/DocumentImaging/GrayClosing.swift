public import ImagingCore

extension GrayImage {
    /// The grey-level closing of the image over `width × height` rectangles: each pixel
    /// the darkest of the brightest values around it (the maximum over the rectangle,
    /// then the minimum of those maxima). Dark features narrower than the rectangle
    /// (strokes, lines, whole glyphs) are filled with the level around them, while a step
    /// between two wide areas (a shadow's edge) stays where it is and as sharp. Sizes are
    /// rounded down to odd (the rectangle is centred). Complexity: O(pixels) whatever the
    /// rectangle: running extremes over blocks of the window's length (van Herk,
    /// Gil–Werman).
    public func closed(width kx: Int, height ky: Int) -> GrayImage {
        guard !pixels.isEmpty else { return self }
        let rx = max(0, (kx - 1) / 2), ry = max(0, (ky - 1) / 2)
        var p = pixels
        p.withUnsafeMutableBufferPointer { buf in
            let base = buf.baseAddress!
            // maxima along rows then columns, then minima along rows then columns
            for takesMax in [true, false] {
                Self.runningExtreme(base, lines: height, length: width, pixelStride: 1, lineStep: width, radius: rx,
                                    takesMax: takesMax)
                Self.runningExtreme(base, lines: width, length: height, pixelStride: width, lineStep: 1, radius: ry,
                                    takesMax: takesMax)
            }
        }
        return GrayImage(width: width, height: height, pixels: p)
    }

    /// Replaces each of `lines` lines (the k-th starting at `k × lineStep`, its pixels
    /// `pixelStride` apart, `length` long) by its running maximum (or minimum) over
    /// `2 × radius + 1` pixels, the window cut at the line's ends.
    static func runningExtreme(_ data: UnsafeMutablePointer<UInt8>, lines: Int, length: Int, pixelStride: Int,
                               lineStep: Int, radius: Int, takesMax: Bool) {
        guard radius > 0, length > 1 else { return }
        if lineStep == 1 && pixelStride == lines {
            return runningExtremeDownColumns(data, width: lines, height: length, radius: radius, takesMax: takesMax)
        }
        let window = 2 * radius + 1
        // the line padded with the neutral value so that every window is whole
        let padded = length + 2 * radius
        let neutral: UInt8 = takesMax ? 0 : 255
        var line = [UInt8](repeating: neutral, count: padded)
        var prefix = [UInt8](repeating: 0, count: padded), suffix = prefix
        for k in 0..<lines {
            let start = data + k * lineStep
            for i in 0..<length { line[radius + i] = start[i * pixelStride] }
            // per block of `window` pixels: extremes from its start (prefix) and to its end (suffix)
            var blockStart = 0
            while blockStart < padded {
                let blockEnd = min(padded, blockStart + window)
                prefix[blockStart] = line[blockStart]
                suffix[blockEnd - 1] = line[blockEnd - 1]
                if takesMax {
                    for i in (blockStart + 1)..<blockEnd { prefix[i] = max(prefix[i - 1], line[i]) }
                    for i in stride(from: blockEnd - 2, through: blockStart, by: -1) { suffix[i] = max(suffix[i + 1], line[i]) }
                } else {
                    for i in (blockStart + 1)..<blockEnd { prefix[i] = min(prefix[i - 1], line[i]) }
                    for i in stride(from: blockEnd - 2, through: blockStart, by: -1) { suffix[i] = min(suffix[i + 1], line[i]) }
                }
                blockStart = blockEnd
            }
            // the window [i, i + window) of the padded line spans at most two blocks: the
            // suffix of the first from i, the prefix of the second up to its end
            for i in 0..<length {
                let a = suffix[i], b = prefix[i + window - 1]
                start[i * pixelStride] = takesMax ? max(a, b) : min(a, b)
            }
        }
    }

    /// `runningExtreme` down every column of a `width × height` row-major image at once:
    /// the same blocks, prefixes and suffixes, each a whole row of `width` pixels, so the
    /// inner loops run along memory (and vectorize) instead of striding down one column
    /// at a time. Gives the same bytes.
    static func runningExtremeDownColumns(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, radius: Int,
                                          takesMax: Bool) {
        let window = 2 * radius + 1, padded = height + 2 * radius
        let neutral: UInt8 = takesMax ? 0 : 255
        // rows: the image's, `radius` rows of the neutral value above and below
        var rows = [UInt8](repeating: neutral, count: padded * width)
        var prefix = [UInt8](repeating: 0, count: padded * width), suffix = prefix
        rows.withUnsafeMutableBufferPointer { rows in
            prefix.withUnsafeMutableBufferPointer { prefix in
                suffix.withUnsafeMutableBufferPointer { suffix in
                    let line = rows.baseAddress!, pre = prefix.baseAddress!, suf = suffix.baseAddress!
                    (line + radius * width).update(from: data, count: width * height)
                    func combine(_ out: UnsafeMutablePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) {
                        if takesMax {
                            for x in 0..<width { out[x] = max(a[x], b[x]) }
                        } else {
                            for x in 0..<width { out[x] = min(a[x], b[x]) }
                        }
                    }
                    var blockStart = 0
                    while blockStart < padded {
                        let blockEnd = min(padded, blockStart + window)
                        (pre + blockStart * width).update(from: line + blockStart * width, count: width)
                        (suf + (blockEnd - 1) * width).update(from: line + (blockEnd - 1) * width, count: width)
                        for i in (blockStart + 1)..<blockEnd {
                            combine(pre + i * width, pre + (i - 1) * width, line + i * width)
                        }
                        for i in stride(from: blockEnd - 2, through: blockStart, by: -1) {
                            combine(suf + i * width, suf + (i + 1) * width, line + i * width)
                        }
                        blockStart = blockEnd
                    }
                    for i in 0..<height {
                        combine(data + i * width, suf + i * width, pre + (i + window - 1) * width)
                    }
                }
            }
        }
    }
}
