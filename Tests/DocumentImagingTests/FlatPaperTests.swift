import DocumentImaging
import Foundation
import ImagingCore
import Testing

/// Sheets and notes found as flat zones (`FlatZones`, `QuadDetector.flatPaper`) on literal
/// photos: a note only a little lighter or darker than the desk, on plain and on noisy
/// desks, and the controls (a shadow's edge, a box cut by a shadow) that must not give paper.
extension [Point] {
    /// The area of the polygon, its coordinates scaled by `scale`.
    func area(scale: Double) -> Double { abs(Polygon.signedArea(map { Point($0.x * scale, $0.y * scale) })) }
}

@Suite("Flat paper on literal images")
struct FlatPaperTests {
    /// A `width`×`height` desk of grey `desk` with noise of ±`noise` (fixed seed), a note of
    /// grey `note` with the given corners, and `ink` strokes (a digit-like bar) on it.
    static func photo(desk: Int, note: Int, corners: [Point], noise: Int, width: Int = 1600, height: Int = 1200) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 0)
        var state: UInt32 = 99
        let cx = corners.map(\.x).reduce(0, +) / 4, cy = corners.map(\.y).reduce(0, +) / 4
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let jitter = noise == 0 ? 0 : Int(state >> 24) % (2 * noise + 1) - noise
                let p = Point(Double(x), Double(y))
                var v = TestImages.inside(p, corners) ? note : desk
                // a thick stroke in the middle of the note: print the zones must ignore
                if abs(p.x - cx) < 12 && abs(p.y - cy) < 120 { v = 30 }
                image[x, y] = UInt8(max(0, min(255, v + jitter)))
            }
        }
        return image
    }

    static let noteCorners = [Point(500, 300), Point(1050, 360), Point(1000, 900), Point(450, 840)]

    static func found(_ corners: [Point], in quads: [DetectedQuad], within: Double = 10) -> DetectedQuad? {
        quads.first { q in corners.allSatisfy { c in q.quad.corners.contains { Polygon.distance($0, c) < within } } }
    }

    @Test("A note a little lighter or darker than the desk is found at its corners",
          arguments: [(195, 175), (175, 195), (120, 235), (200, 185)], [0, 6])
    func noteOnDesk(_ shades: (desk: Int, note: Int), noise: Int) {
        let image = Self.photo(desk: shades.desk, note: shades.note, corners: Self.noteCorners, noise: noise)
        let quads = QuadDetector().detect(in: image)
        #expect(Self.found(Self.noteCorners, in: quads) != nil,
                "desk \(shades.desk) note \(shades.note) noise \(noise): \(quads.prefix(4).map(\.quad.corners))")
    }

    @Test("Control: the ink threshold's passes alone (no flat paper, no sensitive pass) miss a note a tenth darker than the desk")
    func darkNoteNeedsFlatZones() {
        var detector = QuadDetector()
        detector.findsFlatPaper = false
        detector.sensitiveBinarization = nil
        let image = Self.photo(desk: 195, note: 175, corners: Self.noteCorners, noise: 6)
        #expect(Self.found(Self.noteCorners, in: detector.detect(in: image)) == nil)
        detector.findsFlatPaper = true
        #expect(Self.found(Self.noteCorners, in: detector.detect(in: image)) != nil)
    }

    @Test("A sheet half in a hard shadow: the shadowed part alone is not taken for paper")
    func shadowedPartIsNoSheet() {
        // a light sheet on a dark desk; the right part of the photo (sheet and desk) in shadow
        let sheet = [Point(300, 200), Point(1300, 200), Point(1300, 1000), Point(300, 1000)]
        var image = Self.photo(desk: 90, note: 225, corners: sheet, noise: 3)
        for y in 0..<image.height { for x in 900..<image.width { image[x, y] = UInt8(Double(image[x, y]) * 0.6) } }
        let shadowed = [Point(900, 200), Point(1300, 200), Point(1300, 1000), Point(900, 1000)]
        let quads = QuadDetector().detect(in: image)
        #expect(Self.found(shadowed, in: quads, within: 25) == nil, "\(quads.map(\.quad.corners))")
    }

    @Test("A drawn box cut by a shadow's edge gives no half-box paper")
    func boxCutByShadow() {
        var image = GrayImage(width: 1600, height: 1200, fill: 225)
        for x in 400...1200 { for t in 0..<4 { image[x, 400 + t] = 40; image[x, 800 - t] = 40 } }
        for y in 400...800 { for t in 0..<4 { image[400 + t, y] = 40; image[1200 - t, y] = 40 } }
        for y in 0..<1200 { for x in 800..<1600 { image[x, y] = UInt8(Double(image[x, y]) * 0.6) } }
        let quads = QuadDetector().detect(in: image)
        let halves = quads.filter { $0.isFlatPaper && $0.quad.area < 0.7 * 800 * 400 && $0.quad.area > 0.2 * 800 * 400 }
        #expect(halves.isEmpty, "\(halves.map(\.quad.corners))")
    }

    @Test("The joining step follows the copy's noise, never under the smallest step")
    func stepFollowsNoise() {
        let clean = GrayImage(width: 200, height: 150, fill: 128)
        #expect(FlatZones.joiningStep(clean) == FlatZones.smallestStep)
        var state: UInt32 = 5
        let noisy = GrayImage(width: 200, height: 150, pixels: (0..<(200 * 150)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(118 + Int(state >> 24) % 21)
        })
        #expect(FlatZones.joiningStep(noisy) > FlatZones.smallestStep)
    }

    @Test("The edge test: a zone's side whose step runs on past both corners (a shadow's edge) is no paper edge")
    func shadowEdgeRunsOn() {
        // left half lit (200), right half in shadow (120); a "zone" outline whose left side
        // is the shadow's edge, and a control outline of a real note
        var image = GrayImage(width: 240, height: 180, fill: 200)
        for y in 0..<180 { for x in 120..<240 { image[x, y] = 120 } }
        let cut = Quadrilateral(topLeft: Point(120, 40), topRight: Point(200, 40), bottomRight: Point(200, 140), bottomLeft: Point(120, 140))
        #expect(!FlatZones.outlinesPaper(cut, in: image))
        var noteImage = GrayImage(width: 240, height: 180, fill: 90)
        for y in 40..<140 { for x in 60..<180 { noteImage[x, y] = 200 } }
        let note = Quadrilateral(topLeft: Point(60, 40), topRight: Point(179, 40), bottomRight: Point(179, 139), bottomLeft: Point(60, 139))
        #expect(FlatZones.outlinesPaper(note, in: noteImage))
    }

    /// A note of grey 200 on a desk of `desk`, the part of the photo right of the line
    /// x = 700 + 0.3·y in a hard shadow (×`shadow`, 1 = none), where the shadow's edge also
    /// falls across the desk.
    static func noteInShadow(shadow: Double, desk: Int = 120) -> GrayImage {
        var image = Self.photo(desk: desk, note: 200, corners: Self.noteCorners, noise: 3)
        for y in 0..<image.height {
            for x in 0..<image.width where Double(x) > 700 + 0.3 * Double(y) {
                image[x, y] = UInt8(Double(image[x, y]) * shadow)
            }
        }
        return image
    }

    /// A note of grey `note` on a desk of `desk` whose band along its top side, `share` of
    /// the side's length deep, is darker by `stripStep` (a sticky strip, a shaded fold); when
    /// `wedge`, the band tapers from `share` deep at the side's start to a fifth of that at
    /// its end (another paper's corner, a tint cut aslant).
    /// `flecks`: spots of the note's own tone scattered in the band (8 px, one in every
    /// 40 × 40 px on average), as noise leaves the boundary between two close tones ragged.
    static func noteWithStrip(share: Double, desk: Int = 200, note: Int = 180, stripStep: Int = 16,
                              wedge: Bool = false, flecks: Bool = false) -> GrayImage {
        var image = Self.photo(desk: desk, note: note, corners: Self.noteCorners, noise: 3)
        let a = Self.noteCorners[0], b = Self.noteCorners[1]
        let length = Polygon.distance(a, b)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = Point(Double(x), Double(y))
                guard TestImages.inside(p, Self.noteCorners), image[x, y] > 100 else { continue }
                let depth = abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length
                let along = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / (length * length)
                let deep = wedge ? share * length * (1 - 0.8 * max(0, min(1, along))) : share * length
                // a fleck: an 8 × 8 px cell of a 40 × 40 px grid, in a fixed scatter
                let cell = (x / 40) * 7919 + (y / 40) * 104_729
                let fleck = flecks && x % 40 >= (cell % 32) && x % 40 < (cell % 32) + 8
                    && y % 40 >= (cell / 32 % 32) && y % 40 < (cell / 32 % 32) + 8
                if depth < deep && !fleck { image[x, y] = UInt8(Int(image[x, y]) - stripStep) }
            }
        }
        return image
    }

    @Test("A note with a darker strip of even thickness along one side is found whole", arguments: [0.1, 0.16])
    func noteWithStripFoundWhole(share: Double) {
        let quads = QuadDetector().detect(in: Self.noteWithStrip(share: share))
        #expect(Self.found(Self.noteCorners, in: quads) != nil, "strip \(share): \(quads.prefix(5).map(\.quad.corners))")
    }

    /// (A thinner strip, 0.1 of the side, is cut by the flecks into zones of its own, none
    /// along the whole side: not found whole, with the thickness counted either way.)
    @Test("A note's darker strip flecked with the note's own tone (its boundary ragged) is still a strip: found whole",
          arguments: [0.16])
    func noteWithFleckedStripFoundWhole(share: Double) {
        let quads = QuadDetector().detect(in: Self.noteWithStrip(share: share, flecks: true))
        #expect(Self.found(Self.noteCorners, in: quads) != nil, "strip \(share): \(quads.prefix(5).map(\.quad.corners))")
    }

    @Test("Control: a darker wedge along a note's side, or a darker half, is not joined to it",
          arguments: [(0.2, true), (0.45, false)])
    func wedgeOrHalfIsNoStrip(share: Double, wedge: Bool) {
        let quads = QuadDetector().detect(in: Self.noteWithStrip(share: share, wedge: wedge))
        #expect(Self.found(Self.noteCorners, in: quads) == nil, "\(share) wedge \(wedge): \(quads.prefix(5).map(\.quad.corners))")
    }

    @Test("A note cut in two by a hard shadow's edge that crosses the desk too is found whole")
    func noteCutByShadow() {
        let quads = QuadDetector().detect(in: Self.noteInShadow(shadow: 0.55))
        #expect(Self.found(Self.noteCorners, in: quads) != nil, "\(quads.prefix(5).map(\.quad.corners))")
    }

    @Test("A shadow dims paper and desk by one factor: the note is found whole on a dark desk, whose step is far smaller",
          arguments: [50, 70, 90])
    func noteCutByShadowOnDarkDesk(desk: Int) {
        // the desk's step (desk × 0.45) is under half the note's (200 × 0.45) in grey levels,
        // the same share of its level
        let image = Self.noteInShadow(shadow: 0.55, desk: desk)
        #expect(Self.wholeNoteZones(image) == 1)
        let quads = QuadDetector().detect(in: image)
        #expect(Self.found(Self.noteCorners, in: quads) != nil, "\(quads.prefix(5).map(\.quad.corners))")
    }

    /// `noteInShadow` with a soft shadow whose edge, x = 560 + 0.3·y, halves the note: the
    /// dimming ramps over `penumbra` pixels across it; `line`: a dark line (grey 60, 24 px)
    /// drawn along the edge's middle, as where two sheets meet.
    static func noteInSoftShadow(shadow: Double, penumbra: Double, line: Bool = false) -> GrayImage {
        var image = Self.photo(desk: 120, note: 200, corners: Self.noteCorners, noise: 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let d = Double(x) - (560 + 0.3 * Double(y))
                let share = min(1, max(0, d / penumbra + 0.5))
                image[x, y] = UInt8(Double(image[x, y]) * (1 - (1 - shadow) * share))
                if line && abs(d) < 12 { image[x, y] = 60 }
            }
        }
        return image
    }

    /// The flat zones of `image` (halved, as the detector's copy) that are the note of
    /// `noteCorners`: most of it and little else (the desk's two halves are zones too).
    static func wholeNoteZones(_ image: GrayImage) -> Int {
        let (_, coarse, masks, _) = FlatZones.zones(of: image.reduced(by: 2))
        let scale = Double(coarse.width) / Double(image.width)
        let note = Self.noteCorners.map { Point($0.x * scale, $0.y * scale) }
        let area = Self.noteCorners.area(scale: scale)
        return masks.filter { m in
            var inside = 0, outside = 0
            for y in 0..<m.height {
                for x in 0..<m.width where m.bits[y * m.width + x] == 1 {
                    if TestImages.inside(Point(Double(x), Double(y)), note) { inside += 1 } else { outside += 1 }
                }
            }
            return Double(inside) > 0.75 * area && Double(outside) < 0.1 * area
        }.count
    }

    @Test("A note cut by a soft shadow's edge (its penumbra wider than a hard edge's band of edge pixels) is one zone",
          arguments: [48.0, 64.0])
    func noteCutBySoftShadow(penumbra: Double) {
        #expect(Self.wholeNoteZones(Self.noteInSoftShadow(shadow: 0.55, penumbra: penumbra)) == 1)
        // and the detector finds it whole
        let quads = QuadDetector().detect(in: Self.noteInSoftShadow(shadow: 0.55, penumbra: penumbra))
        #expect(Self.found(Self.noteCorners, in: quads) != nil, "\(quads.prefix(5).map(\.quad.corners))")
    }

    @Test("Control: a wide band between two zones joins them only as a ramp: with a dark line along it, no whole note")
    func wideBandMustBeARamp() {
        #expect(Self.wholeNoteZones(Self.noteInSoftShadow(shadow: 0.55, penumbra: 64, line: true)) == 0)
    }

    @Test("Control: two zones are joined only across a border that runs on past them: a note in two tints stays two")
    func joinsOnlyAcrossAShadow() {
        // control: the two halves of a note split by a step that ends at the note's sides
        // (two papers side by side, a tint): still two zones, never one quad
        var image = Self.photo(desk: 120, note: 200, corners: Self.noteCorners, noise: 3)
        for y in 0..<image.height {
            for x in 0..<image.width where Double(x) > 700 + 0.3 * Double(y) && TestImages.inside(Point(Double(x), Double(y)), Self.noteCorners) {
                image[x, y] = 150
            }
        }
        let small = image.reduced(by: 2)
        let (_, coarse, masks, _) = FlatZones.zones(of: small)
        let whole = masks.filter { m in
            m.bits.reduce(0) { $0 + Int($1) } > Int(0.75 * Self.noteCorners.area(scale: Double(coarse.width) / Double(image.width)))
        }
        #expect(whole.isEmpty)
    }
}
