public import ImagingCore

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
    /// Trace the detection copy's ridges (pass 6 of `passes`): finds frames drawn in a
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
        // reduced pixel i covers full-resolution pixels i·f … i·f + f − 1
        let toFull = { (p: Point) in
            Point(p.x * Double(factor) + Double(factor - 1) / 2, p.y * Double(factor) + Double(factor - 1) / 2)
        }
        var found: [Candidate] = []
        var bentBoxes: [Quadrilateral] = []
        var brokenFrames: [Candidate] = []
        let tolerance = Self.sameQuadShare * Double(max(small.width, small.height))
        let methods = [binarization] + (sensitiveBinarization.map { [$0] } ?? [])
        var binaries: [BinaryImage]
        if case let .localMean(w1, p1) = binarization, case let .localMean(w2, p2)? = sensitiveBinarization, w1 == w2 {
            binaries = small.localMeanBinarizations(window: w1, percents: [p1, p2])   // one integral image
        } else {
            binaries = methods.map { small.binarized($0) }
        }
        for pass in passes(image: image, small: small, factor: factor, binaries: binaries) {
            let earlier = found.map { ($0.quad, $0.fitsBorder) }
            let contours = pass.binary.contours()
            // each outline's holes (its cells, for `DetectedQuad.holeShares`)
            var holesOf: [Int: [Int]] = [:]
            for (k, contour) in contours.enumerated() where contour.isHole {
                if let parent = contour.parent { holesOf[parent, default: []].append(k) }
            }
            let holeSharesOf = { (index: Int, quad: Quadrilateral) -> [Double]? in
                guard !contours[index].isHole else { return nil }
                let holes = Self.holeShares(holesOf[index, default: []].map { contours[$0] }, area: quad.area)
                // a frame with a gap rings no hole: its inside is open to the outside
                let border = contours[index].points
                return Self.enclosesHull(border, hullArea: quad.area) ? holes
                    : ([max(0, 1 - abs(Polygon.signedArea(border)) / quad.area)] + holes).sorted(by: >)
            }
            var quadOfContour: [Int: Quadrilateral?] = [:]
            var foundOfContour: [Int: Int] = [:]   // where a contour's quad went in `found`
            var mergedHulls: Set<Int> = []   // outlines dropped as `isMergedHull`
            let quadOf = { (index: Int) -> Quadrilateral? in
                if let known = quadOfContour[index] { return known }
                let contour = contours[index]
                var quad = contour.points.count >= 16 ? self.quadrilateral(for: contour.points, minArea: minArea) : nil
                // a strip of a table's cells whose frame broke is no box
                if let q = quad, !Self.enclosesHull(contour.points, hullArea: q.area),
                   Self.isDividedAcross(q, in: binaries[0]) { quad = nil }
                quadOfContour[index] = quad
                return quad
            }
            for (index, contour) in contours.enumerated() where pass.takesHoles || !contour.isHole {
                guard let quad = quadOf(index) else {
                    // the inside of a box on a curled page: its outline has no straight quad
                    if contour.isHole, let parent = contour.parent, quadOf(parent) == nil,
                       let bent = bentBox(hole: contour.points, outline: contours[parent].points, minArea: minArea) {
                        bentBoxes.append(bent)
                    }
                    continue
                }
                let followsFrame = Self.followsImageFrame(quad, width: small.width, height: small.height)
                if contour.isHole ? pass.holesDrawnOnly : pass.outlinesDrawnOnly,
                   !Self.isDrawn(quad, border: contour.points, followsFrame: followsFrame) {
                    continue
                }
                if !contour.isHole, pass.outlinesOnlyWhereMissed, Self.isFoundEarlier(quad, among: earlier) {
                    continue
                }
                // a hole just inside an outline is that outline's inner edge; but where the
                // outline is the dark rim the threshold leaves around light paper on a dark
                // desk (darker outside it too), the hole is the paper's own edge: it
                // replaces the outline
                if contour.isHole, let parent = contour.parent, !mergedHulls.contains(parent), let outer = quadOf(parent),
                   quad.area > Self.innerEdgeShare * outer.area {
                    if let k = foundOfContour[parent], Self.isRimOfDesk(outer: outer, hole: quad, in: small) {
                        found[k] = Candidate(quad: quad, isHole: true, followsFrame: followsFrame)
                    }
                    continue
                }
                // a frame with a gap is taken last, where no pass traced it closed
                if !contour.isHole, !Self.enclosesHull(contour.points, hullArea: quad.area) {
                    brokenFrames.append(Candidate(quad: quad, isHole: false, followsFrame: followsFrame,
                                                  holeShares: holeSharesOf(index, quad),
                                                  fitsBorder: Self.fitsBorder(quad, border: contour.points)))
                    continue
                }
                // the same quad seen in an earlier pass counts once
                let duplicate = found.contains { f in
                    zip(f.quad.corners, quad.corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
                }
                // the hull of things a dark rim joined (a note and the sheet beside it, on a
                // darker desk) closes across open desk: no box (what it held is found apart)
                let fits = contour.isHole || Self.fitsBorder(quad, border: contour.points)
                if Self.isMergedHull(quad, border: contour.points, fits: fits) {
                    mergedHulls.insert(index)
                    continue
                }
                if !duplicate {
                    foundOfContour[index] = found.count
                    found.append(Candidate(quad: quad, isHole: contour.isHole, followsFrame: followsFrame,
                                           holeShares: holeSharesOf(index, quad),
                                           fitsBorder: fits))
                }
            }
        }
        // bent boxes and broken frames last: where no pass found the box straight and
        // closed (the same corners, or a quad of about its size around its middle: its
        // outline, `innerEdgeShare` larger at most, or its inside; not a smaller quad in it,
        // such as digits run together)
        let standsFor = { (f: Candidate, box: Quadrilateral) in
            zip(f.quad.corners, box.corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
                || (f.quad.contains(box.center) && f.quad.area < box.area / Self.innerEdgeShare
                    && f.quad.area > Self.innerEdgeShare * box.area)
        }
        for bent in bentBoxes where !found.contains(where: { standsFor($0, bent) }) {
            found.append(Candidate(quad: bent, isHole: true,
                                   followsFrame: Self.followsImageFrame(bent, width: small.width, height: small.height)))
        }
        for broken in brokenFrames where !found.contains(where: { standsFor($0, broken.quad) }) {
            found.append(broken)
        }
        if findsFlatPaper {
            // the boxes paper could be part of: ink-found quads within the photo (a quad
            // along its frame is the desk's or the page's edge, not a box)
            let inked = found.filter { !$0.followsFrame }.map(\.quad)
            let smallChroma = chroma?.forReduced(by: factor)
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

    /// A quad `detect` has taken, before refinement, with what it knows of it.
    struct Candidate {
        /// Corners in the detection copy.
        var quad: Quadrilateral
        /// Found as a hole (light inside, ink around), or as light paper.
        var isHole: Bool
        /// Two or more sides run along the photo's edges (`followsImageFrame`).
        var followsFrame: Bool
        /// Found as a flat zone (`flatPaper`).
        var isPaper = false
        /// The holes its ink rings, as shares of its area (`DetectedQuad.holeShares`).
        var holeShares: [Double]? = nil
        /// Its own border runs along each of its sides (`fitsBorder`, `leastSideSupport`),
        /// so it stands for that outline in `Pass.outlinesOnlyWhereMissed`.
        var fitsBorder = true
    }

    /// One binary copy to trace, and which of its borders are taken: all, or for outer
    /// borders and for holes (light regions ringed by darker ones) separately only drawn
    /// ones (`isDrawn`).
    struct Pass {
        let binary: BinaryImage
        /// Take an outer border's quad only when it is drawn.
        var outlinesDrawnOnly = false
        /// Take a hole's quad only when it is drawn.
        var holesDrawnOnly = false
        /// Take an outer border's quad only when no earlier pass found one making up more
        /// than `mergedShare` of it: that one is the same frame, the later one it merged
        /// with what lies beside it (the sheet below, a shadow's edge).
        var outlinesOnlyWhereMissed = false
        /// Take holes at all (a dilated copy's holes are as often the gaps between digits
        /// the dilation joined as a box's inside).
        var takesHoles = true
    }

    /// True when one of the `earlier` quads stands for `quad`'s outline (see
    /// `Pass.outlinesOnlyWhereMissed`): it makes up more than `mergedShare` of it, lies in
    /// it, and fits its own border (`fitsBorder`: every side at least `leastSideSupport`
    /// followed). A quad with a side its border leaves (a frame's hull pulled out to a line
    /// beside it) has not found the frame, and does not keep a later pass from tracing it.
    static func isFoundEarlier(_ quad: Quadrilateral, among earlier: [(quad: Quadrilateral, fitsBorder: Bool)]) -> Bool {
        earlier.contains { q, fits in
            fits && q.area > mergedShare * quad.area && q.area <= quad.area && quad.contains(q.center)
        }
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

    /// The copies traced, in order (a quad seen again later counts once):
    /// 1. the primary threshold of the mean-reduced copy, undilated, so print beside a
    ///    frame stays apart: every border;
    /// 2. when the photo was reduced, the primary threshold of a copy reduced keeping each
    ///    block's darkest pixel: a ruling line thinner than the reduction keeps its full
    ///    contrast there, where the mean fades it to a fraction. Texture darkened the same
    ///    way merges into blobs: only drawn borders (`isDrawn`);
    /// 3. the sensitive threshold, dilated once when `closesGaps` (joins broken faint
    ///    lines): every hole (paper ringed by a darker desk); in a reduced photo only drawn
    ///    outer borders that the passes before missed (a frame closed by the dilation),
    ///    since a low, dilated threshold also merges a frame with the shadow edge or the
    ///    sheet beside it. In an unreduced photo every border;
    /// 4. the primary threshold's ink that is also darker, by the primary's percent, than
    ///    the paper as a grey-level closing measures it (`shadowFreeWindowShare`): a
    ///    shadow's edge keeps its step under
    ///    a closing, so the band the local mean makes along its dark side is gone, and a
    ///    box or frame the edge crosses is traced whole, where the first pass closed its
    ///    lit part along the band. Only drawn borders, outlines only where missed;
    /// 5. when `closesGaps`, that shadow-free ink dilated once: a thin, pale line drawn
    ///    aslant falls between rows of pixels and breaks where it is palest, and the
    ///    sensitive pass that would join it merges it with the shadow's band. Only drawn
    ///    outlines, where missed, and no holes (the gaps between digits the dilation
    ///    joins would pass for boxes);
    /// 6. when `tracesRidges`, the copy's ridges (`GrayImage.ridges`): a frame drawn in a
    ///    hairline of pale ink, a few grey levels below the paper, is a thin closed line
    ///    there where every threshold set by darker print keeps only specks of it. Every
    ///    stroke's middle is a ridge too: only drawn outlines, where missed, no holes.
    func passes(image: GrayImage, small: GrayImage, factor: Int, binaries: [BinaryImage]) -> [Pass] {
        var passes = [Pass(binary: binaries[0])]
        if factor > 1 && keepsThinLines {
            passes.append(Pass(binary: image.reducedKeepingDarkest(by: factor).binarized(binarization),
                               outlinesDrawnOnly: true, holesDrawnOnly: true))
        }
        for sensitive in binaries.dropFirst() {
            passes.append(Pass(binary: closesGaps ? sensitive.dilated() : sensitive, outlinesDrawnOnly: factor > 1,
                               outlinesOnlyWhereMissed: factor > 1))
        }
        if case let .localMean(_, percent) = binarization {
            let window = max(5, Int((Self.shadowFreeWindowShare * Double(max(small.width, small.height))).rounded()))
            let shadowFree = small.inkBelowClosing(binaries[0], window: window, percent: percent)
            passes.append(Pass(binary: shadowFree,
                               outlinesDrawnOnly: true, holesDrawnOnly: true, outlinesOnlyWhereMissed: true))
            if closesGaps {
                passes.append(Pass(binary: shadowFree.dilated(),
                                   outlinesDrawnOnly: true, outlinesOnlyWhereMissed: true, takesHoles: false))
            }
        }
        if tracesRidges {
            let reach = LineBoxes.ridgeReach(longerSide: max(small.width, small.height))
            passes.append(Pass(binary: small.ridges(reach: reach, step: small.ridgeStep(reach: reach)),
                               outlinesDrawnOnly: true, outlinesOnlyWhereMissed: true, takesHoles: false))
        }
        return passes
    }

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
                // only where bends were straightened: the rest the straight pass has seen
                guard let straightened = Polygon.straighteningBends(polygon, bend: bendTurn),
                      straightened.count < polygon.count else { continue }
                polygon = straightened
                if polygon.count < 4 { return nil }
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
