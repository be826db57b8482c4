import DocumentImaging
import ImagingCore

extension Layout {
    /// A comb (one row, or one column, of boxes sharing their dividers) whose outline the
    /// detector found short: a box at an end whose line is faint or broken, or touched by
    /// its digit, falls out of the outline traced around the rest, which is then read as a
    /// comb of its own, a box short. The comb is extended box by box while the photo shows
    /// one more box at either end (`nextBox`). Returns its quad, straightening, ruling,
    /// lines and ink; nil when no box is added.
    func extendedComb(_ quad: Quadrilateral, straightened g: GrayImage, ruling: Ruling, in image: GrayImage)
        -> (Quadrilateral, GrayImage, Ruling, FoundLines, BinaryImage)? {
        guard (ruling.rowCount == 1) != (ruling.columnCount == 1) else { return nil }
        var comb: Comb?
        var (q, straight, r) = (quad, g, ruling)
        for atStart in [true, false] {
            while let next = nextBox(q, straightened: straight, ruling: r, atStart: atStart, in: image) {
                comb = next
                (q, straight, r) = (next.quad, next.gray, next.ruling)
            }
        }
        return comb.map { ($0.quad, $0.gray, $0.ruling, $0.lines, $0.ink) }
    }

    /// A comb as `nextBox` extends it.
    struct Comb {
        /// The comb's quad, its straightening, ruling, lines and ink.
        var quad: Quadrilateral, gray: GrayImage, ruling: Ruling, lines: FoundLines, ink: BinaryImage
    }

    /// The comb with one more box at its start (left or top) or end, or nil when the photo
    /// shows none there. The comb's plane (its straightening, extended past the quad: the
    /// perspective carries on) is looked at past the end, the end box's width and
    /// `combProbeMargin` of it more, at the comb's own scale, its lines' ink (`lineInk`). A
    /// box is there when a drawn line crosses the comb one box on (within `lineTolerance`
    /// of a box) and both frame lines run on over the new box, each line inked over
    /// `LineBoxes.inkedShare` of its stretch (a drawn line loses stretches to faint print
    /// and to digits touching or crossing it; the stricter `dividerSpan`, which tells a
    /// divider from a digit's upright inside a box, is not needed one pitch past the end
    /// box, where the frame's lines must run on to it); a drawn line is darker than the paper
    /// either side of it by `inkContrast`. The comb taken is the quad pushed out to that line, its edge as
    /// far past the line as the old edge lay past the old end line, its ruling the old one
    /// and the new line carried into the new straightening; its cells must look blank
    /// (`cellsLookBlank`) as any grid's.
    func nextBox(_ quad: Quadrilateral, straightened g: GrayImage, ruling: Ruling, atStart: Bool,
                 in image: GrayImage) -> Comb? {
        let alongX = ruling.rowCount == 1
        let lines = alongX ? ruling.columns : ruling.rows
        let frameLines = alongX ? ruling.rows : ruling.columns
        // the end box's own width: perspective and a curling sheet change it along the comb
        let pitch = atStart ? lines[1] - lines[0] : lines[lines.count - 1] - lines[lines.count - 2]
        let length = Double(alongX ? g.width : g.height), across = Double(alongX ? g.height : g.width)
        guard pitch >= 2, let toImage = Homography(straightening: quad, width: g.width, height: g.height) else { return nil }
        // the quad over `a0…a1` along the comb and `c0…c1` across it in its plane (pixel
        // edges), in image pixel centres
        func planeQuad(_ a0: Double, _ a1: Double, _ c0: Double = 0, _ c1: Double? = nil) -> Quadrilateral {
            let c1 = c1 ?? across
            let plane = alongX ? [Point(a0, c0), Point(a1, c0), Point(a1, c1), Point(a0, c1)]
                               : [Point(c0, a0), Point(c1, a0), Point(c1, a1), Point(c0, a1)]
            let c = plane.map { p -> Point in let q = toImage.apply(p); return Point(q.x - 0.5, q.y - 0.5) }
            return Quadrilateral(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
        }
        // the probe: the comb and a pitch and a margin past its end, and the margin either
        // side (a frame line curling off the straight comb), at the comb's scale
        let margin = Self.combProbeMargin * pitch + 2
        let reach = pitch + margin
        let (p0, p1) = atStart ? (lines.first! - reach, length) : (0, lines.last! + reach)
        let probeLength = max(8, Int((p1 - p0).rounded())), probeAcross = Int((across + 2 * margin).rounded())
        guard let probe = image.rectified(planeQuad(p0, p1, -margin, across + margin),
                                          width: alongX ? probeLength : probeAcross,
                                          height: alongX ? probeAcross : probeLength) else { return nil }
        let frame = frameLines.map { $0 + margin }   // in the probe
        let scale = Double(probeLength) / (p1 - p0)   // probe pixels per plane pixel along
        let expected = ((atStart ? lines.first! - pitch : lines.last! + pitch) - p0) * scale
        let oldEnd = ((atStart ? lines.first! : lines.last!) - p0) * scale
        // thresholded by local means (a shadow's edge stays a band, not a field of ink),
        // with the ink below the paper's closing: where a shadow's edge crosses a line the
        // mean, lowered by the dark side, loses the line's stretch on the lit side
        let drawn = DrawnLines(gray: probe, ink: Self.lineInk(of: probe),
                               reach: max(1, Int((Self.combLineReach * pitch * scale).rounded())))
        // lines across the comb are columns of the probe when the comb runs along x
        func inkedShare(at position: Double, crossing: Bool, from a: Double, to b: Double) -> Double {
            drawn.inkedShare(at: position, vertical: crossing == alongX, from: a, to: b)
        }
        // a drawn line, not the edge of a dark area (the desk past a sheet's edge)
        func isLine(at position: Double, crossing: Bool, from a: Double, to b: Double, inked least: Double) -> Bool {
            drawn.isLine(at: position, vertical: crossing == alongX, from: a, to: b, inked: least,
                         contrastPercent: Self.inkContrast)
        }
        // the line across one pitch on, spanning the frame (the best-inked place within
        // `lineTolerance` of a pitch of where it is due), and the frame's lines running on
        // over the new box, each where it is best inked within the same tolerance (a frame
        // line on a curling sheet drifts off the straight extension)
        let tolerance = Int((Self.lineTolerance * pitch * scale).rounded())
        let due = Int(expected.rounded())
        let spans = (due - tolerance...due + tolerance).map { x in
            (x, inkedShare(at: Double(x), crossing: true, from: frame.first!, to: frame.last!))
        }
        // of the places inked as much as the best, the line's middle: the darkest (a line
        // is several pixels wide, and the place nearest where it is due may be its flank,
        // too near its own middle for the paper beside it to be paper)
        let most = spans.map(\.1).max() ?? 0
        let mostInked = spans.filter { $0.1 == most }.map { x, _ in
            (x: x, darkness: drawn.meanDarkest(at: Double(x), vertical: alongX, from: frame.first!, to: frame.last!, within: 0))
        }
        guard let best = mostInked.min(by: { a, b in
                  a.darkness != b.darkness ? a.darkness < b.darkness : abs(a.x - due) < abs(b.x - due)
              }),
              isLine(at: Double(best.x), crossing: true, from: frame.first!, to: frame.last!, inked: LineBoxes.inkedShare)
        else { return nil }
        let line = Double(best.x)
        guard frame.allSatisfy({ frameLine in
            (-tolerance...tolerance).contains { d in
                isLine(at: frameLine + Double(d), crossing: false, from: line, to: oldEnd, inked: LineBoxes.inkedShare)
            }
        }) else { return nil }
        // the quad pushed out to the new line, its edge as far past it as before
        let linePlane = line / scale + p0
        let (a0, a1) = atStart ? (linePlane - lines.first!, length) : (0, linePlane + (length - lines.last!))
        let extended = planeQuad(a0, a1)
        guard let again = straighten(extended, in: image) else { return nil }
        // its ruling: the comb's lines and the new one, carried into the new straightening
        // (a straight map of the plane: the lines seen are where the ruling finder, thrown
        // by a shadow's edge or a curl across the longer comb, may not find them again)
        let alongScale = Double(alongX ? again.width : again.height) / (a1 - a0)
        let acrossScale = Double(alongX ? again.height : again.width) / across
        let along = (atStart ? [linePlane] + lines : lines + [linePlane]).map { ($0 - a0) * alongScale }
        let frameAgain = frameLines.map { $0 * acrossScale }
        let found = alongX ? Ruling(rows: frameAgain, columns: along) : Ruling(rows: along, columns: frameAgain)
        let ink = Self.ink(of: again)
        guard Self.cellsLookBlank(ink, found) else { return nil }
        let againLines = FoundLines(in: again.binarizedAgainstPaper(darkness: again.darkness()))
        return Comb(quad: extended, gray: again, ruling: found, lines: againLines, ink: ink)
    }

    /// How far past the next box's expected line the probe reaches, as a share of a box
    /// pitch (and two pixels more): the line, within `lineTolerance` of a pitch either way,
    /// and the paper beside it that `DrawnLines.isLine` compares it with, two reaches
    /// (`combLineReach`) further, lie inside the probe. With less, a line found at the far
    /// end of the tolerance had no paper beside it and was refused.
    static let combProbeMargin = lineTolerance + 2 * combLineReach

    /// How far (a share of a box pitch) a line of the probe may wander from a straight
    /// row or column and still be followed (`DrawnLines.reach`).
    static let combLineReach = 0.1
}
