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
        var image = GrayImage(width: 300, height: 500, fill: 225)
        for y in 100..<400 {
            for x in 120..<180 where y < 103 || y >= 397 || x < 123 || x >= 177 { image[x, y] = 40 }
        }
        for k in 0..<bars {
            let y0 = 160 + 70 * k
            for y in y0..<(y0 + 5) {
                for x in (123 + reach)..<(177 - reach) { image[x, y] = 30 }
            }
        }
        return image
    }

    static let box = Quadrilateral(topLeft: Point(119.5, 99.5), topRight: Point(179.5, 99.5),
                                   bottomRight: Point(179.5, 399.5), bottomLeft: Point(119.5, 399.5))

    /// The fields laid out from the box, as the detector would list it.
    func fields(_ image: GrayImage) -> [Quadrilateral] {
        Layout().regions(in: image, quads: [DetectedQuad(quad: Self.box, parent: nil, isHole: false)])
            .filter { $0.kind == .field }.map(\.quad)
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
        var image = GrayImage(width: 400, height: 400, fill: 225)
        for y in 100..<300 {
            for x in 100..<300 where y < 103 || y >= 297 || x < 103 || x >= 297 { image[x, y] = 40 }
        }
        if bar {
            for y in 196..<204 { for x in 140..<260 { image[x, y] = 30 } }
        }
        return image
    }

    static let square = Quadrilateral(topLeft: Point(99.5, 99.5), topRight: Point(299.5, 99.5),
                                      bottomRight: Point(299.5, 299.5), bottomLeft: Point(99.5, 299.5))

    /// The fields laid out from the square box.
    func squareFields(_ image: GrayImage) -> [Quadrilateral] {
        Layout().regions(in: image, quads: [DetectedQuad(quad: Self.square, parent: nil, isHole: false)])
            .filter { $0.kind == .field }.map(\.quad)
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
        var image = GrayImage(width: 600, height: 300, fill: 225)
        for y in 100..<160 {
            for x in 100..<400 where y < 103 || y >= 157 || x < 103 || x >= 397 { image[x, y] = 40 }
        }
        for y in 126..<134 { for x in 160..<340 { image[x, y] = 30 } }
        let long = Quadrilateral(topLeft: Point(99.5, 99.5), topRight: Point(399.5, 99.5),
                                 bottomRight: Point(399.5, 159.5), bottomLeft: Point(99.5, 159.5))
        let fields = Layout().regions(in: image, quads: [DetectedQuad(quad: long, parent: nil, isHole: false)])
            .filter { $0.kind == .field }
        #expect(fields.isEmpty)
    }
}

