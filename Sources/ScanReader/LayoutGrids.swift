import DocumentImaging
import ImagingCore

/// The layout's grid stages: each quad looked at for a ruling of its own, largest first
/// (`takeRulings`); grids put together from parts (`GridAssembly`); outer rows and
/// columns past a grid's frame trimmed (`trimPastFrame`); and the grids taken,
/// straightened for reading (`gridRegions`).
extension Layout {
    /// Looks at every quad, largest to smallest, for a ruling of its own and takes it as
    /// a grid when it has one. Nothing inside a grid is looked at separately, except that
    /// a grid of a few cells (a false one: a page whose margins and a fold happen to fall
    /// evenly), or any grid around a quad making up a large part of it (a sheet whose
    /// print fell evenly around the puzzle on it), gives way to a grid of more cells
    /// inside it.
    func takeRulings(_ c: inout LayoutCandidates, in image: GrayImage) {
        for i in c.quads.indices {
            let gridAncestors = c.ancestors(i).filter(c.isGrid)
            // a part of a comb grown over it (its boxes found as a comb of their own)
            if c.extendedCombs.contains(where: { k in
                c.isGrid(k) && !c.ancestors(i).contains(k) && c.quads[k].quad.contains(c.quads[i].quad.center)
            }) { continue }
            if gridAncestors.contains(where: { a in
                c.rulings[a]!.cellCount >= Self.trustedCellCount && c.quads[i].quad.area < Self.innerGridShare * c.quads[a].quad.area
            }) { continue }
            // a flat zone is paper: the grid printed on it is found by its own lines
            if c.quads[i].isFlatPaper { continue }
            guard var g = straighten(c.quads[i].quad, in: image) else { continue }
            c.rectified[i] = g
            // the faintest lines only where the cells are not found one by one: a
            // lattice of cells (`cellLattices`) follows a bent grid, a straight ruling
            // would not
            let (found, paper, lineSet) = Self.ruling(of: g, faintLines: { [c] in
                !c.latticesInside(i).contains { $0.members.count >= Self.trustedCellCount }
            })
            var lines = lineSet
            c.foundLines[i] = lines
            // a single row (column) of boxes is divided by lines drawn from frame to frame;
            // the upright strokes of digits written in one long box come near its frame
            // but stop short of it. A box whose places only ticks standing on one side part
            // has no such lines: its ruling is its ticks' (`TickComb`)
            // (the ink is thresholded only for a quad that has a ruling to check or take)
            var checkedInk: BinaryImage? = nil
            let dividesAcross: Bool
            if let r = found, r.rowCount == 1 || r.columnCount == 1 {
                let rowInk = Self.ink(of: g)
                checkedInk = rowInk
                dividesAcross = Self.dividersSpanFrame(r, lines: lines, ink: rowInk)
            } else {
                dividesAcross = found != nil
            }
            let ticked = dividesAcross ? nil : TickComb.ruling(in: paper, lines: lines)
            guard var ruling = dividesAcross ? found : ticked?.ruling else { continue }
            c.tickTurns[i] = ticked?.upright
            var ink = checkedInk ?? Self.ink(of: g)
            c.inks[i] = ink
            guard Self.cellsLookBlank(ink, ruling) else { continue }
            // an outline ringing no hole the size of a cell is a blob of ink (digits run
            // together), its "ruling" their strokes: a grid of few cells shows a cell
            if ruling.cellCount < Self.trustedCellCount,
               !Self.ringsCell(c.quads[i], cellShare: 1 / Double(ruling.cellCount)) { continue }
            // the paper-relative threshold joins a frame to a dark strip beside it (the sheet
            // below, a shadow), moving the frame's line into the strip
            if !Self.isFramed(ruling, by: lines) {
                (ruling, lines) = Self.framed(ruling, lines: lines, plainLines: FoundLines(in: ink),
                                              width: g.width, height: g.height) { Self.cellsLookBlank(ink, $0) }
                c.foundLines[i] = lines
            }
            // a quad along the photo's own edges is the photo (a desk, a page past the
            // frame): the "lines" in it are whatever lies there, such as a note's edges;
            // only a lattice of many cells there is a grid photographed edge to edge
            if c.quads[i].followsImageFrame && ruling.cellCount < Self.trustedCellCount { continue }
            if ruling.cellCount < Self.trustedCellCount,
               let finer = Self.refined(ruling, lines: lines, paper: paper), Self.cellsLookBlank(ink, finer) {
                ruling = finer
            }
            // a single row (column) divided along a lighting step (a hard shadow's edge across
            // a sheet or a note) is no grid: its "line" has paper as dark as itself on one side
            // (a tick comb's ticks are thin strokes ending short of the far side: no step's edge)
            if ticked == nil, ruling.rowCount == 1 || ruling.columnCount == 1,
               Self.dividesAlongStep(ruling, in: g) { continue }
            // a quad that is not the grid's frame (a shadow's edge, the sheet below, the
            // page's curve) sets the straight ruling askew on it: straightened along the frame
            if let (moved, again, found, againLines, againInk) = reframed(c.quads[i].quad, straightened: g, ruling: ruling,
                                                                          in: image) {
                (g, ruling, lines, ink) = (again, found, againLines, againInk)
                c.move(i, to: moved, straightened: g)
                (c.foundLines[i], c.inks[i]) = (lines, ink)
            }
            // a comb found a box short: the boxes beyond its ends, where the photo shows them
            if let (longer, again, found, againLines, againInk) = extendedComb(c.quads[i].quad, straightened: g,
                                                                                ruling: ruling, in: image) {
                (g, ruling, lines, ink) = (again, found, againLines, againInk)
                c.move(i, to: longer, straightened: g)
                (c.foundLines[i], c.inks[i]) = (lines, ink)
                c.extendedCombs.append(i)
            }
            if !gridAncestors.isEmpty {
                guard gridAncestors.allSatisfy({ c.rulings[$0]!.cellCount < ruling.cellCount }) else { continue }
                for a in gridAncestors { c.dropGrid(a) }
            }
            c.takeGrid(i, ruling: ruling)
            // a part of an extended comb taken as a comb of its own (a shadow's edge across
            // the comb cut its outline in two) is this comb's
            if c.extendedCombs.last == i {
                for j in c.quads.indices where j != i && c.isGrid(j) && !c.ancestors(i).contains(j)
                    && c.quads[i].quad.contains(c.quads[j].quad.center) {
                    c.dropGrid(j)
                }
            }
        }
    }

    /// A grid's outer row or column that holds none of its cells found as boxes is paper
    /// past its frame (the sheet below, a margin), not cells: trimmed off its ruling.
    func trimPastFrame(_ c: inout LayoutCandidates) {
        for (i, ruling) in c.rulings {
            guard let g = c.rectified[i] else { continue }
            guard let lattice = c.latticesInside(i).max(by: { $0.members.count < $1.members.count }),
                  let trimmed = Self.trimmed(ruling, toCellsOf: lattice, quads: c.quads, gridQuad: c.quads[i].quad,
                                             width: g.width, height: g.height, ink: { Self.ink(of: g) }) else { continue }
            c.takeGrid(i, ruling: trimmed)
        }
    }

    /// The grids taken, in the order of their quads, straightened for reading: finer lines
    /// the grey levels show added, small cells straightened larger, bent lines followed,
    /// and a tick comb turned so its ticks hang below its digits.
    func gridRegions(_ c: LayoutCandidates, in image: GrayImage) -> [LaidOutRegion] {
        var regions: [LaidOutRegion] = []
        for (i, found) in c.rulings.sorted(by: { $0.key < $1.key }) {
            var g = c.rectified[i]!
            // finer lines the grey levels show (thin lines lost beside heavy ones): only
            // now, so that grids are put together from their boxes as their heavy lines
            // show them
            var ruling = RulingFinder.subdivided(found, in: g)
            var ink = c.inks[i]
            let edges = c.foundLines[i].map {
                Self.edgesMaybePastFrame(ruling, lines: $0, offPaper: Self.sidesOffPaper(of: c.quads[i].quad, ruling: ruling, in: image),
                                         size: (Double(g.width), Double(g.height)))
            } ?? []
            // cells too small to hold legible digits: straightened again, larger
            if let (larger, scaled) = legible(c.quads[i].quad, straightened: g, ruling: ruling, in: image) {
                (g, ruling, ink) = (larger, scaled, nil)
            }
            // lines bent by a curling page: each cell taken from where its lines run
            let bend = BentRuling(following: ruling, in: ink ?? Self.ink(of: g))
            let bent = bend.largestShift >= Self.bendShare
            if bent { g = g.unbent(bend) }
            let (binary, faint) = Self.cellInks(of: g, ruling)
            var region = LaidOutRegion(kind: .grid, quad: c.quads[i].quad, gray: g, binary: binary, faint: faint,
                                       ruling: ruling)
            region.bend = bent ? bend : nil
            region.edgesMaybePastFrame = edges
            if let turns = c.tickTurns[i], turns != 0 {
                region = RegionTurn.turned(region, quarterTurns: turns)
                region.turnedFromPhoto = turns
            }
            regions.append(region)
        }
        return regions
    }

    /// Grids made of cells found one by one (`CellLattice`) among the quads that are no
    /// grid and lie in none: each read as a mosaic of its straightened cells. Also which
    /// quads are their cells (they are no fields).
    func cellLattices(_ c: LayoutCandidates, in image: GrayImage) -> ([LaidOutRegion], [Bool]) {
        let quads = c.quads
        var inLattice = [Bool](repeating: false, count: quads.count)
        let candidates = quads.indices.filter { i in
            !c.isGrid(i) && !quads[i].followsImageFrame && !c.liesInGrid(i)
        }
        var regions: [LaidOutRegion] = []
        for lattice in CellLattice.find(among: candidates, quads: quads.map(\.quad), twoLines: true) {
            // a table of two rows (columns) only inside its own outline, found about its
            // size: cells of a larger grid side by side look the same
            if min(lattice.rows, lattice.columns) == 2 {
                let outline = lattice.outline
                guard quads.indices.contains(where: { j in
                    !lattice.members.contains(j) && quads[j].quad.contains(outline.center)
                        && quads[j].quad.area >= outline.area / CellLattice.areaRatio
                        && quads[j].quad.area <= outline.area * CellLattice.areaRatio
                }) else { continue }
            }
            // tiles at the cells' own size (a 9×9 grid of 50 px cells reads at 450 px)
            let sides = lattice.members.map { quads[$0].quad.shortestSide }.sorted()
            let tile = min(CellLattice.largestTile, max(CellLattice.smallestTile, Int(sides[sides.count / 2])))
            guard let (gray, ruling, cut) = CellLattice.mosaic(lattice, in: image, tile: tile) else { continue }
            for m in lattice.members { inLattice[m] = true }
            let (binary, faint) = Self.cellInks(of: gray, ruling)
            var region = LaidOutRegion(kind: .grid, quad: lattice.outline, gray: gray, binary: binary, faint: faint,
                                       ruling: ruling)
            region.tiles = cut
            regions.append(region)
        }
        return (regions, inLattice)
    }
}
