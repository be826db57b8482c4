import DocumentImaging
import ImagingCore

extension Layout {
    /// Grids put together from their parts. A quad with no ruling of its own (a shadow
    /// or glare hides some of its lines) that holds two or more small grids (its boxes, found
    /// where the light was good) borrows their lines: mapped into it, they may stand in
    /// for lines it did not find, and if the lot divides evenly into more cells than
    /// any part has, the quad becomes the grid and the parts give way.
    func assembleGrids(_ quads: [DetectedQuad], ancestors: (Int) -> [Int],
                       rectified: [Int: GrayImage],
                       foundLines: [Int: FoundLines],
                       isGrid: inout [Bool], rulings: inout [Int: Ruling]) {
        for i in quads.indices where !isGrid[i] {
            guard let g = rectified[i], let own = foundLines[i],
                  !ancestors(i).contains(where: { isGrid[$0] }) else { continue }
            let parts = quads.indices.filter { isGrid[$0] && ancestors($0).contains(i) }
            // a part of trusted size is a whole grid already, not a box of a larger one
            guard parts.count >= 2, parts.allSatisfy({ rulings[$0]!.cellCount < Self.trustedCellCount }), let intoParent = Homography(straightening: quads[i].quad, width: g.width, height: g.height)?.inverted else { continue }
            var rows: [Double] = [], columns: [Double] = []
            for j in parts {
                guard let r = rulings[j], let pg = rectified[j],
                      let toImage = Homography(straightening: quads[j].quad, width: pg.width, height: pg.height) else { continue }
                let map = { (p: Point) in intoParent.apply(toImage.apply(p)) }
                let x0 = r.columns.first!, x1 = r.columns.last!, y0 = r.rows.first!, y1 = r.rows.last!
                for y in r.rows { rows.append((map(Point(x0, y)).y + map(Point(x1, y)).y) / 2) }
                for x in r.columns { columns.append((map(Point(x, y0)).x + map(Point(x, y1)).x) / 2) }
            }
            let largestPart = parts.map { rulings[$0]!.cellCount }.max()!
            guard let ruling = RulingFinder.ruling(own, width: g.width, height: g.height,
                                                   supportingRows: rows, supportingColumns: columns),
                  ruling.cellCount > largestPart, Self.cellsLookBlank(Self.ink(of: g), ruling) else { continue }
            for j in parts { isGrid[j] = false; rulings[j] = nil }
            isGrid[i] = true
            rulings[i] = ruling
        }
    }
}
