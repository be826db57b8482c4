import DocumentImaging
import ImagingCore

extension Layout {
    /// A box whose end a hard shadow's edge cut off: the detector outlined the part on one
    /// side of the edge, and the quad's end there is the lighting step, not a drawn line.
    /// When an end of the box's long axis is no drawn line and both frame lines run on past
    /// it to a drawn line crossing them (`boxEnd`), the quad is pushed out to that line.
    /// Each end is looked past squared to the box's other end (`squaredEnd`: an edge slanting
    /// across the box leaves a slanting end, which would shear the box's plane). Returns the
    /// longer quad, or nil when neither end moves.
    func extendedPastStep(_ quad: Quadrilateral, in image: GrayImage) -> Quadrilateral? {
        var q = quad, moved = false
        for atStart in [true, false] {
            let base = Self.squaredEnd(q, atStart: atStart) ?? q
            guard let g = straighten(base, in: image), g.width > g.height,
                  let toImage = Homography(straightening: base, width: g.width, height: g.height) else { continue }
            func imagePoint(_ p: Point) -> Point { let r = toImage.apply(p); return Point(r.x - 0.5, r.y - 0.5) }
            guard let end = boxEnd(g, toImage: imagePoint, in: image, atStart: atStart) else { continue }
            let (w, h) = (Double(g.width), Double(g.height))
            let (x0, x1) = atStart ? (end, w) : (0, end)
            let c = [Point(x0, 0), Point(x1, 0), Point(x1, h), Point(x0, h)].map(imagePoint)
            q = Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
            moved = true
        }
        return moved ? q : nil
    }

    /// `quad` with its start (left) or end side turned, about its middle, parallel to the
    /// other end's side, its corners on the top and bottom sides; nil when they do not meet.
    static func squaredEnd(_ quad: Quadrilateral, atStart: Bool) -> Quadrilateral? {
        let top = Line(through: quad.topLeft, quad.topRight), bottom = Line(through: quad.bottomLeft, quad.bottomRight)
        let (a, b, otherA, otherB) = atStart ? (quad.topLeft, quad.bottomLeft, quad.topRight, quad.bottomRight)
                                             : (quad.topRight, quad.bottomRight, quad.topLeft, quad.bottomLeft)
        let middle = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
        let end = Line(through: middle, Point(middle.x + otherB.x - otherA.x, middle.y + otherB.y - otherA.y))
        guard let onTop = top.intersection(end), let onBottom = bottom.intersection(end) else { return nil }
        return atStart ? Quadrilateral(topLeft: onTop, topRight: quad.topRight, bottomRight: quad.bottomRight, bottomLeft: onBottom)
                       : Quadrilateral(topLeft: quad.topLeft, topRight: onTop, bottomRight: onBottom, bottomLeft: quad.bottomLeft)
    }

    /// Where the box straightened as `g` really ends past its start (left) or end (right),
    /// in `g`'s plane, or nil when it ends where its quad does. The box's plane past that
    /// end (as far again as the box is long, and `combProbeMargin` of its height above and
    /// below) is straightened at the box's scale and thresholded by local means. The quad's
    /// end must be no drawn line (not darker than the paper either side of it by
    /// `inkContrast`: a lighting step is dark on one side only); the box ends at the first
    /// drawn line crossing the frame (inked over `dividerSpan` of it), both frame lines
    /// inked over `LineBoxes.inkedShare` of the way there, each where it is best inked
    /// within `lineTolerance` of the box's height.
    func boxEnd(_ g: GrayImage, toImage: (Point) -> Point, in image: GrayImage, atStart: Bool) -> Double? {
        let (w, h) = (Double(g.width), Double(g.height))
        let margin = Self.combProbeMargin * h
        let (p0, p1) = atStart ? (-w, Self.combProbeMargin * h) : (w - Self.combProbeMargin * h, 2 * w)
        let probeWidth = Int((p1 - p0).rounded()), probeHeight = Int((h + 2 * margin).rounded())
        let c = [Point(p0, -margin), Point(p1, -margin), Point(p1, h + margin), Point(p0, h + margin)].map(toImage)
        guard probeWidth > 8, probeHeight > 8,
              let probe = image.rectified(Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3]),
                                          width: probeWidth, height: probeHeight) else { return nil }
        let band = max(1, Int((Self.dividerReach * h).rounded()))
        let drawn = DrawnLines(gray: probe, ink: Self.ink(of: probe), reach: band)
        let tolerance = Int((Self.lineTolerance * h).rounded())
        let frame = [margin, margin + h]
        let side = atStart ? -p0 : w - p0   // the quad's end, in the probe
        // a drawn line down column x over the frame, inked over `least` of it
        func isDrawnLine(_ x: Int, inked least: Double = 0) -> Bool {
            drawn.isLine(at: Double(x), vertical: true, from: frame[0], to: frame[1], inked: least,
                         contrastPercent: Self.inkContrast)
        }
        let sideColumn = Int(side.rounded())
        guard !(sideColumn - tolerance...sideColumn + tolerance).contains(where: { isDrawnLine($0) }) else { return nil }
        // outward from the quad's end: the first drawn line spanning the frame
        let outward = atStart ? Array(stride(from: sideColumn - tolerance - 1, through: 2 * band + 1, by: -1))
                              : Array(stride(from: sideColumn + tolerance + 1, to: probeWidth - 2 * band - 1, by: 1))
        guard let reached = outward.first(where: { isDrawnLine($0, inked: Self.dividerSpan) }) else { return nil }
        // the line is first seen a band before its middle: its darkest column
        func columnGray(_ x: Int) -> Double {
            drawn.meanDarkest(at: Double(x), vertical: true, from: frame[0], to: frame[1], within: 0)
        }
        let end = (reached - band...reached + band).min { columnGray($0) < columnGray($1) }!
        // both frame lines run on from the quad's end to it
        let framed = frame.allSatisfy { row in
            (-tolerance...tolerance).contains { d in
                drawn.inkedShare(at: row + Double(d), vertical: false, from: Double(end), to: side) >= LineBoxes.inkedShare
            }
        }
        return framed ? Double(end) + p0 : nil
    }
}
