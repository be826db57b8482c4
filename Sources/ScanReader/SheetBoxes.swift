import DocumentImaging
import ImagingCore

extension Layout {
    /// `quads` with the boxes drawn on each sheet added (`LineBoxes` on the straightened
    /// sheet), largest first with their nesting recomputed. A sheet is a quad inside no
    /// other, not along the photo's frame, covering at least `sheetShare` of the photo.
    /// A box is added only where the detector found nothing there already: not the same
    /// quad, and not inside a larger quad that could itself be a box on the sheet. Sheets
    /// holding a point of `skipping` (a grid read there: its cells are the boxes there)
    /// are not searched.
    func addingSheetBoxes(to quads: [DetectedQuad], in image: GrayImage, skipping: [Point] = []) -> [DetectedQuad] {
        let photoArea = Double(image.width * image.height)
        var added: [DetectedQuad] = []
        for (i, sheet) in quads.enumerated()
        where sheet.parent == nil && !sheet.followsImageFrame && sheet.quad.area >= Self.sheetShare * photoArea {
            if skipping.contains(where: { sheet.quad.contains($0) }) { continue }
            for quad in drawnBoxes(on: sheet.quad, in: image) {
                let tolerance = Self.sameBoxShare * quad.shortestSide
                let known = (quads + added).enumerated().contains { k, other in
                    if k == i { return false }
                    if Self.sameCorners(other.quad, quad, within: tolerance) { return true }
                    // inside a larger quad the detector found that could be a box on the
                    // sheet (not the sheet again): that one's business
                    return k < quads.count && other.quad.area > quad.area
                        && other.quad.area <= Self.largestBoxShare * sheet.quad.area && other.quad.contains(quad.center)
                }
                if !known { added.append(DetectedQuad(quad: quad, parent: nil, isHole: false, isLineMiddle: true)) }
            }
        }
        guard !added.isEmpty else { return quads }
        return Self.nested(quads + added)
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
