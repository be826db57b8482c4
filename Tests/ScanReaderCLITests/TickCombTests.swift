import DocumentImaging
import ImagingCore
@testable import ScanReader
import Testing

/// A comb whose places only ticks part: the ticks stand on the line written on, reach
/// part of the way across, and fall evenly; the comb is read place by place, and one
/// whose ticks hang from its top is upside down.
@Suite("Combs parted by ticks")
struct TickCombTests {
    /// A straightened box `places` × `height` high (each place `pitch` wide) with a frame
    /// `line` px wide and a tick of `tickWidth` px reaching `reach` of the height from the
    /// bottom at each place's end (`skipping` some), and extra `strokes` (x, reach share)
    /// standing on the bottom line.
    func comb(places: Int, height: Int, pitchShare: Double = 0.8, reach: Double = 0.45, line: Int = 2,
              tickWidth: Int = 2, skipping: Set<Int> = [], ticksAt: [Double]? = nil,
              strokes: [(x: Int, reach: Double)] = []) -> BinaryImage {
        let pitch = Double(height) * pitchShare
        let width = Int((Double(places) * pitch).rounded()) + line
        var bits = [UInt8](repeating: 0, count: width * height)
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in max(0, y0)..<min(height, y1) { for x in max(0, x0)..<min(width, x1) { bits[y * width + x] = 1 } }
        }
        paint(0, 0, width, line); paint(0, height - line, width, height)
        paint(0, 0, line, height); paint(width - line, 0, width, height)
        let ticks = ticksAt ?? (1..<places).filter { !skipping.contains($0) }.map { Double($0) * pitch }
        for x in ticks {
            let x0 = Int(x.rounded()) + line / 2 - tickWidth / 2
            paint(x0, height - Int(reach * Double(height)), x0 + tickWidth, height)
        }
        for s in strokes { paint(s.x, height - Int(s.reach * Double(height)), s.x + tickWidth, height) }
        return BinaryImage(width: width, height: height, bits: bits)
    }

    func ruling(_ b: BinaryImage) -> (ruling: Ruling, upright: Int)? {
        TickComb.ruling(in: b, lines: FoundLines(in: b))
    }

    @Test("Ticks on the bottom line part the box into its places, over scales, counts and reaches",
          arguments: [30, 60, 120], [4, 7, 12])
    func placesFound(height: Int, places: Int) throws {
        for reach in [0.3, 0.45, 0.6] {
            let line = max(1, height / 30)
            let b = comb(places: places, height: height, reach: reach, line: line, tickWidth: line)
            let found = try #require(ruling(b), "height \(height), \(places) places, reach \(reach)")
            #expect(found.upright == 0)
            #expect(found.ruling.rowCount == 1 && found.ruling.columnCount == places)
            // each tick is drawn centred on the place's end, the frame's half line in
            let pitch = Double(b.width - line) / Double(places)
            for (k, x) in found.ruling.columns.enumerated().dropFirst().dropLast() {
                #expect(abs(x - (Double(k) * pitch + Double(line) / 2)) <= 1.5, "tick \(k) at \(x)")
            }
        }
    }

    @Test("Ticks hanging from the top say the comb is upside down; standing on a side, turned a quarter")
    func sides() throws {
        let b = comb(places: 6, height: 60)
        let upsideDown = b.rotated(quarterTurns: 2)
        #expect(try #require(ruling(upsideDown)).upright == 2)
        // the comb turned a quarter clockwise has its ticks on the left: three more
        // clockwise quarters bring them below
        let onLeft = try #require(ruling(b.rotated(quarterTurns: 1)))
        #expect(onLeft.upright == 3 && onLeft.ruling.rowCount == 6 && onLeft.ruling.columnCount == 1)
        #expect(try #require(ruling(b.rotated(quarterTurns: 3))).upright == 1)
    }

    @Test("Ticks whose pitch grows along the comb (perspective the straightening left) still part it")
    func growingPitch() throws {
        // ten places, the k-th tick at 40 k + 0.4 k² px: places 40.4 to 47.6 px wide, the
        // middle tick 10 px (0.23 of the mean pitch) off an even division
        let ticks = (1..<10).map { k in 40.0 * Double(k) + 0.4 * Double(k * k) }
        let found = try #require(ruling(comb(places: 10, height: 60, pitchShare: 44.0 / 60, ticksAt: ticks)))
        #expect(found.ruling.columnCount == 10)
        // control: ticks jittered a sixth of a pitch either way, alternately, fall on no
        // smooth progression
        let jittered = (1..<10).map { k in 44.0 * Double(k) + (k % 2 == 0 ? 7.5 : -7.5) }
        #expect(ruling(comb(places: 10, height: 60, pitchShare: 44.0 / 60, ticksAt: jittered)) == nil)
    }

    @Test("A slanting stroke's columns, passing the reach bar unevenly, are one stroke")
    func slantingStroke() {
        // a 300 × 60 box (line 2 px) whose columns 100, 102, 104 reach 20 px up from the
        // bottom line and 101, 103 only 4
        var bits = [UInt8](repeating: 0, count: 300 * 60)
        for x in 0..<300 { for y in 58..<60 { bits[y * 300 + x] = 1 } }
        for (x, reach) in [(100, 20), (101, 4), (102, 20), (103, 4), (104, 20)] {
            for y in (59 - reach)..<60 { bits[y * 300 + x] = 1 }
        }
        let b = BinaryImage(width: 300, height: 60, bits: bits)
        let strokes = TickComb.standing(on: 59, inward: -1, span: 58, from: 0, to: 299) { b.isInk($0, $1) }
        #expect(strokes.count == 1 && strokes.first?.width == 5)
    }

    @Test("A digit's stroke standing on the line mid-place leaves the comb its places")
    func digitOnTheLine() throws {
        // 8 places of 48 px; a 1 written down to the line in the third place
        let found = try #require(ruling(comb(places: 8, height: 60, strokes: [(x: 120, reach: 0.5)])))
        #expect(found.ruling.columnCount == 8)
    }

    @Test("No comb (controls): no ticks, a tick lost, uneven strokes, dividers across, digits' feet")
    func controls() {
        #expect(ruling(comb(places: 6, height: 60, ticksAt: [])) == nil)
        // a lost tick: the division it belongs to fails, and the coarser ones leave ticks
        // over at half their places or more
        #expect(ruling(comb(places: 12, height: 60, skipping: [5])) == nil)
        #expect(ruling(comb(places: 6, height: 60, skipping: [3])) == nil)
        // three places: two ticks are too few to tell from two digits' strokes on the line
        #expect(ruling(comb(places: 3, height: 60)) == nil)
        // strokes on the line at uneven places (digits sitting on it)
        #expect(ruling(comb(places: 6, height: 60, ticksAt: [40, 61, 150, 230])) == nil)
        // lines drawn across are dividers, the ruling finder's to find
        #expect(ruling(comb(places: 6, height: 60, reach: 0.95)) == nil)
        // feet of digits touching the line reach too little
        #expect(ruling(comb(places: 6, height: 60, reach: 0.1)) == nil)
        // strokes of unlike reach at the right places: digits' uprights, not printed ticks
        #expect(ruling(comb(places: 4, height: 60, ticksAt: [], strokes: [(48, 0.3), (96, 0.7), (144, 0.45)])) == nil)
    }

    @Test("A tick comb laid out is a grid of its places; upside down, it is turned upright")
    func laidOut() throws {
        // a 6-place comb 60 px high at (40, 40) in a photo, ticks rising 45 % or 70 % from
        // the bottom
        func photo(upsideDown: Bool, reach: Double) -> GrayImage {
            let b = comb(places: 6, height: 60, reach: reach, line: 3, tickWidth: 3)
            let turned = upsideDown ? b.rotated(quarterTurns: 2) : b
            var image = GrayImage(width: turned.width + 80, height: 140, fill: 230)
            for y in 0..<turned.height { for x in 0..<turned.width where turned.isInk(x, y) { image[x + 40, y + 40] = 30 } }
            return image
        }
        for upsideDown in [false, true] { for reach in [0.45, 0.7] {
            let image = photo(upsideDown: upsideDown, reach: reach)
            let w = Double(image.width - 81)
            let quad = Quadrilateral(topLeft: Point(40, 40), topRight: Point(40 + w, 40), bottomRight: Point(40 + w, 99),
                                     bottomLeft: Point(40, 99))
            let regions = Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
            let grid = try #require(regions.first { $0.kind == .grid }, "upside down: \(upsideDown), reach \(reach)")
            #expect(grid.ruling?.rowCount == 1 && grid.ruling?.columnCount == 6)
            // turned upright, the comb's top-left is the photo's bottom-right corner
            let topLeft = grid.quad.topLeft
            #expect(upsideDown ? topLeft.x > 200 && topLeft.y > 90 : topLeft.x < 50 && topLeft.y < 50)
        } }
    }
}

/// A comb the layout turned upright by its ticks still tells the photo's orientation:
/// its cells vote in the frame they were cut in.
@Suite("Tick combs and the photo's orientation")
struct TickCombOrientationTests {
    /// A 7-place tick comb with a 7 drawn in pen in each of its first five places, on paper.
    func sevens() -> GrayImage {
        var image = GrayImage(width: 760, height: 300, fill: 225)
        func stroke(_ a: (Double, Double), _ b: (Double, Double), width: Double) {
            let steps = Int(max(abs(b.0 - a.0), abs(b.1 - a.1)) * 2) + 1
            for s in 0...steps {
                let t = Double(s) / Double(steps)
                let (cx, cy) = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
                for y in Int(cy - width)...Int(cy + width) {
                    for x in Int(cx - width)...Int(cx + width) where (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) <= width * width / 4 {
                        image[x, y] = 35
                    }
                }
            }
        }
        let (x0, y0, pitch, height) = (100.0, 100.0, 80.0, 100.0)
        stroke((x0, y0), (x0 + 7 * pitch, y0), width: 3)
        stroke((x0, y0 + height), (x0 + 7 * pitch, y0 + height), width: 3)
        stroke((x0, y0), (x0, y0 + height), width: 3)
        stroke((x0 + 7 * pitch, y0), (x0 + 7 * pitch, y0 + height), width: 3)
        for k in 1..<7 { stroke((x0 + Double(k) * pitch, y0 + 0.55 * height), (x0 + Double(k) * pitch, y0 + height), width: 3) }
        for k in 0..<5 {
            let left = x0 + Double(k) * pitch + 22
            stroke((left, y0 + 22), (left + 36, y0 + 22), width: 6)
            stroke((left + 36, y0 + 22), (left + 12, y0 + 80), width: 6)
        }
        return image
    }

    @Test("Upright the photo stays; upside down (the comb's ticks hanging) it is turned a half")
    func halfTurn() {
        let reader = OrientationVoteTests.reader
        func turn(_ image: GrayImage) -> Int {
            OrientationVote.turn(from: OrientationVote.evidence(of: reader.readRegions(in: image),
                                                               segmenter: reader.layout.segmenter,
                                                               model: reader.turnModel!))
        }
        let upright = sevens()
        let regions = reader.readRegions(in: upright)
        #expect(regions.map(\.region.kind) == [.grid] && regions.first?.region.ruling?.columnCount == 7)
        #expect(turn(upright) == 0)
        let upsideDown = upright.rotated(quarterTurns: 2)
        #expect(reader.readRegions(in: upsideDown).first?.region.turnedFromPhoto == 2)
        #expect(turn(upsideDown) == 2)
    }
}
