@testable import DocumentImaging
import ImagingCore
import Testing

/// A thin pale line — a form box's side — in a photo large enough to be reduced for
/// detection, with a shadow's edge across it. Where the line straddles two rows of pixels
/// each holds half its darkness, and the mean reduction halves that again: the first copy
/// loses it. The copy reduced keeping each block's darkest pixel keeps it, but beside the
/// shadow's edge a local mean, pulled down by the dark side, still takes it for paper.
/// That copy's ink below its closing (`QuadDetector.passes`, pass 6) measures it against
/// the paper on its own side of the edge, and keeps it whole.
@Suite("A thin pale line across a shadow's edge stays whole in the darkest-pixel copy")
struct ThinLineShadowTests {
    static let width = 1600, height = 1200
    /// The line runs along y = 602 (between rows 601 and 602, so across a block boundary
    /// of the reduction by 2) from x = 200 to 1400; the shadow's edge crosses it at x = 800.
    static let lineY = 602.0, lineX = 200..<1400, edgeX = 800.0

    /// Paper at 225, the line 1 px wide at grey `lineLevel` (each pixel darkened by the share
    /// of it the line covers), and everything left of the edge darkened to `shade` of its
    /// light across a penumbra 14 px wide.
    static func scene(lineLevel: Double = 150, shade: Double = 0.55) -> GrayImage {
        var g = GrayImage(width: width, height: height, fill: 225)
        for y in 0..<height {
            for x in 0..<width {
                let centre = Double(y) + 0.5
                let cover = lineX.contains(x) ? max(0, min(1, 1 - abs(centre - lineY))) : 0
                let v = 225 - cover * (225 - lineLevel)
                let inShade = min(1, max(0, (edgeX - Double(x)) / 14 + 0.5))
                g[x, y] = UInt8((v * (1 - inShade * (1 - shade))).rounded())
            }
        }
        return g
    }

    /// The passes `QuadDetector.traced` makes of `image`, with the reduction.
    static func passes(_ image: GrayImage) -> (factor: Int, passes: [QuadDetector.Pass]) {
        let detector = QuadDetector()
        let factor = detector.reduction(of: image)
        let small = image.reduced(by: factor)
        let binaries = small.localMeanBinarizations(window: 0, percents: [12, 5])
        return (factor, detector.passes(image: image, small: small, factor: factor, binaries: binaries))
    }

    /// The columns of the line's length (in the detection copy), or of `columns`, where
    /// `binary` has no ink within a pixel of the line.
    static func gaps(in binary: BinaryImage, factor: Int, columns: Range<Int>? = nil) -> Int {
        let row = Int(lineY) / factor
        let columns = columns ?? (lineX.lowerBound / factor + 2)..<(lineX.upperBound / factor - 2)
        return columns.filter { x in
            !((row - 1)...(row + 1)).contains { binary.bits[$0 * binary.width + x] == 1 }
        }.count
    }

    /// Lines at grey 130 and 150 on paper at 225 (half of that darkness in each of the two
    /// rows: 17–21 % below the paper in the darkest-pixel copy), under shadows keeping
    /// 55–100 % of the light.
    @Test("The line is whole in the darkest-pixel copy's ink below its closing: shadows of several depths, no shadow",
          arguments: [1.0, 0.7, 0.55], [130.0, 150.0])
    func lineStaysWhole(shade: Double, lineLevel: Double) throws {
        let (factor, passes) = Self.passes(Self.scene(lineLevel: lineLevel, shade: shade))
        #expect(factor == 2)
        let darkestBelowClosing = try #require(Self.darkestBelowClosing(passes))
        #expect(darkestBelowClosing.outlinesOnlyWhereMissed && darkestBelowClosing.outlinesDrawnOnly)
        let gaps = Self.gaps(in: darkestBelowClosing.binary, factor: factor)
        #expect(gaps == 0)
    }

    /// Pass 6 of `passes`: the only one taking holes only where they hold ink.
    static func darkestBelowClosing(_ passes: [QuadDetector.Pass]) -> QuadDetector.Pass? {
        let taking = passes.filter(\.holesHoldingInkOnly)
        return taking.count == 1 ? taking[0] : nil
    }

    /// A paler line (grey 165: 13 % below the paper there, just past the primary's 12 %),
    /// or a deeper shadow (45 or 35 % of the light), across a sharp penumbra (14 px): the
    /// closing, taken on a copy halved again, lags the steep ramp by a pixel, and a few
    /// columns of the line in the penumbra are taken for paper. Elsewhere it stays whole.
    @Test("Known limitation: a faint line, or a deep shadow, loses a few pixels in a sharp penumbra",
          arguments: [(0.7, 165.0), (0.55, 165.0), (0.45, 150.0), (0.35, 150.0)])
    func sharpPenumbra(shade: Double, lineLevel: Double) throws {
        let (factor, passes) = Self.passes(Self.scene(lineLevel: lineLevel, shade: shade))
        let binary = try #require(Self.darkestBelowClosing(passes)).binary
        let gaps = Self.gaps(in: binary, factor: factor)
        let outsidePenumbra = Self.gaps(in: binary, factor: factor, columns: 102..<390)
            + Self.gaps(in: binary, factor: factor, columns: 410..<698)
        #expect(gaps <= 4)
        #expect(outsidePenumbra == 0)
        withKnownIssue("the closing lags a steep shadow ramp") {
            #expect(gaps == 0)
        }
    }

    @Test("The cause: the copies before break the line, the darkest-pixel one beside the edge")
    func copiesBeforeBreakIt() {
        let (factor, passes) = Self.passes(Self.scene())
        // the mean-reduced copy loses the line; the darkest-pixel copy's local threshold
        // (pass 2) loses it beside the edge, on its light side
        let meanGaps = Self.gaps(in: passes[0].binary, factor: factor)
        let besideEdge = Self.gaps(in: passes[1].binary, factor: factor, columns: 400..<440)
        #expect(meanGaps > 0)
        #expect(besideEdge > 0)
    }

    @Test("Control: an unreduced photo has no darkest-pixel copies")
    func unreduced() {
        let small = GrayImage(width: 800, height: 600, fill: 225)
        let detector = QuadDetector()
        let passes = detector.passes(image: small, small: small, factor: 1,
                                     binaries: small.localMeanBinarizations(window: 0, percents: [12, 5]))
        let hasDarkestCopies = passes.contains(where: \.holesHoldingInkOnly)
        #expect(!hasDarkestCopies)
    }

    /// A 300 × 200 copy with a box (lines 2 px wide, (20, 20)–(142, 122)) holding a blob as
    /// a digit, and a 9 in thick strokes (8 px): its loop (190, 30)–(250, 110), closed as
    /// the darkest-pixel copy closes a marker's loops, with nothing in it, and its stem
    /// down to y = 180 (so its outline is no drawn box).
    static func boxAndLoop() -> BinaryImage {
        var bits = [UInt8](repeating: 0, count: 300 * 200)
        for y in 0..<200 {
            for x in 0..<300 {
                let box = (20..<142).contains(x) && (20..<122).contains(y)
                    && (x < 22 || x >= 140 || y < 22 || y >= 120)
                let digit = (70..<86).contains(x) && (50..<90).contains(y)
                let loop = (190..<250).contains(x) && (30..<110).contains(y)
                    && (x < 198 || x >= 242 || y < 38 || y >= 102)
                let stem = (242..<250).contains(x) && (110..<180).contains(y)
                if box || digit || loop || stem { bits[y * 300 + x] = 1 }
            }
        }
        return BinaryImage(width: 300, height: 200, bits: bits)
    }

    @Test("Holes holding ink only: a box is taken, a digit's empty loop is not (and is, when not asked)",
          arguments: [true, false])
    func holesHoldingInk(only: Bool) {
        let binary = Self.boxAndLoop()
        let small = GrayImage(width: 300, height: 200, fill: 225)
        var traced = QuadDetector.Traced()
        QuadDetector().trace(QuadDetector.Pass(binary: binary, outlinesDrawnOnly: true, holesDrawnOnly: true,
                                               holesHoldingInkOnly: only),
                             into: &traced, primary: binary, small: small, minArea: 200, tolerance: 6)
        let boxTaken = traced.found.contains { Polygon.distance($0.quad.center, Point(81, 71)) < 4 }
        let loopTaken = traced.found.contains { $0.isHole && Polygon.distance($0.quad.center, Point(220, 70)) < 4 }
        #expect(boxTaken)
        #expect(loopTaken == !only)
    }
}
