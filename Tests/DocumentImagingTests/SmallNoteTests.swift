import Foundation
@testable import DocumentImaging
import ImagingCore
import Testing

/// A solver's candidate at a cell's centre (the fifth of the 3 × 3 pattern) is small both
/// ways against the grid's digits; a pale digit the threshold broke, or a 1, is not.
@Suite("Centred candidates in puzzle cells")
struct SmallNoteTests {
    /// A 3×3 ruled grid of `cell`-px cells with a ring (a 0 standing for any digit) in each
    /// cell: 0.45 of the cell tall and 0.22 wide, times `scale[k]` in cell k (0: empty).
    /// Where `pale(k)`, cell k's ring is dark only over its upper left (0.6 of it each way)
    /// and light grey elsewhere: the threshold keeps a piece small both ways, a lower
    /// threshold the whole ring. Where `darkTop(k)` is f, cell k's ring is dark only above
    /// f of its half-height from its centre (−1 its top, 0 its middle) and light grey
    /// below; where `erased` is k, only its upper left arc is dark (above its centre and
    /// left of −0.3 of its half-width). `bar`: the cell holding a 1 instead.
    static func grid(cell: Int, scale: [Double], pale: (Int) -> Bool = { _ in false },
                     darkTop: (Int) -> Double? = { _ in nil }, erased: Int? = nil,
                     bar: Int? = nil) -> (GrayImage, BinaryImage, BinaryImage, Ruling) {
        let side = 3 * cell
        var g = GrayImage(width: side, height: side, fill: 235)
        var strong = [UInt8](repeating: 0, count: side * side), faint = strong
        func ink(_ x: Int, _ y: Int, _ level: UInt8) {
            guard x >= 0, y >= 0, x < side, y < side else { return }
            g[x, y] = level; faint[y * side + x] = 1
            if level < 128 { strong[y * side + x] = 1 }
        }
        let t = max(1, cell / 40)
        for k in 0...3 {
            for d in 0..<t { for p in 0..<side { let at = min(side - 1, k * cell + d - t / 2); ink(at, p, 25); ink(p, at, 25) } }
        }
        for (k, s) in scale.enumerated() where s > 0 {
            let cx = Double((k % 3) * cell) + Double(cell) / 2, cy = Double((k / 3) * cell) + Double(cell) / 2
            let ry = 0.225 * Double(cell) * s, rx = 0.11 * Double(cell) * s
            for y in Int(cy - ry)...Int(cy + ry) {
                for x in Int(cx - rx)...Int(cx + rx) {
                    if k == bar {      // a 1: a bar a fifth as wide as the ring is tall
                        if abs(Double(x) - cx) <= 0.2 * ry { ink(x, y, 25) }
                        continue
                    }
                    let e = pow((Double(x) - cx) / rx, 2) + pow((Double(y) - cy) / ry, 2)
                    guard e <= 1, e >= 0.4 else { continue }
                    let dark = Double(x) < cx + 0.2 * rx && Double(y) < cy + 0.2 * ry
                    if k == erased {
                        ink(x, y, Double(y) < cy && Double(x) < cx - 0.3 * rx ? 25 : 200)
                        continue
                    }
                    if let top = darkTop(k) {
                        ink(x, y, Double(y) < cy + top * ry ? 25 : 200)
                        continue
                    }
                    ink(x, y, pale(k) && !dark ? 200 : 25)
                }
            }
        }
        let lines = (0...3).map { Double($0 * cell) }
        return (g, BinaryImage(width: side, height: side, bits: strong), BinaryImage(width: side, height: side, bits: faint),
                Ruling(rows: lines, columns: lines))
    }

    /// The number of crops read in each cell.
    static func counts(cell: Int, scale: [Double], pale: (Int) -> Bool = { _ in false },
                       darkTop: (Int) -> Double? = { _ in nil }, bar: Int? = nil, withFaint: Bool = true) -> [Int] {
        cuts(cell: cell, scale: scale, pale: pale, darkTop: darkTop, bar: bar, withFaint: withFaint).map(\.count)
    }

    /// The crops read in each cell.
    static func cuts(cell: Int, scale: [Double], pale: (Int) -> Bool = { _ in false },
                     darkTop: (Int) -> Double? = { _ in nil }, bar: Int? = nil, withFaint: Bool = true) -> [[InkCrop]] {
        let (g, b, f, ruling) = grid(cell: cell, scale: scale, pale: pale, darkTop: darkTop, bar: bar)
        return DigitSegmenter().gridCellDigits(gray: g, binary: b, faint: withFaint ? f : nil, ruling: ruling)
    }

    @Test("A centred candidate 0.55 of the digits' size both ways reads empty, at every cell size", arguments: [60, 90, 120, 180])
    func centredCandidate(cell: Int) {
        let scale = [1, 1, 0.55, 1, 0, 1, 0.55, 1, 1.0]
        #expect(Self.counts(cell: cell, scale: scale) == [1, 1, 0, 1, 0, 1, 0, 1, 1])
    }

    @Test("Control: a digit written 0.75 of the others' size stays, at every cell size", arguments: [60, 90, 120, 180])
    func smallDigitKept(cell: Int) {
        let scale = [1, 1, 0.75, 1, 0, 1, 1, 1, 1.0]
        #expect(Self.counts(cell: cell, scale: scale) == [1, 1, 1, 1, 0, 1, 1, 1, 1])
    }

    @Test("Control: a short 1, narrow, stays", arguments: [60, 120])
    func shortOneKept(cell: Int) {
        let scale = [1, 1, 0.6, 1, 0, 1, 1, 1, 1.0]
        #expect(Self.counts(cell: cell, scale: scale, bar: 2) == [1, 1, 1, 1, 0, 1, 1, 1, 1])
    }

    @Test("A pale digit the threshold kept only a corner of is measured on its faint ink and stays", arguments: [60, 120])
    func paleDigitKept(cell: Int) {
        let scale = [1, 1, 1, 1, 0, 1, 1, 1, 1.0]
        #expect(Self.counts(cell: cell, scale: scale, pale: { $0 == 2 }) == [1, 1, 1, 1, 0, 1, 1, 1, 1])
        // premise: without the faint ink the piece is small both ways and is taken for a candidate
        #expect(Self.counts(cell: cell, scale: scale, pale: { $0 == 2 }, withFaint: false)[2] == 0)
    }

    @Test("A pale digit whose dark piece is a centred note as cut is read whole, grown by its faint ink",
          arguments: [60, 90, 120, 180])
    func paleDigitReadWhole(cell: Int) throws {
        let scale = [1, 1, 1, 1, 0, 1, 1, 1, 1.0]
        let cuts = Self.cuts(cell: cell, scale: scale, darkTop: { $0 == 2 ? -0.1 : nil })
        #expect(cuts.map(\.count) == [1, 1, 1, 1, 0, 1, 1, 1, 1])
        // the whole ring (0.45 of the cell tall), not its dark top
        let crop = try #require(cuts[2].first)
        #expect(Double(crop.box.height) >= 0.9 * 0.45 * Double(cell))
        // premise: the dark top alone is under half the digits' height, a centred note
        #expect(Self.counts(cell: cell, scale: scale, darkTop: { $0 == 2 ? -0.1 : nil }, withFaint: false)[2] == 0)
    }

    @Test("Control: an erased digit's last dark trace, a small share of its faint glyph, stays empty",
          arguments: [60, 90, 120, 180])
    func erasedTraceEmpty(cell: Int) throws {
        let scale = [1, 1, 1, 1, 0, 1, 1, 1, 1.0]
        let (g, b, f, ruling) = Self.grid(cell: cell, scale: scale, erased: 2)
        let cuts = DigitSegmenter().gridCellDigits(gray: g, binary: b, faint: f, ruling: ruling)
        #expect(cuts.map(\.count) == [1, 1, 0, 1, 0, 1, 1, 1, 1])
        // premise: the trace is cut (no speck, tall enough for a cell), so the note rules
        // decide it, and measured whole it is no note: only the faint ink's refusal to grow it
        // keeps it out
        let trace = try #require(DigitSegmenter().cellDigit(gray: g, binary: b, faint: f, cell: g.cellBox(ruling, 0, 2)))
        let glyph = DigitSegmenter.wholeGlyph(of: trace, binary: b, faint: f, cell: g.cellBox(ruling, 0, 2))
        #expect(Double(glyph.height) >= 0.9 * 0.45 * Double(cell))
    }
}
