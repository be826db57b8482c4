public import ImagingCore

extension BinaryImage {
    /// `region` moved in past the lines of a frame lying inside it: on each side, the
    /// innermost row (column) within `zone` pixels of it whose ink covers at least
    /// `cover` of the region's width (height) — a frame's line, which a digit never runs
    /// along — and the region starts beyond it. A digit touching the frame is then cut
    /// from it where the line was, keeping its own strokes; a tick standing on the line
    /// still stands on the region's border. Complexity: O(zone × region side).
    public func insideFrame(of region: PixelBox, zone: Int, cover: Double) -> PixelBox {
        let zy = min(zone, region.height / 3), zx = min(zone, region.width / 3)
        func rowIsLine(_ y: Int) -> Bool {
            var n = 0
            for x in region.x..<region.maxX where bits[y * width + x] != 0 { n += 1 }
            return Double(n) >= cover * Double(region.width)
        }
        func columnIsLine(_ x: Int) -> Bool {
            var n = 0
            for y in region.y..<region.maxY where bits[y * width + x] != 0 { n += 1 }
            return Double(n) >= cover * Double(region.height)
        }
        let top = (region.y..<(region.y + zy)).last(where: rowIsLine).map { $0 + 1 } ?? region.y
        let bottom = ((region.maxY - zy)..<region.maxY).first(where: rowIsLine) ?? region.maxY
        let left = (region.x..<(region.x + zx)).last(where: columnIsLine).map { $0 + 1 } ?? region.x
        let right = ((region.maxX - zx)..<region.maxX).first(where: columnIsLine) ?? region.maxX
        return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
    }
}
