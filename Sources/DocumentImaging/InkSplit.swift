/// Cutting one piece of ink that holds several glyphs side by side (printed digits
/// touching at a tight kerning, "90" as one component) into one crop per glyph.
extension InkCrop {
    /// The crop cut into `parts` crops side by side, each trimmed to its own ink, or nil
    /// when a part would hold no ink. The k-th cut is within a `cutReach` share of a
    /// part's width of the even division's k-th boundary, at the column crossing the
    /// fewest strokes (runs of ink down it), of those the one with least ink: where two
    /// glyphs meet a column crosses one stroke (the join, or one glyph's side), while a
    /// column through a glyph's hole crosses two and holds less ink.
    public func split(into parts: Int) -> [InkCrop]? {
        let w = box.width, h = box.height
        guard parts >= 2, w >= 2 * parts else { return nil }
        var columnInk = [Int](repeating: 0, count: w), columnRuns = [Int](repeating: 0, count: w)
        for x in 0..<w {
            var inRun = false
            for y in 0..<h {
                let v = ink[y * w + x]
                columnInk[x] += Int(v)
                if v > 0 && !inRun { columnRuns[x] += 1 }
                inRun = v > 0
            }
        }
        let partWidth = Double(w) / Double(parts)
        let reach = max(1, Int(Self.cutReach * partWidth))
        var cuts = [0]
        for k in 1..<parts {
            let nominal = Int((Double(k) * partWidth).rounded())
            let lo = max(cuts.last! + 1, nominal - reach), hi = min(w - 1, nominal + reach)
            guard lo <= hi else { return nil }
            // fewest strokes, then least ink, then nearest the even division
            let cut = (lo...hi).min { a, b in
                if columnRuns[a] != columnRuns[b] { return columnRuns[a] < columnRuns[b] }
                return columnInk[a] != columnInk[b] ? columnInk[a] < columnInk[b] : abs(a - nominal) < abs(b - nominal)
            }!
            cuts.append(cut)
        }
        cuts.append(w)
        var crops: [InkCrop] = []
        for k in 0..<parts {
            guard let part = trimmed(columns: cuts[k]..<cuts[k + 1]) else { return nil }
            crops.append(part)
        }
        return crops
    }

    /// How far from the even division's boundary a cut may move, as a share of a part's
    /// width: glyphs of one font differ in width ("1" beside "0"), but not by more.
    public static let cutReach = 0.35

    /// The columns `range` of this crop, trimmed to the rows and columns holding ink; nil
    /// when they hold none.
    func trimmed(columns range: Range<Int>) -> InkCrop? {
        let w = box.width, h = box.height
        var x0 = Int.max, x1 = -1, y0 = Int.max, y1 = -1
        for y in 0..<h {
            for x in range where ink[y * w + x] > 0 {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return nil }
        let pw = x1 - x0 + 1, ph = y1 - y0 + 1
        var out = [UInt8](repeating: 0, count: pw * ph)
        for y in 0..<ph { for x in 0..<pw { out[y * pw + x] = ink[(y0 + y) * w + x0 + x] } }
        return InkCrop(box: PixelBox(x: box.x + x0, y: box.y + y0, width: pw, height: ph), ink: out, contrast: contrast)
    }
}
