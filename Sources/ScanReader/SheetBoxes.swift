import DocumentImaging
import ImagingCore

extension Layout {
    /// `quads` with the boxes drawn on each sheet added (`LineBoxes` on the straightened
    /// sheet), largest first with their nesting recomputed. A sheet is a quad inside no
    /// other, not along the photo's frame, covering at least `sheetShare` of the photo;
    /// where `fields` (the boxes read as fields) lie on no such sheet, the sheet they lie
    /// on is recovered from them (`sheetOfFields`), unless the photo is the `pageOfGrid`
    /// (a puzzle or a table read there: fields beside it are its captions, and its cells
    /// the boxes on its page). A box is added only where the detector found nothing there
    /// already: not the same quad, and not inside a larger quad that could itself be a box
    /// on the sheet. Sheets holding a point of `skipping` (a grid read there: its cells are
    /// the boxes there) are not searched.
    func addingSheetBoxes(to quads: [DetectedQuad], in image: GrayImage, skipping: [Point] = [],
                          fields: [Quadrilateral] = [], pageOfGrid: Bool = false) -> [DetectedQuad] {
        let photoArea = Double(image.width * image.height)
        var sheets: [(index: Int?, quad: Quadrilateral)] = quads.enumerated().compactMap { i, sheet in
            sheet.parent == nil && !sheet.followsImageFrame && sheet.quad.area >= Self.sheetShare * photoArea
                ? (i, sheet.quad) : nil
        }
        let offSheets = fields.filter { field in !sheets.contains { $0.quad.contains(field.center) } }
        if !pageOfGrid, let recovered = Self.sheetOfFields(offSheets) { sheets.append((nil, recovered)) }
        var added: [DetectedQuad] = []
        for (i, sheet) in sheets {
            if skipping.contains(where: { sheet.contains($0) }) { continue }
            for quad in drawnBoxes(on: sheet, in: image) {
                let tolerance = Self.sameBoxShare * quad.shortestSide
                let known = (quads + added).enumerated().contains { k, other in
                    if k == i { return false }
                    if Self.sameCorners(other.quad, quad, within: tolerance) { return true }
                    // inside a larger quad the detector found that could be a box on the
                    // sheet (not the sheet again): that one's business
                    return k < quads.count && other.quad.area > quad.area
                        && other.quad.area <= Self.largestBoxShare * sheet.area && other.quad.contains(quad.center)
                }
                if !known { added.append(DetectedQuad(quad: quad, parent: nil, isHole: false, isLineMiddle: true)) }
            }
        }
        guard !added.isEmpty else { return quads }
        return Self.nested(quads + added)
    }

    /// The sheet under `fields` whose own outline no quad follows (the sheet below merged
    /// with it, a shadow across its edge, a curled corner): the fields are boxes drawn on
    /// it, rectangles on one plane, so the plane's axes (`PlaneAxes`, from at least
    /// `fieldsForSheet` fields that agree) give the rectangle they span there, grown by
    /// `sheetGrowth` on each side for the boxes beyond them. nil when too few agree.
    static func sheetOfFields(_ fields: [Quadrilateral]) -> Quadrilateral? {
        guard fields.count >= fieldsForSheet,
              let axes = PlaneAxes(rectangles: fields, minimumCount: fieldsForSheet) else { return nil }
        return axes.span(grownBy: sheetGrowth)
    }

    /// The boxes `LineBoxes` finds on `sheet` straightened (at most at the detection
    /// copy's scale: boxes are quads like the others), thresholded against its paper and
    /// in its ridges (`LineBoxes.boxes(in:ridges:largestShare:)`), as quads through their
    /// lines' middles in `image`; none covering over `largestBoxShare` of the sheet (its
    /// own border).
    func drawnBoxes(on sheet: Quadrilateral, in image: GrayImage) -> [Quadrilateral] {
        guard let (inks, ridges, toImage) = LineBoxes.straightenedInk(of: sheet, in: image, longestSide: detector.workingSize)
        else { return [] }
        var boxes: [Quadrilateral] = []
        let finder = LineBoxes(longerSide: max(ridges.width, ridges.height))
        for box in finder.boxes(in: inks, ridges: ridges, largestShare: Self.largestBoxShare) {
            let quad = Quadrilateral(ordering: [Point(box.left, box.top), Point(box.right, box.top),
                                                Point(box.right, box.bottom), Point(box.left, box.bottom)].map(toImage))
            if !boxes.contains(where: { Self.sameCorners($0, quad, within: Self.sameBoxShare * quad.shortestSide) }) {
                boxes.append(quad)
            }
        }
        return boxes
    }

    /// A sheet boxes are looked for on covers at least this share of the photo.
    static let sheetShare = 0.1
    /// The fewest fields agreeing on one plane that make a sheet of their own: two boxes
    /// in one perspective are a form; one could be a note.
    static let fieldsForSheet = 2
    /// A sheet recovered from its fields reaches this share of their span past them on
    /// each side (a form's boxes lie in a column or a row; a missed one lies beside them).
    static let sheetGrowth = 0.25
    /// A box covering more than this share of its sheet is the sheet's own border.
    static let largestBoxShare = 0.5
    /// Two quads whose corners all lie within this share of the box's shortest side of
    /// each other are the same box (its line's middle, its outer edge, its inner edge).
    static let sameBoxShare = 0.25

    /// Whether every corner of `a` lies within `tolerance` of a corner of `b`, taken in
    /// order from any start.
    static func sameCorners(_ a: Quadrilateral, _ b: Quadrilateral, within tolerance: Double) -> Bool {
        let ac = a.corners, bc = b.corners
        return (0..<4).contains { shift in (0..<4).allSatisfy { Polygon.distance(ac[$0], bc[($0 + shift) % 4]) <= tolerance } }
    }

    /// Quads sorted largest first, their parents set by the detector's own rule
    /// (`DetectedQuad.assignParents`).
    static func nested(_ quads: [DetectedQuad]) -> [DetectedQuad] {
        var sorted = quads.sorted { $0.quad.area > $1.quad.area }
        DetectedQuad.assignParents(&sorted)
        return sorted
    }
}
