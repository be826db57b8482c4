import DigitClassifier
import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore
@testable import ScanReader
import Testing

/// `--orientation auto`: the glyphs a reading cut say which way is up.
@Suite("Orientation from the glyphs")
struct OrientationVoteTests {
    static let reader: DocumentReader = {
        var options = ReadOptions()
        options.orientation = .auto
        return try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path,
                                   options: options)
    }()

    /// The turn `--orientation auto` would take for `image`.
    func turn(of image: GrayImage) -> Int {
        let reader = Self.reader
        return OrientationVote.turn(from: OrientationVote.evidence(of: reader.readRegions(in: image),
                                                                  segmenter: reader.layout.segmenter,
                                                                  model: reader.turnModel!))
    }

    static func sample(_ name: String) throws -> GrayImage {
        try ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/\(name)").path,
                             options: .init(maxDimension: ReadOptions().workingSize)).image
    }

    @Test("A sample photo turned 0–3 quarter turns is turned back upright",
          arguments: ["sticky-one-digit.jpg", "form-fields.jpg", "ruled-grid.jpg", "number-on-sheet.jpg"])
    func turnsBack(name: String) throws {
        let upright = try Self.sample(name)
        for k in 0..<4 {
            #expect((turn(of: upright.rotated(quarterTurns: k)) + k) % 4 == 0, "\(name) turned \(k)")
        }
    }

    @Test("No glyphs, no turn: blank paper, and a ruled grid with empty cells (control)")
    func nothingToTell() throws {
        var paper = GrayImage(width: 600, height: 800, fill: 210)
        var state: UInt32 = 7
        for i in paper.pixels.indices {   // paper grain
            state = state &* 1_664_525 &+ 1_013_904_223
            paper.pixels[i] = UInt8(200 + Int(state >> 28))
        }
        #expect(turn(of: paper) == 0)
        var grid = paper
        for k in 0...9 {   // a 9×9 ruling, 50 px cells, lines 3 px
            for y in (100 + 50 * k)..<(103 + 50 * k) { for x in 75..<528 { grid[x, y] = 40 } }
            for x in (75 + 50 * k)..<(78 + 50 * k) { for y in 100..<553 { grid[x, y] = 40 } }
        }
        for t in 0..<4 { #expect(turn(of: grid.rotated(quarterTurns: t)) == 0, "grid turned \(t)") }
    }
}
