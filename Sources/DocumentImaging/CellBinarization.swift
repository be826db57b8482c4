public import ImagingCore

extension GrayImage {
    /// Ink of a ruled region, thresholded cell by cell: a pixel is ink when it is darker
    /// than its cell's paper (the cell's 75th percentile) by 30 % of the region's
    /// contrast (median paper level minus its 1st percentile), or by 60 % of the cell's
    /// own contrast (paper minus the 2nd percentile of its inner 70 %) when that is lower
    /// — so faint print beside dark handwriting survives — and always by at least
    /// `inkFloorShare` of its paper level, which keeps the noise of empty cells as paper.
    /// Where the paper around a pixel (`PaperLevel`, a window of `shadeWindow` of the cell
    /// pitch) is darker than its cell's by more than the threshold, that darker paper is the level: a
    /// shadow's edge across a cell leaves its shaded part paper, not a dark blob joined to
    /// the digit (a lighter shade would not pass for ink anyway, and the window's median
    /// sits a little under the cell's 75th percentile, which low-contrast print feels).
    /// `contrastShare` scales all three (0.5: the faint ink around it, see
    /// `DigitSegmenter.joiningBrokenDigits`). Complexity: O(width × height).
    public func binarizedByCells(_ ruling: Ruling, contrastShare: Double = 1) -> BinaryImage {
        binarizedByCells(ruling, contrastShares: [contrastShare])[0]
    }

    /// `binarizedByCells(_:contrastShare:)` at each of `contrastShares`, sharing the
    /// cells' levels and the paper level (one pass for a grid's ink and its faint ink).
    public func binarizedByCells(_ ruling: Ruling, contrastShares: [Double]) -> [BinaryImage] {
        var planes = [[UInt8]](repeating: [UInt8](repeating: 0, count: width * height), count: contrastShares.count)
        let dark = Int(ByteHistogram(pixels).percentile(0.01))
        var papers: [[Int]] = [], inks: [[Int]] = []
        for r in 0..<ruling.rowCount {
            var row: [Int] = [], inkRow: [Int] = []
            for c in 0..<ruling.columnCount {
                let box = cellBox(ruling, r, c)
                var histogram = ByteHistogram(), inner = ByteHistogram()
                let mx = box.width * 15 / 100, my = box.height * 15 / 100
                pixels.withUnsafeBufferPointer { src in
                    for y in box.y..<box.maxY {
                        let line = src.baseAddress! + y * width
                        for x in box.x..<box.maxX { histogram.add(line[x]) }
                        guard y >= box.y + my && y < box.maxY - my else { continue }
                        for x in (box.x + mx)..<max(box.x + mx, box.maxX - mx) { inner.add(line[x]) }
                    }
                }
                row.append(Int(histogram.percentile(0.75)))
                inkRow.append(Int(inner.percentile(0.02)))
            }
            papers.append(row)
            inks.append(inkRow)
        }
        let allPapers = papers.flatMap { $0 }.sorted()
        let paperMedian = allPapers[allPapers.count / 2]
        let widths = (0..<ruling.columnCount).map { ruling.columns[$0 + 1] - ruling.columns[$0] }.sorted()
        let heights = (0..<ruling.rowCount).map { ruling.rows[$0 + 1] - ruling.rows[$0] }.sorted()
        let pitch = min(widths[widths.count / 2], heights[heights.count / 2])
        let shade = PaperLevel(of: self, window: max(3, Int(Self.shadeWindow * pitch)))
        for (plane, contrastShare) in contrastShares.enumerated() {
            let floorOf = { (paper: Int) in Int((Self.inkFloorShare * Double(paper) * contrastShare).rounded()) }
            let threshold = max(floorOf(paperMedian), Int(Double((paperMedian - dark) * 3) / 10 * contrastShare))
            for r in 0..<ruling.rowCount {
                for c in 0..<ruling.columnCount {
                    let box = cellBox(ruling, r, c), paper = papers[r][c]
                    // a faint digit (grey print beside black handwriting) gets part of its own
                    // contrast as threshold; never under the floor, so empty cells stay clean
                    let threshold = max(floorOf(paper), min(threshold, Int(Double((paper - inks[r][c]) * 6) / 10 * contrastShare)))
                    // paper shaded darker than the threshold itself would be ink
                    let shaded = paper - shade.darkest(in: box) > threshold
                    pixels.withUnsafeBufferPointer { src in
                        planes[plane].withUnsafeMutableBufferPointer { out in
                            for y in box.y..<box.maxY {
                                let line = src.baseAddress! + y * width, ink = out.baseAddress! + y * width
                                if !shaded {
                                    for x in box.x..<box.maxX where paper - Int(line[x]) > threshold { ink[x] = 1 }
                                    continue
                                }
                                for x in box.x..<box.maxX {
                                    let around = shade[x, y]
                                    let here = paper - around > threshold ? around : paper
                                    if here - Int(line[x]) > threshold { ink[x] = 1 }
                                }
                            }
                        }
                    }
                }
            }
        }
        return planes.map { BinaryImage(width: width, height: height, bits: $0) }
    }

    /// The least contrast ink needs, as a share of its cell's paper level: contrast scales
    /// with the light, so a floor in grey levels would keep a dim photo's faint digits
    /// as paper and let a bright photo's grain through. 0.125 is the 20 grey levels the
    /// floor was at the development photos' median cell paper (153–183, about 160).
    public static let inkFloorShare = 0.125

    /// The window of the paper level a cell's ink is measured against, as a share of the
    /// cell pitch: wider than any stroke (a digit's stroke is about a tenth of its cell),
    /// so ink covers under half of it.
    public static let shadeWindow = 1.0

    /// A cell's box in this image, clipped.
    public func cellBox(_ ruling: Ruling, _ r: Int, _ c: Int) -> PixelBox {
        let x0 = max(0, Int(ruling.columns[c].rounded())), x1 = min(width, Int(ruling.columns[c + 1].rounded()))
        let y0 = max(0, Int(ruling.rows[r].rounded())), y1 = min(height, Int(ruling.rows[r + 1].rounded()))
        return PixelBox(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }
}

extension BinaryImage {
    /// The ink with each cell's ruling removed: within the outer 18 % of a cell, rows
    /// (and columns) whose ink covers at least 60 % of the cell's width (height) are
    /// cleared. Thick or blurred lines then no longer ring the cell's digit.
    /// Complexity: O(width × height).
    public func strippingRuling(_ ruling: Ruling) -> BinaryImage {
        var out = self
        for r in 0..<ruling.rowCount {
            for c in 0..<ruling.columnCount {
                let x0 = max(0, Int(ruling.columns[c].rounded())), x1 = min(width, Int(ruling.columns[c + 1].rounded()))
                let y0 = max(0, Int(ruling.rows[r].rounded())), y1 = min(height, Int(ruling.rows[r + 1].rounded()))
                let w = x1 - x0, h = y1 - y0
                guard w > 4, h > 4 else { continue }
                let zoneY = max(1, h * 18 / 100), zoneX = max(1, w * 18 / 100)
                for y in Array(y0..<(y0 + zoneY)) + Array((y1 - zoneY)..<y1) {
                    var n = 0
                    for x in x0..<x1 where bits[y * width + x] != 0 { n += 1 }
                    if n * 10 >= w * 6 { for x in x0..<x1 { out.bits[y * width + x] = 0 } }
                }
                for x in Array(x0..<(x0 + zoneX)) + Array((x1 - zoneX)..<x1) {
                    var n = 0
                    for y in y0..<y1 where bits[y * width + x] != 0 { n += 1 }
                    if n * 10 >= h * 6 { for y in y0..<y1 { out.bits[y * width + x] = 0 } }
                }
            }
        }
        return out
    }
}
