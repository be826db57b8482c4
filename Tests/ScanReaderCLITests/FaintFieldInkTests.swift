import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A field's ink threshold follows its own ink: pale or blurred handwriting, a few per
/// cent darker than the paper, is ink whole, not a digit in specks; paper that is all
/// grain is not thresholded by its noise (`Layout.ownInkPercent`).
@Suite("A field's ink from its own contrast")
struct FaintFieldInkTests {
    /// A 240 × 60 field of paper at `paper` with grain ±`grain` levels, holding (when
    /// `ink` is given) a ring and a bar — a 0 and a 1 — at that grey level, 4 px strokes.
    static func field(paper: Int = 180, ink: Int?, grain: Int = 2, seed: UInt32 = 11) -> GrayImage {
        var g = GrayImage(width: 240, height: 60, fill: UInt8(paper))
        var state = seed
        for y in 0..<60 {
            for x in 0..<240 {
                state = state &* 1_664_525 &+ 1_013_904_223
                var v = paper + Int(state >> 24) % (2 * grain + 1) - grain
                if let ink {
                    let (dx, dy) = (Double(x - 90), Double(y - 30))
                    let r = (dx * dx + dy * dy).squareRoot()
                    if (r >= 10 && r < 14) || (x >= 140 && x < 144 && y >= 16 && y < 44) { v = ink }
                }
                g[x, y] = UInt8(max(0, min(255, v)))
            }
        }
        return g
    }

    /// The ink pixels of `binary` on the ring and the bar, and elsewhere.
    static func inkOnStrokes(_ binary: BinaryImage) -> (strokes: Int, strokeArea: Int, elsewhere: Int) {
        var on = 0, area = 0, off = 0
        for y in 0..<60 {
            for x in 0..<240 {
                let (dx, dy) = (Double(x - 90), Double(y - 30))
                let r = (dx * dx + dy * dy).squareRoot()
                let stroke = (r >= 10 && r < 14) || (x >= 140 && x < 144 && y >= 16 && y < 44)
                let isInk = binary.bits[y * 240 + x] != 0
                if stroke { area += 1; if isInk { on += 1 } } else if isInk { off += 1 }
            }
        }
        return (on, area, off)
    }

    @Test("Strokes 20 or 25 levels under paper at 180 (11–14 %, under the 15 % ink needs elsewhere) are ink whole",
          arguments: [155, 160])
    func faintStrokes(ink: Int) {
        let g = Self.field(ink: ink)
        #expect(Layout.ownInkPercent(of: g) < Layout.inkContrast)
        let (strokes, area, elsewhere) = Self.inkOnStrokes(Layout.inkLevels(of: g).ink)
        #expect(Double(strokes) >= 0.9 * Double(area), "ink \(ink): \(strokes) of \(area) stroke pixels")
        #expect(elsewhere < 20, "ink \(ink): \(elsewhere) paper pixels taken for ink")
    }

    /// A 240 × 60 field of paper at 180 (grain ±2) holding five rings, 3 px strokes at
    /// `ink`, blurred by a `blur`-pixel box: the blur's halo darkens much of the field.
    static func blurredRings(ink: Int, blur: Int) -> GrayImage {
        let sharp = field(ink: nil)
        var g = sharp
        for y in 0..<60 {
            for x in 0..<240 {
                let ringAt = [40, 80, 120, 160, 200].contains { cx in
                    let (dx, dy) = (Double(x - cx), Double(y - 30))
                    let r = (dx * dx + dy * dy).squareRoot()
                    return r >= 11 && r < 14
                }
                if ringAt { g[x, y] = UInt8(ink) }
            }
        }
        var out = g
        let h = blur / 2
        for y in 0..<60 {
            for x in 0..<240 {
                var sum = 0, n = 0
                for yy in max(0, y - h)...min(59, y + h) { for xx in max(0, x - h)...min(239, x + h) { sum += Int(g[xx, yy]); n += 1 } }
                out[x, y] = UInt8(sum / n)
            }
        }
        return out
    }

    @Test("Blurred pale digits whose halo darkens the lower quartile are not taken for grain",
          arguments: [(120, 7), (140, 9)])
    func blurredFaintDigits(ink: Int, blur: Int) {
        #expect(Layout.ownInkPercent(of: Self.blurredRings(ink: ink, blur: blur)) < Layout.inkContrast)
    }

    @Test("Blank paper under light falling off across it is not thresholded by its shade (control)",
          arguments: [20, 40])
    func unevenLightOnly(falloff: Int) {
        var g = Self.field(ink: nil)
        for y in 0..<60 { for x in 0..<240 { g[x, y] = UInt8(Int(g[x, y]) - falloff * x / 239) } }
        #expect(Layout.ownInkPercent(of: g) == Layout.inkContrast, "fall-off \(falloff)")
    }

    @Test("Dark print keeps the usual threshold (control)")
    func darkPrint() {
        #expect(Layout.ownInkPercent(of: Self.field(ink: 40)) >= Layout.inkContrast)
        let (strokes, area, _) = Self.inkOnStrokes(Layout.inkLevels(of: Self.field(ink: 40)).ink)
        #expect(Double(strokes) >= 0.9 * Double(area))
    }

    @Test("Blank paper, fine or coarse grain, is not thresholded by its own noise", arguments: [2, 6, 12])
    func grainOnly(grain: Int) {
        let g = Self.field(ink: nil, grain: grain)
        #expect(Layout.ownInkPercent(of: g) == Layout.inkContrast, "grain ±\(grain)")
        let (_, _, elsewhere) = Self.inkOnStrokes(Layout.inkLevels(of: g).ink)
        #expect(elsewhere < 20, "grain ±\(grain): \(elsewhere) pixels of ink")
    }
}
