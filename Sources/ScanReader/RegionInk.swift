import DocumentImaging
import ImagingCore

/// What the layout takes for ink in a straightened region: thresholds against the local
/// mean (fields, pages) or cell by cell (grids), relative to the light and, where a
/// region's own ink is faint, to that ink.
extension Layout {
    /// A straightened region's ink: local mean over a window a twelfth of its size, at
    /// least `smallestInkWindow` working pixels (`zoom` finer pixels each: a region
    /// straightened from the finer copy is thresholded as it would be at working size).
    static func ink(of g: GrayImage, zoom: Double = 1) -> BinaryImage {
        g.localMeanBinarizations(window: inkWindow(of: g, zoom: zoom), percents: [inkContrast])[0]
    }

    /// The ink of a straightened region's drawn lines: its `ink(of:)` and, besides, what is
    /// darker by `inkContrast` than the paper as a closing over the same window measures it
    /// (`BinarizationMethod.belowClosing`). Where a shadow's edge crosses a line, the local
    /// mean on the lit side is lowered by the shade within its window and the line's
    /// stretch there falls under it; the closing keeps each side's own level.
    static func lineInk(of g: GrayImage) -> BinaryImage {
        let mean = ink(of: g)
        let closing = g.binarized(.belowClosing(window: inkWindow(of: g, zoom: 1), percent: inkContrast))
        return BinaryImage(width: g.width, height: g.height, bits: zip(mean.bits, closing.bits).map { $0 | $1 })
    }

    /// The ink of a whole page: darker by `inkContrast` both than the mean around it (over
    /// squares a twelfth of the page across) and than the paper there as a closing over the
    /// same squares measures it (`BinarizationMethod.belowClosing`; strokes and glyphs are
    /// narrower). Where a hard shadow falls across the page the mean on its dark side is
    /// raised by the light side and would make a band along the edge ink; the closing
    /// keeps the shade's own level there. Elsewhere the mean decides, as for every region.
    static func pageInk(of g: GrayImage) -> BinaryImage {
        let window = max(smallestInkWindow, max(g.width, g.height) / 12)
        return belowPaper(g.binarized(.localMean(window: window, percent: inkContrast)), of: g, closing: window)
    }

    /// A whole page's ink (`pageInk(of:)`) less the ink running along the sides of the
    /// quads found in it (`BinaryImage.clearingRuns`): a note's or a sheet's edge, the
    /// shade along its curl, a box's line, within `outlineBand` of the quad's shorter side
    /// and stretched along the side as no glyph is (`DigitSegmenter.borderRunElongation`).
    /// A region's own border is cleared so when it is read; on a page the quads' are.
    static func pageInk(of image: GrayImage, less quads: [DetectedQuad]) -> BinaryImage {
        let sides = quads.flatMap { q in
            let c = q.quad.corners, band = max(2, outlineBand * q.quad.shortestSide)
            return (0..<4).map { BinaryImage.Side(a: c[$0], b: c[($0 + 1) % 4], band: band) }
        }
        return pageInk(of: image).clearingRuns(along: sides, elongation: DigitSegmenter.borderRunElongation)
    }

    /// How far from a quad's side, as a share of its shorter side, ink runs along it
    /// (`pageInk(of:less:)`): a quad's side is fitted to within a few pixels of its
    /// edge, and the shade along a sheet's curl or a note's lifted edge lies within a
    /// twentieth of it.
    static let outlineBand = 0.05

    /// A region's ink — darker than the local mean by `inkContrast`, or by less where the
    /// region's own ink is faint (`ownInkPercent`) — and from the same local means the
    /// faint ink around it: darker by `faintStrokeShare` of `inkContrast`, the least ink
    /// ever needs.
    static func inkLevels(of g: GrayImage, zoom: Double = 1) -> (ink: BinaryImage, faint: BinaryImage) {
        let faintPercent = inkContrast * faintStrokeShare
        let inkPercent = max(faintPercent, min(inkContrast, ownInkPercent(of: g)))
        let levels = g.localMeanBinarizations(window: inkWindow(of: g, zoom: zoom), percents: [inkPercent, faintPercent])
        return (levels[0], levels[1])
    }

    /// The contrast, percent, that ink of the straightened region `g` needs when its own
    /// ink is faint: `ownContrastShare` of how much darker than its paper (the 75th
    /// percentile of its inner 70 %) its darkest ink is (the 2nd percentile there) — as a
    /// grid's cells measure theirs (`GrayImage.binarizedByCells`). A pale or blurred
    /// stroke at 20 % below the paper thresholded at `inkContrast` keeps only its core, a
    /// digit in specks. `inkContrast` when the dark end is no ink but the paper's grain
    /// (it reaches less than `inkTailFactor` times the paper's interquartile spread
    /// below the paper): a blank stretch thresholded by its own noise is all specks. The
    /// spread is measured from the upper half alone, twice the 75th percentile's rise over
    /// the median: on blank paper that is the interquartile spread, but blurred digits
    /// darken the lower quartile with their halo and would pass for grain.
    static func ownInkPercent(of g: GrayImage) -> Double {
        var h = ByteHistogram()
        let mx = g.width * 15 / 100, my = g.height * 15 / 100
        for y in my..<max(my, g.height - my) {
            for x in mx..<max(mx, g.width - mx) { h.add(g[x, y]) }
        }
        let paper = Double(h.percentile(0.75)), ink = Double(h.percentile(0.02))
        let spread = 2 * (paper - Double(h.percentile(0.5)))
        guard paper > 0, paper - ink >= inkTailFactor * spread else { return inkContrast }
        return ownContrastShare * 100 * (paper - ink) / paper
    }

    /// The share of a region's own ink contrast its faint ink is thresholded at
    /// (`ownInkPercent`): the share of its contrast a grid's threshold takes
    /// (`GrayImage.binarizedByCells`, 30 %). On seed 1, without the grain guard, 0.2–0.4
    /// read about as well.
    static let ownContrastShare = 0.3
    /// How far below the paper, in spreads (`ownInkPercent`: on blank paper its
    /// interquartile spread), a region's darkest 2 % must lie to be ink: on paper that is
    /// all grain (normal noise) the 2nd percentile lies about 2 spreads below the 75th; 3
    /// leaves a margin.
    static let inkTailFactor = 3.0

    /// The ink a field taken is read in: its `inkLevels` ink that is also darker by
    /// `inkContrast` than the paper as a closing over `fieldClosingShare` of the field's
    /// shorter side (at least the mean's window) measures it (`belowPaper`). Where a
    /// shadow's edge crosses the field, the mean on its dark side is raised by the light
    /// side and makes a band along the edge ink, read as a 1 or cutting the digits it
    /// touches. Only fields taken pay for the closing.
    static func fieldInk(_ meanInk: BinaryImage, of g: GrayImage, zoom: Double = 1) -> BinaryImage {
        belowPaper(meanInk, of: g, closing: max(inkWindow(of: g, zoom: zoom), Int(fieldClosingShare * Double(min(g.width, g.height)))))
    }

    /// `ink` where `g` is also darker by `inkContrast` than the paper as a closing over
    /// `closing`-pixel squares measures it (`GrayImage.inkBelowClosing`).
    static func belowPaper(_ ink: BinaryImage, of g: GrayImage, closing: Int) -> BinaryImage {
        g.inkBelowClosing(ink, window: closing, percent: inkContrast)
    }

    /// The closing window of a field's ink (`fieldInk`), as a share of its shorter side:
    /// wider than any stroke in it (a marker's on a note is about a tenth of the note), so
    /// strokes stay ink. Chosen on corpus seed 1: 0.3 read as many fields exactly, 1 fewer.
    static let fieldClosingShare = 0.5

    /// The local-mean window of `ink(of:zoom:)`.
    static func inkWindow(of g: GrayImage, zoom: Double) -> Int {
        max(Int((Double(smallestInkWindow) * zoom).rounded()), max(g.width, g.height) / 12)
    }

    /// A grid's ink, thresholded cell by cell, and its faint ink (the cells thresholded at
    /// `faintStrokeShare` of the contrast their ink needs), each with the ruling stripped.
    static func cellInks(of g: GrayImage, _ ruling: Ruling) -> (ink: BinaryImage, faint: BinaryImage) {
        let planes = g.binarizedByCells(ruling, contrastShares: [1, faintStrokeShare])
        return (planes[0].strippingRuling(ruling), planes[1].strippingRuling(ruling))
    }

    /// How much darker than its neighbourhood's mean a pixel of ink is, percent.
    static let inkContrast = 15.0
    /// Faint ink (`inkLevels`) is darker than the mean by this share of `inkContrast`:
    /// half the contrast, where a stroke thinned by a skipping pen still reaches.
    static let faintStrokeShare = 0.5

    /// The smallest window `ink(of:zoom:)` takes the local mean over, working pixels.
    static let smallestInkWindow = 15
}
