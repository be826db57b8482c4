import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A field standing on end (a form photographed on its side) holds its line of digits on
/// their side: a 1 lies across the box as a bar spanning it, which the field's cut takes
/// for a frame remnant. The layout also counts the field's glyphs a quarter turned
/// (`Layout.fieldPieces`), and `RegionTurn` cuts such a field a quarter turned when
/// it cut nothing as read. A box of any shape holding only one 1 on its side (a note
/// with one digit, photographed turned) is counted and turned the same way.
@Suite("Fields standing on end")
struct StandingFieldTests {
    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    /// A sheet with a drawn box (3-px line, 60 wide, 300 tall, from (120, 100)) holding
    /// `bars` written 1s on their side: 5-px bars across the box, `reach` px short of its
    /// line at each end, 70 px apart.
    static func sheet(bars: Int, reach: Int = 3) -> GrayImage {
        var image = boxSheet(width: 300, height: 500, box: PixelBox(x: 120, y: 100, width: 60, height: 300))
        for k in 0..<bars {
            let y0 = 160 + 70 * k
            for y in y0..<(y0 + 5) {
                for x in (123 + reach)..<(177 - reach) { image[x, y] = 30 }
            }
        }
        return image
    }

    static let box = outline(of: PixelBox(x: 120, y: 100, width: 60, height: 300))

    /// A `width` × `height` sheet (grey 225) with `box` drawn in a 3-px line (grey 40).
    static func boxSheet(width: Int, height: Int, box: PixelBox) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 225)
        for y in box.y..<box.maxY {
            for x in box.x..<box.maxX where y < box.y + 3 || y >= box.maxY - 3 || x < box.x + 3 || x >= box.maxX - 3 {
                image[x, y] = 40
            }
        }
        return image
    }

    /// The quad along the outer edge of a box drawn by `boxSheet`.
    static func outline(of box: PixelBox) -> Quadrilateral {
        let (x0, y0, x1, y1) = (Double(box.x) - 0.5, Double(box.y) - 0.5, Double(box.maxX) - 0.5, Double(box.maxY) - 0.5)
        return Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    /// The fields laid out from `quad`, as the detector would list it.
    static func fields(_ image: GrayImage, quad: Quadrilateral) -> [Quadrilateral] {
        Layout().regions(in: image, quads: [DetectedQuad(quad: quad, parent: nil, isHole: false)])
            .filter { $0.kind == .field }.map(\.quad)
    }

    /// The fields laid out from the box, as the detector would list it.
    func fields(_ image: GrayImage) -> [Quadrilateral] {
        Self.fields(image, quad: Self.box)
    }

    @Test("Three 1s on their side in a standing box: the box is a field", arguments: [2, 4])
    func barsMakeAField(reach: Int) {
        #expect(fields(Self.sheet(bars: 3, reach: reach)) == [Self.box])
    }

    @Test("Control: the empty standing box is no field")
    func emptyBoxIsNoField() {
        #expect(fields(Self.sheet(bars: 0)).isEmpty)
    }

    @Test("The standing box reads its 1s once turned")
    func barsRead() {
        let read = Self.reader.turningRegions(Self.reader.readRegions(in: Self.sheet(bars: 3)), model: Self.reader.turnModel!)
        let texts = read.enumerated().map { i, r in r.result(index: i, scale: 1, minConfidence: 0.6, unsure: "?").text }
        #expect(texts == ["111"])
        #expect(read.map(\.region.kind) == [.field])
    }

    /// A sheet with a square drawn box (3-px line, 200 a side, from (100, 100)) holding,
    /// when `bar`, one written 1 on its side: an 8-px bar 120 long across its middle.
    static func squareSheet(bar: Bool) -> GrayImage {
        var image = boxSheet(width: 400, height: 400, box: squareBox)
        if bar {
            for y in 196..<204 { for x in 140..<260 { image[x, y] = 30 } }
        }
        return image
    }

    static let squareBox = PixelBox(x: 100, y: 100, width: 200, height: 200)
    static let square = outline(of: squareBox)

    /// The fields laid out from the square box.
    func squareFields(_ image: GrayImage) -> [Quadrilateral] {
        Self.fields(image, quad: Self.square)
    }

    @Test("A lone 1 on its side in a square box: the box is a field, and reads 1 once turned")
    func loneBarInSquare() {
        #expect(squareFields(Self.squareSheet(bar: true)) == [Self.square])
        let read = Self.reader.turningRegions(Self.reader.readRegions(in: Self.squareSheet(bar: true)), model: Self.reader.turnModel!)
        let fields = read.filter { $0.region.kind == .field }
        #expect(fields.map { $0.result(index: 0, scale: 1, minConfidence: 0.6, unsure: "?").text } == ["1"])
    }

    @Test("Control: the empty square box is no field")
    func emptySquareIsNoField() {
        #expect(squareFields(Self.squareSheet(bar: false)).isEmpty)
    }

    @Test("Control: a box five times as wide as tall (a line of print's), a bar across it, is no field")
    func longBoxWithBarIsNoField() {
        let long = PixelBox(x: 100, y: 100, width: 300, height: 60)
        var image = Self.boxSheet(width: 600, height: 300, box: long)
        for y in 126..<134 { for x in 160..<340 { image[x, y] = 30 } }
        let fields = Self.fields(image, quad: Self.outline(of: long))
        #expect(fields.isEmpty)
    }
}

