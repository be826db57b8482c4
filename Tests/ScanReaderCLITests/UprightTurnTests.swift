@testable import DigitClassifier
import DocumentImaging
import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// `--orientation auto` reports the photo turned so that the documents it read stand
/// nearest to level: when every region that read a digit had to be turned on its own, the
/// photo was read the wrong way up, and documents near a diagonal take the nearer quarter
/// turn (`OrientationVote.uprightTurn`).
@Suite("The photo's turn from its documents' tops")
struct UprightTurnTests {
    /// A region of `kind` whose top side points `degrees` clockwise of the photo's x axis
    /// (a 200 × 120 quad about (500, 400)), its one piece read as `label` (10: rejected).
    static func region(topAt degrees: Double, label: Int = 7, kind: LaidOutRegion.Kind = .field) -> ReadRegion {
        let a = degrees * .pi / 180
        let (ux, uy) = (cos(a), sin(a)), (vx, vy) = (-sin(a), cos(a))   // along the top, and down the side
        func corner(_ s: Double, _ t: Double) -> Point { Point(500 + 100 * s * ux + 60 * t * vx, 400 + 100 * s * uy + 60 * t * vy) }
        let quad = Quadrilateral(topLeft: corner(-1, -1), topRight: corner(1, -1), bottomRight: corner(1, 1),
                                 bottomLeft: corner(-1, 1))
        let gray = GrayImage(width: 200, height: 120, fill: 230)
        let laidOut = LaidOutRegion(kind: kind, quad: quad, gray: gray, binary: gray.binarized(), ruling: nil)
        var probabilities = [Float](repeating: 0.005, count: 11)
        probabilities[label] = 0.95
        let piece = ReadRegion.Piece(crop: nil, row: nil, col: nil, input: 0,
                                     prediction: DigitPrediction(probabilities: probabilities, label: label))
        return ReadRegion(region: laidOut, pieces: [piece])
    }

    @Test("Tops pointing up, right, down, left of the photo ask for 0, 3, 2, 1 clockwise quarter turns, ±30°")
    func quarterTurns() {
        for (top, turn) in [(0.0, 0), (90, 3), (180, 2), (270, 1)] {
            for tilt in stride(from: -30.0, through: 30, by: 10) {
                #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: top + tilt)]) == turn, "top at \(top + tilt)°")
            }
        }
    }

    @Test("Documents lying near a diagonal take the nearer quarter turn; within levelTolerance of it, none")
    func diagonals() {
        for diagonal in [45.0, 135, 225, 315] {
            // a little short of the diagonal: the turn of the quarter just before it
            let before = ((4 - Int(diagonal - 45) / 90) % 4)
            let after = (before + 3) % 4
            for off in [-8.0, -3] {
                #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: diagonal + off)]) == before, "top at \(diagonal + off)°")
            }
            for off in [3.0, 8] {
                #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: diagonal + off)]) == after, "top at \(diagonal + off)°")
            }
            // on the diagonal, within what a region's side is measured to: a coin's throw
            for off in [-1.0, 0, 1] {
                #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: diagonal + off)]) == 0, "top at \(diagonal + off)°")
            }
        }
        // one sheet's boxes bent apart by perspective: their mean decides (44°: none; 48°: a
        // quarter turn anticlockwise, 3 clockwise), though one of them alone would not
        #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: 41), Self.region(topAt: 47)]) == 0)
        #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: 43), Self.region(topAt: 53)]) == 3)
        #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: 43)]) == 0)
    }

    @Test("Regions that disagree tell no turn; one that read no digit, or a page, is not asked")
    func agreement() {
        let upsideDown = Self.region(topAt: 178)
        #expect(OrientationVote.uprightTurn(of: [upsideDown, Self.region(topAt: 2)]) == 0)
        // a note lying square to its sheet: two documents' tops, no one turn
        #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: 88), Self.region(topAt: 2)]) == 0)
        #expect(OrientationVote.uprightTurn(of: [upsideDown, Self.region(topAt: 178)]) == 2)
        #expect(OrientationVote.uprightTurn(of: [upsideDown, Self.region(topAt: 2, label: 10)]) == 2)
        #expect(OrientationVote.uprightTurn(of: [upsideDown, Self.region(topAt: 2, kind: .page)]) == 2)
        #expect(OrientationVote.uprightTurn(of: [Self.region(topAt: 178, label: 10)]) == 0)
        #expect(OrientationVote.uprightTurn(of: []) == 0)
    }
}
