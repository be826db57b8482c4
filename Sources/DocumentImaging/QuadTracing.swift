import ImagingCore

extension QuadDetector {
    /// What the passes trace (`passes`): the quads taken as they are traced, and the
    /// boxes whose sides bend and the frames with a gap, held back until every pass has
    /// been traced.
    struct Traced {
        /// The quads taken, in the detection copy.
        var found: [Candidate] = []
        /// Insides of boxes on a curled page (`bentBox`).
        var bentBoxes: [Quadrilateral] = []
        /// Frames whose thin line broke (`isBrokenFrame`).
        var brokenFrames: [Candidate] = []
    }

    /// The candidates every pass over the detection copy `small` (reduced `factor` times
    /// from `image`) traces, quads of at least `minArea`; a quad within `tolerance` of one
    /// found earlier counts once. Bent boxes and broken frames are taken last, where no
    /// pass found the box straight and closed.
    func traced(image: GrayImage, small: GrayImage, factor: Int, minArea: Double, tolerance: Double) -> [Candidate] {
        let methods = [binarization] + (sensitiveBinarization.map { [$0] } ?? [])
        let binaries: [BinaryImage]
        if case let .localMean(w1, p1) = binarization, case let .localMean(w2, p2)? = sensitiveBinarization, w1 == w2 {
            binaries = small.localMeanBinarizations(window: w1, percents: [p1, p2])   // one integral image
        } else {
            binaries = methods.map { small.binarized($0) }
        }
        var traced = Traced()
        for pass in passes(image: image, small: small, factor: factor, binaries: binaries) {
            trace(pass, into: &traced, primary: binaries[0], small: small, minArea: minArea, tolerance: tolerance)
        }
        var found = traced.found
        // bent boxes and broken frames last: where no pass found the box straight and
        // closed (the same corners, or a quad of about its size around its middle: its
        // outline, `innerEdgeShare` larger at most, or its inside; not a smaller quad in it,
        // such as digits run together)
        let standsFor = { (f: Candidate, box: Quadrilateral) in
            zip(f.quad.corners, box.corners).allSatisfy { Polygon.distance($0, $1) < tolerance }
                || (f.quad.contains(box.center) && f.quad.area < box.area / Self.innerEdgeShare
                    && f.quad.area > Self.innerEdgeShare * box.area)
        }
        for bent in traced.bentBoxes where !found.contains(where: { standsFor($0, bent) }) {
            found.append(Candidate(quad: bent, isHole: true,
                                   followsFrame: Self.followsImageFrame(bent, width: small.width, height: small.height)))
        }
        for broken in traced.brokenFrames where !found.contains(where: { standsFor($0, broken.quad) }) {
            found.append(broken)
        }
        return found
    }

    /// Traces the borders of one pass's copy and takes their quads into `traced`, as the
    /// pass asks (`Pass`). `primary`: the primary threshold's copy, where a strip of a
    /// table's cells is told from a box (`isDividedAcross`).
    func trace(_ pass: Pass, into traced: inout Traced, primary: BinaryImage, small: GrayImage,
               minArea: Double, tolerance: Double) {
        let earlier = traced.found.map { (quad: $0.quad, fitsBorder: $0.fitsBorder, isHole: $0.isHole) }
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
        // where the pass asks: holes with an outer border inside them, not a speck's (a
        // box's inside holding its digits)
        let holdsInk: Set<Int> = pass.holesHoldingInkOnly
            ? Set(contours.filter { !$0.isHole && $0.points.count >= Self.leastInkBorder }.compactMap(\.parent)) : []
        var quadOfContour: [Int: Quadrilateral?] = [:]
        var foundOfContour: [Int: Int] = [:]   // where a contour's quad went in `found`
        var mergedHulls: Set<Int> = []   // outlines dropped as `isMergedHull`
        var replacedBy: Set<Int> = []    // earlier quads cut short or merged, to drop
        var takenOver: Set<Int> = []     // places in `found` this pass's outlines took over
        let quadOf = { (index: Int) -> Quadrilateral? in
            if let known = quadOfContour[index] { return known }
            let contour = contours[index]
            var quad = contour.points.count >= 16 ? self.quadrilateral(for: contour.points, minArea: minArea) : nil
            // a strip of a table's cells whose frame broke is no box
            if let q = quad, !Self.enclosesHull(contour.points, hullArea: q.area),
               Self.isDividedAcross(q, in: primary) { quad = nil }
            quadOfContour[index] = quad
            return quad
        }
        for (index, contour) in contours.enumerated() where pass.takesHoles || !contour.isHole {
            guard let quad = quadOf(index) else {
                // the inside of a box on a curled page: its outline has no straight quad
                if contour.isHole, let parent = contour.parent, quadOf(parent) == nil,
                   let bent = bentBox(hole: contour.points, outline: contours[parent].points, minArea: minArea) {
                    traced.bentBoxes.append(bent)
                }
                continue
            }
            if contour.isHole, pass.holesHoldingInkOnly, !holdsInk.contains(index) { continue }
            let followsFrame = Self.followsImageFrame(quad, width: small.width, height: small.height)
            if contour.isHole ? pass.holesDrawnOnly : pass.outlinesDrawnOnly,
               !Self.isDrawn(quad, border: contour.points, followsFrame: followsFrame) {
                continue
            }
            // an earlier quad one of whose sides this pass shows no ink along was closed on
            // something this pass leaves out (a shadow's band): this outline replaces it
            var cutShort: [Int] = []
            if !contour.isHole, pass.outlinesOnlyWhereMissed {
                let standing = earlier.indices.filter { Self.standsForOutline(quad, (earlier[$0].quad, earlier[$0].fitsBorder)) }
                // (outline or hole: where a band closed a box, it closed its inside too)
                cutShort = pass.replacesCutShort ? earlier.indices.filter {
                    !takenOver.contains($0) && Self.liesWithin(earlier[$0].quad, quad)
                        && Self.isClosedOffInk(earlier[$0].quad, by: quad, in: pass.binary)
                } : []
                // and an earlier outline around it none of whose sides this copy draws is the
                // box merged with the band: it goes whatever becomes of this outline
                if pass.replacesCutShort {
                    replacedBy.formUnion(earlier.indices.filter {
                        !takenOver.contains($0)
                            && Self.isMergedOffInk(earlier[$0].quad, isHole: earlier[$0].isHole, around: quad, in: pass.binary)
                    })
                }
                // found whole already: only the cut quads go
                if standing.contains(where: { !cutShort.contains($0) }) { replacedBy.formUnion(cutShort); continue }
            }
            // a hole just inside an outline is that outline's inner edge; but where the
            // outline is the dark rim the threshold leaves around light paper on a dark
            // desk (darker outside it too), the hole is the paper's own edge: it
            // replaces the outline
            if contour.isHole, let parent = contour.parent, !mergedHulls.contains(parent), let outer = quadOf(parent),
               quad.area > Self.innerEdgeShare * outer.area {
                if let k = foundOfContour[parent], Self.isRimOfDesk(outer: outer, hole: quad, in: small) {
                    traced.found[k] = Candidate(quad: quad, isHole: true, followsFrame: followsFrame)
                }
                continue
            }
            // a frame with a gap is taken last, where no pass traced it closed
            if !contour.isHole, !Self.enclosesHull(contour.points, hullArea: quad.area) {
                traced.brokenFrames.append(Candidate(quad: quad, isHole: false, followsFrame: followsFrame,
                                                     holeShares: holeSharesOf(index, quad),
                                                     fitsBorder: Self.fitsBorder(quad, border: contour.points)))
                continue
            }
            // the same quad seen in an earlier pass counts once
            let duplicate = traced.found.contains { f in
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
                let candidate = Candidate(quad: quad, isHole: contour.isHole, followsFrame: followsFrame,
                                          holeShares: holeSharesOf(index, quad), fitsBorder: fits)
                if let replaced = cutShort.first {
                    foundOfContour[index] = replaced
                    traced.found[replaced] = candidate
                    takenOver.insert(replaced)
                    replacedBy.formUnion(cutShort.dropFirst())
                } else {
                    foundOfContour[index] = traced.found.count
                    traced.found.append(candidate)
                }
            } else {
                replacedBy.formUnion(cutShort)   // found whole already: only the cut quads go
            }
        }
        // a place an outline took over holds that outline now, whatever it held before
        let dropped = replacedBy.subtracting(takenOver)
        traced.found = traced.found.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
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
        /// With `outlinesOnlyWhereMissed`: an earlier quad that has a side this pass's copy
        /// shows no ink along (`isClosedOffInk`) does not stand for the outline, which
        /// replaces it, and an earlier outline around it that the copy draws nowhere
        /// (`isMergedOffInk`) is dropped. For a copy without the band a shadow's edge
        /// leaves, where the earlier passes closed a box along that band or round both.
        var replacesCutShort = false
        /// Take holes at all (a dilated copy's holes are as often the gaps between digits
        /// the dilation joined as a box's inside).
        var takesHoles = true
        /// Take a hole only when ink lies inside it (an outer border traced within it): a
        /// copy whose strokes are thick enough to close a digit's loop rings paper with
        /// nothing in it there, where a box's inside holds its digits.
        var holesHoldingInkOnly = false
    }

    /// See `Pass.holesHoldingInkOnly`: an outer border of fewer pixels inside a hole is a
    /// speck of noise (a 2 × 2 blob's border has 4), not ink it holds.
    static let leastInkBorder = 8

    /// True when one of the `earlier` quads stands for `quad`'s outline (see
    /// `Pass.outlinesOnlyWhereMissed`): it makes up more than `mergedShare` of it, lies in
    /// it, and fits its own border (`fitsBorder`: every side at least `leastSideSupport`
    /// followed). A quad with a side its border leaves (a frame's hull pulled out to a line
    /// beside it) has not found the frame, and does not keep a later pass from tracing it.
    static func isFoundEarlier(_ quad: Quadrilateral, among earlier: [(quad: Quadrilateral, fitsBorder: Bool)]) -> Bool {
        earlier.contains { standsForOutline(quad, $0) }
    }

    /// Whether `earlier` stands for `quad`'s outline (`isFoundEarlier`).
    static func standsForOutline(_ quad: Quadrilateral, _ earlier: (quad: Quadrilateral, fitsBorder: Bool)) -> Bool {
        earlier.fitsBorder && liesWithin(earlier.quad, quad)
    }

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
    ///    lit part along the band. Only drawn borders, outlines only where missed — or
    ///    where an earlier quad was closed along the band (`isClosedOffInk`), which the
    ///    outline then replaces;
    /// 5. when `closesGaps`, that shadow-free ink dilated once: a thin, pale line drawn
    ///    aslant falls between rows of pixels and breaks where it is palest, and the
    ///    sensitive pass that would join it merges it with the shadow's band. Only drawn
    ///    outlines, where missed, and no holes (the gaps between digits the dilation
    ///    joins would pass for boxes);
    /// 6. when the photo was reduced (and `keepsThinLines`), the copy reduced keeping each
    ///    block's darkest pixel, its ink whatever is darker by the primary's percent than
    ///    its closing: the paper level on the pixel's own side of a shadow's edge (a
    ///    closing keeps the step). A thin pale line straddling two rows of pixels fades
    ///    under the mean reduction, and beside a shadow's edge every local mean, pulled
    ///    down by the dark side, takes the rest of it for paper: the box breaks there in
    ///    every copy above. No local threshold joins in here. Only drawn borders, outlines
    ///    only where missed, and only holes holding ink (this copy's thick strokes close
    ///    the loops of digits, which hold nothing);
    /// 7. when `tracesRidges`, the copy's ridges (`GrayImage.ridges`): a frame drawn in a
    ///    hairline of pale ink, a few grey levels below the paper, is a thin closed line
    ///    there where every threshold set by darker print keeps only specks of it. Every
    ///    stroke's middle is a ridge too: only drawn outlines, where missed, no holes.
    func passes(image: GrayImage, small: GrayImage, factor: Int, binaries: [BinaryImage]) -> [Pass] {
        var passes = [Pass(binary: binaries[0])]
        let darkest = factor > 1 && keepsThinLines ? image.reducedKeepingDarkest(by: factor) : nil
        if let darkest {
            passes.append(Pass(binary: darkest.binarized(binarization), outlinesDrawnOnly: true, holesDrawnOnly: true))
        }
        for sensitive in binaries.dropFirst() {
            passes.append(Pass(binary: closesGaps ? sensitive.dilated() : sensitive, outlinesDrawnOnly: factor > 1,
                               outlinesOnlyWhereMissed: factor > 1))
        }
        if case let .localMean(_, percent) = binarization {
            let window = max(5, Int((Self.shadowFreeWindowShare * Double(max(small.width, small.height))).rounded()))
            let shadowFree = small.inkBelowClosing(binaries[0], window: window, percent: percent)
            passes.append(Pass(binary: shadowFree, outlinesDrawnOnly: true, holesDrawnOnly: true,
                               outlinesOnlyWhereMissed: true, replacesCutShort: true))
            if closesGaps {
                passes.append(Pass(binary: shadowFree.dilated(), outlinesDrawnOnly: true,
                                   outlinesOnlyWhereMissed: true, replacesCutShort: true, takesHoles: false))
            }
            if let darkest {
                passes.append(Pass(binary: darkest.binarized(.belowClosing(window: window, percent: percent)),
                                   outlinesDrawnOnly: true, holesDrawnOnly: true, outlinesOnlyWhereMissed: true,
                                   holesHoldingInkOnly: true))
            }
        }
        if tracesRidges {
            let reach = LineBoxes.ridgeReach(longerSide: max(small.width, small.height))
            passes.append(Pass(binary: small.ridges(reach: reach, step: small.ridgeStep(reach: reach)),
                               outlinesDrawnOnly: true, outlinesOnlyWhereMissed: true, takesHoles: false))
        }
        return passes
    }
}
