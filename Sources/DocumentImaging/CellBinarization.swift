public import ImagingCore

extension GrayImage {
    /// Ink of a ruled region, thresholded cell by cell: a pixel is ink when it is darker
    /// than its cell's paper (the cell's 75th percentile) by more than 30 % of the
    /// region's contrast (median paper level minus its 1st percentile), and by at least
    /// 20 grey levels. One contrast for the whole region keeps faint, blurred digits
    /// while leaving the noise of empty cells as paper.
    /// Complexity: O(width × height · log) (a sort per cell).
    public func binarizedByCells(_ ruling: Ruling) -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: width * height)
        let sorted = pixels.sorted()
        let dark = Int(sorted[sorted.count / 100])
        var papers: [[Int]] = []
        for r in 0..<ruling.rowCount {
            var row: [Int] = []
            for c in 0..<ruling.columnCount {
                let box = cellBox(ruling, r, c)
                var values: [UInt8] = []
                values.reserveCapacity(box.width * box.height)
                for y in box.y..<box.maxY { for x in box.x..<box.maxX { values.append(self[x, y]) } }
                values.sort()
                row.append(values.isEmpty ? 255 : Int(values[values.count * 3 / 4]))
            }
            papers.append(row)
        }
        let allPapers = papers.flatMap { $0 }.sorted()
        let paperMedian = allPapers[allPapers.count / 2]
        let threshold = max(20, (paperMedian - dark) * 3 / 10)
        for r in 0..<ruling.rowCount {
            for c in 0..<ruling.columnCount {
                let box = cellBox(ruling, r, c), paper = papers[r][c]
                for y in box.y..<box.maxY {
                    for x in box.x..<box.maxX where paper - Int(self[x, y]) > threshold { bits[y * width + x] = 1 }
                }
            }
        }
        return BinaryImage(width: width, height: height, bits: bits)
    }

    /// A cell's box in this image, clipped.
    public func cellBox(_ ruling: Ruling, _ r: Int, _ c: Int) -> PixelBox {
        let x0 = max(0, Int(ruling.columns[c].rounded())), x1 = min(width, Int(ruling.columns[c + 1].rounded()))
        let y0 = max(0, Int(ruling.rows[r].rounded())), y1 = min(height, Int(ruling.rows[r + 1].rounded()))
        return PixelBox(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }
}
