import ImagingCore
import Testing

@Suite("GrayImage")
struct GrayImageTests {
    // 3x2:  1 2 3
    //       4 5 6
    let image = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])

    @Test("Orientations move pixels as the EXIF specification says")
    func orientations() {
        let expected: [ExifOrientation: (Int, Int, [UInt8])] = [
            .up: (3, 2, [1, 2, 3, 4, 5, 6]),
            .upMirrored: (3, 2, [3, 2, 1, 6, 5, 4]),
            .down: (3, 2, [6, 5, 4, 3, 2, 1]),
            .downMirrored: (3, 2, [4, 5, 6, 1, 2, 3]),
            .leftMirrored: (2, 3, [1, 4, 2, 5, 3, 6]),
            .right: (2, 3, [4, 1, 5, 2, 6, 3]),
            .rightMirrored: (2, 3, [6, 3, 5, 2, 4, 1]),
            .left: (2, 3, [3, 6, 2, 5, 1, 4]),
        ]
        for (orientation, (w, h, pixels)) in expected {
            #expect(image.oriented(orientation) == GrayImage(width: w, height: h, pixels: pixels),
                    "\(orientation)")
        }
    }

    @Test("Four quarter turns are the identity")
    func quarterTurns() {
        #expect(image.rotated(quarterTurns: 1).rotated(quarterTurns: 3) == image)
        #expect(image.rotated(quarterTurns: 2) == image.oriented(.down))
    }

    @Test("Reduction averages blocks, partial blocks included")
    func reduction() {
        let reduced = image.reduced(by: 2)
        #expect(reduced == GrayImage(width: 2, height: 1, pixels: [3, 5]))  // (1+2+4+5)/4, (3+6)/2
    }

    @Test("Reduction by any factor is the rounded block mean (shift, multiply and division paths alike)")
    func reductionMatchesDefinition() {
        let w = 37, h = 23
        let pixels = Self.randomPixels(w * h, seed: 12345)
        let source = GrayImage(width: w, height: h, pixels: pixels)
        for factor in 1...7 {
            let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
            var expected = [UInt8](repeating: 0, count: rw * rh)
            for oy in 0..<rh {
                for ox in 0..<rw {
                    var sum = 0, n = 0
                    for y in (oy * factor)..<min(h, oy * factor + factor) {
                        for x in (ox * factor)..<min(w, ox * factor + factor) { sum += Int(pixels[y * w + x]); n += 1 }
                    }
                    expected[oy * rw + ox] = UInt8((sum + n / 2) / n)
                }
            }
            #expect(source.reduced(by: factor) == GrayImage(width: rw, height: rh, pixels: expected), "factor \(factor)")
        }
    }

    @Test("Darkest-pixel reduction is each block's minimum, partial blocks included; a 1 px line keeps its darkness")
    func darkestReduction() {
        let w = 29, h = 19
        let pixels = Self.randomPixels(w * h, seed: 777)
        let source = GrayImage(width: w, height: h, pixels: pixels)
        for factor in 1...6 {
            let rw = (w + factor - 1) / factor, rh = (h + factor - 1) / factor
            var expected = [UInt8](repeating: 255, count: rw * rh)
            for y in 0..<h { for x in 0..<w { expected[(y / factor) * rw + x / factor] = min(expected[(y / factor) * rw + x / factor], pixels[y * w + x]) } }
            #expect(source.reducedKeepingDarkest(by: factor) == GrayImage(width: rw, height: rh, pixels: expected), "factor \(factor)")
        }
        // a one-pixel line of 100 on 240 paper: the mean of 4×4 blocks fades it to 205, the darkest keeps 100
        var paper = GrayImage(width: 16, height: 16, fill: 240)
        for y in 0..<16 { paper[5, y] = 100 }
        #expect(paper.reduced(by: 4)[1, 2] == 205)
        #expect(paper.reducedKeepingDarkest(by: 4)[1, 2] == 100)
        #expect(paper.reducedKeepingDarkest(by: 4)[0, 2] == 240)
    }

    /// `count` pseudo-random bytes (a linear congruential generator from `seed`).
    static func randomPixels(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }
}
