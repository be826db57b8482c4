public import ImagingCore
import Foundation

/// A quadrilateral found in a photo, with its nesting.
public struct DetectedQuad: Sendable {
    /// Corners in the input image's pixel coordinates (refined).
    public var quad: Quadrilateral
    /// Index (in the same list) of the smallest detected quad that encloses this one.
    public var parent: Int?
    /// True when found as a hole: a light region ringed by darker surroundings (a
    /// sticky note on a desk, a box's inside); false for a dark outline or frame.
    public var isHole: Bool
    /// True when two or more sides run along the photo's edges: usually the border of
    /// something larger than the photo (a desk, a page filling the frame), but also a
    /// grid photographed edge to edge. Not a field; may still be a grid.
    public var followsImageFrame: Bool = false
    /// True when found as a flat zone (`FlatZones`): a sheet or note, whose inside showed
    /// no lines at the coarse scale it was found at. Never a grid itself.
    public var isFlatPaper: Bool = false
    /// True when the quad runs along the middle of a drawn box's lines (`LineBoxes`):
    /// neither an outline's outer edge nor a hole's inner one.
    public var isLineMiddle: Bool = false
    /// For an outline (not a hole), the holes its ink rings, each as a share of the quad's
    /// area (at least `QuadDetector.smallestHoleShare`), largest first: a comb's or a
    /// box's cells, where a blob of ink (digits run together) rings only its small loops.
    /// nil when not measured (holes, flat paper, quads put together from others).
    public var holeShares: [Double]? = nil

    /// A quad and its place among the others (also for quads put together from parts).
    public init(quad: Quadrilateral, parent: Int?, isHole: Bool, followsImageFrame: Bool = false,
                isFlatPaper: Bool = false, isLineMiddle: Bool = false) {
        self.quad = quad
        self.parent = parent
        self.isHole = isHole
        self.followsImageFrame = followsImageFrame
        self.isFlatPaper = isFlatPaper
        self.isLineMiddle = isLineMiddle
    }
}

extension DetectedQuad {
    /// Sets each quad's parent, in list order (larger first): the last earlier quad
    /// containing its centre, the smallest enclosing one (a sheet whose corners stick out
    /// of a clutter quad still counts as inside it).
    public static func assignParents(_ quads: inout [DetectedQuad]) {
        for k in quads.indices {
            let center = quads[k].quad.center
            quads[k].parent = quads.indices.prefix(k).last { quads[$0].quad.contains(center) }
        }
    }
}

/// Finds rectangles (sheets, boxes, ruled grids) in a photo.
///
/// Detection runs on a reduced copy (the longer side near `workingSize`): adaptive
/// binarization, border following (Suzuki & Abe 1985), Douglas–Peucker simplification
/// and a quadrilateral test. Four passes, each for what it sees best (see `passes`):
/// the primary threshold of the mean-reduced copy (frames, boxes, print-sized lines);
/// the same threshold of a copy reduced keeping each block's darkest pixel (ruling lines
/// thinner than the reduction, which averaging fades); a sensitive, gap-closing
/// threshold for paper (a light sheet or note ringed by a darker desk); and the primary
/// ink less a shadow's edge (boxes a shadow crosses). The inside of a box whose sides bend
/// (a form on a curled page) is taken last, where no pass found the box straight
/// (`bentBox`), and so is a frame whose thin line broke (`isBrokenFrame`); sheets and notes
/// are also taken as flat zones of a coarse copy, told from the desk by brightness or
/// colour (`flatPaper`). Each accepted quad's sides are then re-fitted by total
/// least squares to the border points near them and intersected (a quad with a side its
/// border leaves is re-read from the border's own straight runs, see `SideSupport`), and
/// the corners are mapped back to full resolution and refined there along the edge.
public struct QuadDetector: Sendable {
    /// Longer side of the detection copy, pixels.
    public var workingSize = 1000
    /// Smallest accepted quad, as a fraction of the image area.
    public var minimumAreaFraction = 0.002
    /// Interior angles outside this range (degrees) reject a quad.
    public var angleRange: ClosedRange<Double> = 35...145
    /// Longest side over shortest side above this rejects a quad.
    public var maximumAspect = 25.0
    /// Thresholding used for detection.
    public var binarization = BinarizationMethod.localMean()
    /// A more sensitive threshold whose quads are added to the others' (paper ringed by a
    /// slightly darker desk, and in an unreduced photo faint thin frames, only close at a
    /// low threshold; clutter merges at a low one). nil: no such pass.
    public var sensitiveBinarization: BinarizationMethod? = .localMean(window: 0, percent: 5)
    /// How many of the largest quads get full-resolution edge refinement.
    public var refinedQuads = 12
    /// Dilate the sensitive threshold's copy once before tracing borders (joins broken
    /// faint lines); the others are traced undilated, so print beside a frame stays apart.
    public var closesGaps = true
    /// Trace, when the photo is reduced for detection, a copy reduced keeping each
    /// block's darkest pixel (pass 2 of `passes`): finds frames of lines thinner than the
    /// reduction. Off: the mean-reduced copies only.
    public var keepsThinLines = true
    /// Trace the detection copy's ridges (pass 7 of `passes`): finds frames drawn in a
    /// hairline of pale ink, too faint for any threshold. Off: thresholded copies only.
    public var tracesRidges = true
    /// Also take sheets and notes found as flat zones of a coarse copy (`FlatZones`):
    /// paper whose edge is too faint, or of the wrong polarity, for any ink threshold.
    public var findsFlatPaper = true

    /// Default settings.
    public init() {}

    /// How many pixels of `image` make one of the detection copy's (a side at most
    /// `workingSize`).
    public func reduction(of image: GrayImage) -> Int {
        max(1, Int((Double(max(image.width, image.height)) / Double(workingSize)).rounded(.up)))
    }

    /// How far across its edge (pixels of `image`) a quad's corners are refined
    /// (`EdgeRefiner`): two pixels of the detection copy each way, and two more.
    public func edgeSearchRadius(in image: GrayImage) -> Double {
        Double(reduction(of: image)) * 2 + 2
    }

    /// The quads in `image`, largest first, each with its enclosing quad. With the photo's
    /// `chroma` (its planes going with `image`), paper is also told from the desk by its
    /// colour (`FlatZones`).
    /// Complexity: O(pixels / reduction²) for detection plus O(border length).
    public func detect(in image: GrayImage, chroma: ChromaPlanes? = nil) -> [DetectedQuad] {
        let factor = reduction(of: image)
        let small = image.reduced(by: factor)
        let minArea = minimumAreaFraction * Double(small.width * small.height)
        let tolerance = Self.sameQuadShare * Double(max(small.width, small.height))
        var found = traced(image: image, small: small, factor: factor, minArea: minArea, tolerance: tolerance)
        if findsFlatPaper {
            addFlatPaper(to: &found, small: small, chroma: chroma?.forReduced(by: factor), tolerance: tolerance)
        }
        return detected(found, in: image, factor: factor, chroma: chroma)
    }

    /// Adds to `found` (the traced candidates, in the detection copy `small`) the sheets
    /// and notes found as flat zones (`flatPaper`) that no traced quad stands for and that
    /// lie in no box of about their size the ink passes found. `smallChroma`: the photo's
    /// colour planes reduced to `small`.
    func addFlatPaper(to found: inout [Candidate], small: GrayImage, chroma smallChroma: ChromaPlanes?, tolerance: Double) {
        // the boxes paper could be part of: ink-found quads within the photo (a quad
        // along its frame is the desk's or the page's edge, not a box)
        let inked = found.filter { !$0.followsFrame }.map(\.quad)
        for paper in flatPaper(in: small, chroma: smallChroma, minimumAreaFraction: minimumAreaFraction) {
            // an outline that takes in paper of another colour around it (a note on a
            // sheet peeking out) is neither the paper's duplicate nor a box it lies in
            func takesInOtherPaper(_ outline: Quadrilateral) -> Bool {
                smallChroma.map { FlatZones.aroundIsOtherPaper(paper.quad, in: outline, gray: small, chroma: $0) } ?? false
            }
            let duplicate = found.contains { f in
                zip(f.quad.corners, paper.quad.corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
                    && !takesInOtherPaper(f.quad)
            }
            // inside a box the ink passes found, the box's outline bounds it (a part
            // of the box cut off by a shadow's edge is no sheet)
            let inBox = inked.contains { box in
                box.area > paper.quad.area && box.area < Self.paperInBoxRatio * paper.quad.area
                    && box.contains(paper.quad.center) && !takesInOtherPaper(box)
            }
            if !duplicate && !inBox {
                found.append(Candidate(quad: paper.quad, isHole: paper.lighterInside,
                                       followsFrame: Self.followsImageFrame(paper.quad, width: small.width,
                                                                            height: small.height),
                                       isPaper: true))
            }
        }
    }

    /// The `found` candidates (detection-copy corners, reduced `factor` times from
    /// `image`) as detected quads: largest first, corners mapped to `image` and, for the
    /// largest (`refinedQuads`) and for paper, refined along their edges there; paper or a
    /// hole whose outline took in a sheet of another colour peeking out (`FlatZones
    /// .innerPaper`, with `chroma`) is the paper inside; each with its parent.
    func detected(_ found: [Candidate], in image: GrayImage, factor: Int, chroma: ChromaPlanes?) -> [DetectedQuad] {
        var found = found
        // reduced pixel i covers full-resolution pixels i·f … i·f + f − 1
        let toFull = { (p: Point) in
            Point(p.x * Double(factor) + Double(factor - 1) / 2, p.y * Double(factor) + Double(factor - 1) / 2)
        }
        found.sort { $0.quad.area > $1.quad.area }
        var result: [DetectedQuad] = []
        var rank = 0
        for item in found {
            let full = item.quad.mapped(toFull)
            // edge refinement at full resolution for the largest quads (sheets, grids,
            // boxes); small ones (cells inside a grid) keep their line-fitted corners.
            // Flat paper does not take a place among them
            if !item.isPaper { rank += 1 }
            let refined = item.isPaper || rank <= refinedQuads
                ? EdgeRefiner.refine(full, in: image, searchRadius: edgeSearchRadius(in: image), darkInside: !item.isHole) ?? full
                : full
            // paper whose outline took in a sheet below it, peeking out in another colour:
            // the paper inside
            var kept = refined
            if item.isPaper || item.isHole, let chroma,
               let inner = FlatZones.innerPaper(of: refined, gray: image, chroma: chroma) { kept = inner }
            var detected = DetectedQuad(quad: kept, parent: nil, isHole: item.isHole,
                                        followsImageFrame: item.followsFrame, isFlatPaper: item.isPaper)
            detected.holeShares = item.holeShares
            result.append(detected)
        }
        DetectedQuad.assignParents(&result)
        return result
    }

    /// The areas `holes` (an outline's) enclose, as shares of `area` (its quad's), at
    /// least `smallestHoleShare`, largest first.
    public static func holeShares(_ holes: [Contour], area: Double) -> [Double] {
        guard area > 0 else { return [] }
        return holes.map { abs(Polygon.signedArea($0.points)) / area }.filter { $0 >= smallestHoleShare }.sorted(by: >)
    }

    /// The smallest hole kept in `DetectedQuad.holeShares`: a quarter of a cell of a
    /// 16-cell grid (the layout asks for cells only of grids of fewer).
    public static let smallestHoleShare = 1.0 / 64

    /// A hole whose quad covers more than this share of its outline's is the outline's
    /// inner edge: the two borders of one drawn line.
    static let innerEdgeShare = 0.6

    /// The quad of a box on a curled page, traced from the `hole` inside it, with sides
    /// bent a little (`bendTurn`); nil unless the hole fills its `outline` as the inside
    /// of a drawn box does (`innerEdgeShare` of its hull: the border between them is one
    /// line, not a stroke or a shadow cutting the box).
    func bentBox(hole: [Point], outline: [Point], minArea: Double) -> Quadrilateral? {
        // cheap rejection first: most holes are a letter's or a digit's, far under a box
        guard hole.count >= 16 else { return nil }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in hole { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        guard (x1 - x0 + 1) * (y1 - y0 + 1) >= minArea, abs(Polygon.signedArea(Polygon.convexHull(hole)))
                > Self.innerEdgeShare * abs(Polygon.signedArea(Polygon.convexHull(outline))) else { return nil }
        return quadrilateral(for: hole, minArea: minArea, allowingBends: true)
    }

    /// See `Pass.outlinesOnlyWhereMissed`.
    static let mergedShare = 0.5

    /// The closing window of the shadow-free pass (4 in `passes`), as a share of the
    /// detection copy's longer side: twice the thickest drawn line
    /// (`LineBoxes.thicknessShare`), so the paper around a line fills it.
    static let shadowFreeWindowShare = 2 * LineBoxes.thicknessShare

    /// A quad with a side its border runs along for less than this share of the side's
    /// length (`sideSupport`) is a poor fit of that border: a blob merged with a corner
    /// pulled the hull out. It is read again from the border's straight runs, and does not
    /// stand for the outline when a later pass traces it whole.
    static let leastSideSupport = 0.5

    /// True when `border` runs along every side of `quad` for at least `leastSideSupport`
    /// of its length.
    static func fitsBorder(_ quad: Quadrilateral, border: [Point]) -> Bool {
        sideSupport(of: quad, border: border).allSatisfy { $0 >= leastSideSupport }
    }

    /// True when `quad`, traced from the outline `border`, is the hull of separate things
    /// a dark rim joined (a light note and the sheet beside it, ringed together by the
    /// threshold's rim on a darker desk): its border leaves one of its sides for most of
    /// the side's length (`fitsBorder`, after the border's straight runs were tried), and
    /// does not lie on its sides as a drawn outline's does (`isDrawn`). Such a quad closes
    /// across open desk; each thing in it is found by its own outline.
    /// `fits`: `fitsBorder(quad, border:)`, which the caller has measured.
    static func isMergedHull(_ quad: Quadrilateral, border: [Point], fits: Bool) -> Bool {
        !fits && borderShareOnSides(of: quad, border: border, band: drawnOutlineBand) < drawnOutlineShare
    }

    /// The share of a drawn outline's border lying on its quad's sides (within
    /// `drawnOutlineBand`), where a pass asks for it (`isDrawn`): a frame's border is its
    /// sides; the hull of merged texture touches the border only at its crests.
    static let drawnOutlineShare = 0.8
    /// How near (detection pixels) a drawn outline's border keeps to its sides: a
    /// printed line, reduced to the detection copy, is straight to a pixel or two.
    static let drawnOutlineBand = 2.0

    /// True when `quad`, traced from `border`, is a drawn outline: its border lies on its
    /// sides (`drawnOutlineShare`), or it is a frame with a gap (`isBrokenFrame`), and it
    /// does not follow the photo's frame; not the hull of merged texture, of a frame merged
    /// with a shadow's edge, or of a desk running off the photo.
    static func isDrawn(_ quad: Quadrilateral, border: [Point], followsFrame: Bool) -> Bool {
        !followsFrame && (borderShareOnSides(of: quad, border: border, band: drawnOutlineBand) >= drawnOutlineShare
            || (!enclosesHull(border, hullArea: quad.area) && isBrokenFrame(quad, border: border)))
    }

    /// Sheets and notes found as flat zones (`FlatZones`) whose outline is a quad, in
    /// `small`'s coordinates, each moved onto the strongest edge near it in `small` (the
    /// zones are traced on a coarser copy), with whether it is lighter than around it.
    public func flatPaper(in small: GrayImage, chroma: ChromaPlanes? = nil,
                          minimumAreaFraction: Double) -> [(quad: Quadrilateral, lighterInside: Bool)] {
        let (cf, coarse, masks, colour) = FlatZones.zones(of: small, chroma: chroma)
        let minArea = minimumAreaFraction * Double(coarse.width * coarse.height)
        let toSmall = { (p: Point) in Point(p.x * Double(cf) + Double(cf - 1) / 2, p.y * Double(cf) + Double(cf - 1) / 2) }
        var papers: [(quad: Quadrilateral, lighterInside: Bool)] = []
        for mask in masks {
            guard let outer = mask.contours().filter({ !$0.isHole }).max(by: { $0.points.count < $1.points.count }),
                  outer.points.count >= 16, let rough = quadrilateral(for: outer.points, minArea: minArea) else { continue }
            // paper lying on something: its outline's sides are edges that end at its corners
            guard FlatZones.outlinesPaper(rough, in: coarse, colour: colour) else { continue }
            let contrasts = FlatZones.sideContrasts(of: rough, in: coarse).map(\.middle)
            let lighter = contrasts.reduce(0, +) > 0
            let quad = rough.mapped(toSmall)
            papers.append((EdgeRefiner.refine(quad, in: small, searchRadius: Double(cf) * 2 + 2, darkInside: !lighter) ?? quad,
                           lighter))
        }
        return papers
    }

    /// True when the band between `outer` and `hole` (an outline and the hole just inside
    /// it) is the dark rim a local threshold leaves around light paper on a darker desk,
    /// not a drawn frame: just outside the outline it is still far darker than the paper
    /// inside the hole (more than half as dark as the band), where a frame has paper on
    /// both sides.
    static func isRimOfDesk(outer: Quadrilateral, hole: Quadrilateral, in image: GrayImage) -> Bool {
        func ring(_ q: Quadrilateral, _ offset: Double) -> Double? {
            var sum = 0.0, n = 0.0
            for (a, side, length) in q.sides {
                let normal = FlatZones.outwardNormal(side.direction)
                for k in 0..<12 {
                    let t = (0.1 + 0.8 * Double(k) / 11) * length
                    guard let v = FlatZones.grey(image, from: a, along: side.direction, normal: normal, at: t, offset: offset)
                    else { continue }
                    sum += v; n += 1
                }
            }
            return n < 8 ? nil : sum / n
        }
        let band = Quadrilateral(topLeft: mid(outer.topLeft, hole.topLeft), topRight: mid(outer.topRight, hole.topRight),
                                 bottomRight: mid(outer.bottomRight, hole.bottomRight),
                                 bottomLeft: mid(outer.bottomLeft, hole.bottomLeft))
        guard let outside = ring(outer, 3), let inside = ring(hole, -3), let rim = ring(band, 0), inside > rim else { return false }
        return inside - outside > Self.deskRimDarkness * (inside - rim)
    }

    /// See `isRimOfDesk`: just outside a desk's rim the desk is at least this share as
    /// dark (below the paper) as the rim itself.
    static let deskRimDarkness = 0.5

    static func mid(_ a: Point, _ b: Point) -> Point { Point((a.x + b.x) / 2, (a.y + b.y) / 2) }

    /// A flat zone inside a quad of the ink passes (larger than it, but under this many
    /// times its area) is part of that box, not paper lying on it.
    static let paperInBoxRatio = 4.0

    /// Two quads of one pass or of two passes are one when their corners lie within this
    /// share of the detection copy's longer side of each other; a side lies along the
    /// photo's edge within this share of its width (height) (`followsImageFrame`); a
    /// spike off an outline is cut at a neck this share of its longer side wide
    /// (`quadrilateral(for:)`): a pixel or two of a copy about 1000 px across, a line's width.
    static let sameQuadShare = 0.015

    /// True when two or more sides run along the image's edges (within `sameQuadShare`):
    /// the border of something larger than the photo (a desk, a page filling the frame),
    /// not an object in it.
    static func followsImageFrame(_ quad: Quadrilateral, width: Int, height: Int) -> Bool {
        let mx = sameQuadShare * Double(width), my = sameQuadShare * Double(height)
        let c = quad.corners
        var sides = 0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            if (a.x < mx && b.x < mx) || (a.x > Double(width) - 1 - mx && b.x > Double(width) - 1 - mx)
                || (a.y < my && b.y < my) || (a.y > Double(height) - 1 - my && b.y > Double(height) - 1 - my) {
                sides += 1
            }
        }
        return sides >= 2
    }

    /// The quad a border outlines, or nil. The border's convex hull is simplified, so
    /// breaks in a ruled frame (the border then wanders into the cells) and ticks on
    /// its outside do not matter; the border must still fill most of the quad.
    /// `allowingBends`: a quad whose sides bend a little (`bendTurn`) is taken too when no
    /// straight one is found; for holes, light regions ringed by ink (a box's inside on a
    /// curled page), not for dark outlines, which texture also makes (a wood grain's streak).
    public func quadrilateral(for points: [Point], minArea: Double, allowingBends: Bool = false) -> Quadrilateral? {
        // cheap rejection first: most borders are specks whose bounding box is too small
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for p in points { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        guard (x1 - x0 + 1) * (y1 - y0 + 1) >= minArea else { return nil }
        if let quad = quadrilateral(outlining: points, minArea: minArea, allowingBends: allowingBends) {
            // a side the border leaves for most of its length: a blob merged with a
            // corner pulled the hull out; the border's own straight runs may still close
            guard !Self.fitsBorder(quad, border: points) else { return quad }
            return quadrilateral(fromStraightRunsOf: points, minArea: minArea) ?? quad
        }
        // a fold line or a stroke touching the frame, traced out and back, spoils the
        // hull: cut such spikes off and look again
        guard points.count >= 200, (x1 - x0 + 1) * (y1 - y0 + 1) >= 5 * minArea else { return nil }
        let trimmed = Polygon.removingSpikes(points, neck: max(3, Self.sameQuadShare * max(x1 - x0, y1 - y0)))
        guard trimmed.count < points.count else { return nil }
        return quadrilateral(outlining: trimmed, minArea: minArea, allowingBends: allowingBends)
    }

    /// The quad whose outline `points` trace (see `quadrilateral(for:minArea:)`): its
    /// straight sides, or failing that, where `allowingBends`, its sides bent a little.
    private func quadrilateral(outlining points: [Point], minArea: Double, allowingBends: Bool) -> Quadrilateral? {
        let hull = Polygon.convexHull(points)
        let hullArea = abs(Polygon.signedArea(hull))
        guard hullArea >= minArea, hull.count >= 4 else { return nil }
        var perimeter = 0.0
        for i in hull.indices { perimeter += Polygon.distance(hull[i], hull[(i + 1) % hull.count]) }
        guard Self.enclosesHull(points, hullArea: hullArea) else {
            // a border that encloses little of its hull is an open outline: a stroke, a
            // blob's ragged edge, or a drawn frame with a gap (a thin line aslant breaks
            // between rows of pixels where it is palest), traced outside and back inside
            guard let quad = quadrilateral(hull: hull, hullArea: hullArea, perimeter: perimeter, border: points, bent: false),
                  Self.isBrokenFrame(quad, border: points) else { return nil }
            return quad
        }
        return quadrilateral(hull: hull, hullArea: hullArea, perimeter: perimeter, border: points, bent: false)
            ?? (allowingBends ? quadrilateral(hull: hull, hullArea: hullArea, perimeter: perimeter, border: points, bent: true) : nil)
    }

    /// The quad of a border's convex hull simplified ever more coarsely. `bent`: the hull's
    /// bends are straightened first (`Polygon.straighteningBends`), the quad measured
    /// against what remains, and its corners kept where the outline turns (a bent side
    /// has no one straight line to re-fit).
    private func quadrilateral(hull: [Point], hullArea: Double, perimeter: Double, border points: [Point],
                               bent: Bool) -> Quadrilateral? {
        for fraction in Self.simplifications {
            var polygon = Polygon.simplified(closed: hull, epsilon: fraction * perimeter)
            if polygon.count < 4 { return nil }
            var outlineArea = hullArea
            if bent {
                // only where bends were straightened, or where the four corners are all the
                // simplification kept and the outline keeps within a bend's sag of the
                // sides between them: the rest the straight pass has seen
                if let straightened = Polygon.straighteningBends(polygon, bend: bendTurn),
                   straightened.count < polygon.count {
                    polygon = straightened
                    if polygon.count < 4 { return nil }
                } else if polygon.count != 4 || !Self.keepsToSides(Quadrilateral(ordering: polygon), border: points, sag: bendSag) {
                    continue
                }
                outlineArea = abs(Polygon.signedArea(polygon))
            }
            // a corner cut off (a faint stretch of frame) or capped by touching ink
            // leaves a short extra side: the four long sides still make the quad
            guard polygon.count <= 6, let corners = Self.fourLongestSides(of: polygon) else { continue }
            guard Polygon.isConvex(corners) else { return nil }
            let rough = Quadrilateral(ordering: corners)
            // the quad must account for the outline's area (not a pentagon cut short) and
            // add little to it (not a pentagon or hexagon made square)
            guard rough.area > Self.leastOutlineShare * outlineArea,
                  rough.area < (polygon.count == 4 ? Self.mostAddedArea : Self.mostAddedAreaCut) * outlineArea
            else { return nil }
            let quad = bent ? rough : (LineFit.refit(rough, to: points) ?? rough)
            guard quad.interiorAngles.allSatisfy({ angleRange.contains($0) }) else { return nil }
            let sides = quad.corners.indices.map { Polygon.distance(quad.corners[$0], quad.corners[($0 + 1) % 4]) }
            guard let shortest = sides.min(), shortest > 4, sides.max()! / shortest <= maximumAspect else { return nil }
            return quad
        }
        return nil
    }

    /// The tolerances a hull is simplified with in turn (`quadrilateral(hull:…)`), as shares
    /// of its perimeter: the finest first, so a quad keeps its true corners where it has them.
    static let simplifications = [0.01, 0.02, 0.035, 0.05]
    /// A quad taken from a simplified hull covers at least this share of the outline's
    /// area (not a pentagon cut short)…
    static let leastOutlineShare = 0.9
    /// …and adds at most this much to it (not a pentagon or hexagon made square) — or
    /// `mostAddedAreaCut` when a corner was cut off (a faint stretch of frame) or capped
    /// by touching ink and its four long sides were extended to meet.
    static let mostAddedArea = 1.1
    /// See `mostAddedArea`.
    static let mostAddedAreaCut = 1.15

    /// A vertex of an outline where it turns by less than this (degrees), with its
    /// neighbours' less in all, bends a side (a box on a curled page) and is no corner:
    /// half the least a corner turns (`angleRange`: at most 145° inside, 35° of turn).
    var bendTurn: Double { (180 - angleRange.upperBound) / 2 }

    /// How far, as a share of a side's length, an outline may lie off the straight side
    /// between two corners when the side is bent by at most `bendTurn` in all: the sag of
    /// a circular arc turning that much, tan(turn / 4) / 2 (about 3.8 %). A narrow box on
    /// a curled page bows by a few pixels along its length; the area its hull adds is then
    /// a large share of the box (`leastOutlineShare`), but its sag a small share of its
    /// length (`keepsToSides`).
    var bendSag: Double { tan(bendTurn / 4 * .pi / 180) / 2 }

    /// True when every point of `border` lies near a side of `quad` (`borderShareOnSides`):
    /// within `sag` of the quad's longest side, or within `drawnOutlineBand`. A page's curl
    /// moves the points of a box on it by about as much across its short sides as across
    /// its long ones, so the band is one for all four sides.
    static func keepsToSides(_ quad: Quadrilateral, border: [Point], sag: Double) -> Bool {
        let band = max(drawnOutlineBand, sag * quad.sides.map(\.length).max()!)
        return borderShareOnSides(of: quad, border: border, band: band) == 1
    }

    /// The corners where the four longest sides of a convex polygon (4–6 corners) meet,
    /// when every other side is short (under `shortSideShare` of the shortest kept one);
    /// else nil.
    static func fourLongestSides(of polygon: [Point]) -> [Point]? {
        let n = polygon.count
        if n == 4 { return polygon }
        let lengths = (0..<n).map { Polygon.distance(polygon[$0], polygon[($0 + 1) % n]) }
        let kept = (0..<n).sorted { lengths[$0] > lengths[$1] }.prefix(4).sorted()
        let dropped = (0..<n).filter { !kept.contains($0) }
        guard let shortestKept = kept.map({ lengths[$0] }).min(),
              dropped.allSatisfy({ lengths[$0] < shortSideShare * shortestKept }) else { return nil }
        var corners: [Point] = []
        for (k, side) in kept.enumerated() {
            let next = kept[(k + 1) % 4]
            let a = Line(through: polygon[side], polygon[(side + 1) % n])
            let b = Line(through: polygon[next], polygon[(next + 1) % n])
            guard let corner = a.intersection(b) else { return nil }
            corners.append(corner)
        }
        return corners
    }

    /// See `fourLongestSides`: a side under this share of the shortest of the four
    /// longest is a corner cut off, not a side.
    static let shortSideShare = 0.5
}
