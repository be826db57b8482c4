import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// A sheet a shadow's edge cuts in two is found both whole (its flat zones joined) and as
/// the part on one side, which keeps two or three of the sheet's sides: the whole sheet is
/// the field, since the glyphs the edge crosses are whole only in it.
@Suite("A piece of a sheet gives way to the sheet")
struct PaperPieceTests {
    /// A sheet (grey 215, 600 × 400 at (100, 100)) on a desk of 90, holding two written 0s
    /// (rings 60 × 100) centred at (300, 300) and (520, 300).
    static func photo() -> GrayImage {
        var image = GrayImage(width: 800, height: 600, fill: 90)
        for y in 100..<500 { for x in 100..<700 { image[x, y] = 215 } }
        for digitX in [300.0, 520.0] {
            for y in 240..<360 {
                for x in Int(digitX) - 40..<Int(digitX) + 40 {
                    let ex = (Double(x) + 0.5 - digitX) / 30, ey = (Double(y) + 0.5 - 300) / 50
                    let r = (ex * ex + ey * ey).squareRoot()
                    if r <= 1 && r >= 0.72 { image[x, y] = 30 }
                }
            }
        }
        return image
    }

    static func quad(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Quadrilateral {
        Quadrilateral(topLeft: Point(x0, y0), topRight: Point(x1, y0), bottomRight: Point(x1, y1), bottomLeft: Point(x0, y1))
    }

    static let sheet = quad(99.5, 99.5, 699.5, 499.5)

    /// The fields laid out from the sheet (flat paper unless `sheetIsPaper` is false) and
    /// `inner`, as the detector would list them.
    func fields(inner: Quadrilateral, sheetIsPaper: Bool = true) -> [Quadrilateral] {
        var quads = [DetectedQuad(quad: Self.sheet, parent: nil, isHole: true, isFlatPaper: sheetIsPaper),
                     DetectedQuad(quad: inner, parent: nil, isHole: true)]
        DetectedQuad.assignParents(&quads)
        return Layout().regions(in: Self.photo(), quads: quads).filter { $0.kind == .field }.map(\.quad)
    }

    @Test("The part left of a cut through the second digit (three of the sheet's sides kept): the sheet is the field",
          arguments: [520.0, 540.0])
    func sheetTakesItsPiece(cutX: Double) {
        let found = fields(inner: Self.quad(99.5, 99.5, cutX, 499.5))
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.topRight.x - 699.5) < 1 } == true)
    }

    @Test("The part below a slanted cut (two of the sheet's sides kept): the sheet is the field")
    func sheetTakesACorner() {
        // a quad keeping the sheet's bottom and right sides, its top-left corner cut off
        // through the first digit
        let piece = Quadrilateral(topLeft: Point(99.5, 420), topRight: Point(699.5, 99.5),
                                  bottomRight: Point(699.5, 499.5), bottomLeft: Point(99.5, 499.5))
        let found = fields(inner: piece)
        #expect(found.count == 1)
        #expect(found.first.map { abs($0.topLeft.y - 99.5) < 1 } == true)
    }

    @Test("Controls: a box on the sheet, the same quad twice, and a piece of something not paper stay as they are")
    func othersStay() {
        // a box drawn around the second digit keeps none of the sheet's sides
        #expect(fields(inner: Self.quad(440, 220, 600, 380)).map(\.topLeft.x) == [440])
        // the sheet found twice (all four sides): the inner copy is the field, as before
        #expect(fields(inner: Self.quad(100.5, 100.5, 698.5, 498.5)).map(\.topLeft.x) == [100.5])
        // the outer quad a box's inside, not paper: its inner part holding every glyph it
        // holds is not its piece (a box takes its parts' place only when it cuts more
        // glyphs than they do, `NestedFieldTests`)
        #expect(fields(inner: Self.quad(99.5, 99.5, 600, 499.5), sheetIsPaper: false).map(\.topRight.x) == [600])
        // the same part of paper is its piece
        #expect(fields(inner: Self.quad(99.5, 99.5, 600, 499.5)).map(\.topRight.x) == [699.5])
    }

    @Test("A quad's sides lying along another's: counted within the tolerance, none for a box inside")
    func sidesAlong() {
        let sheet = Self.sheet
        #expect(Self.quad(99.5, 99.5, 400, 499.5).sidesLying(along: sheet, within: 2) == 3)
        #expect(Self.quad(99.5, 101, 400, 497.5).sidesLying(along: sheet, within: 2) == 3)
        #expect(Self.quad(99.5, 105, 400, 497.5).sidesLying(along: sheet, within: 2) == 2)
        #expect(Self.quad(200, 200, 400, 400).sidesLying(along: sheet, within: 2) == 0)
        #expect(sheet.sidesLying(along: sheet, within: 0.1) == 4)
    }
}
