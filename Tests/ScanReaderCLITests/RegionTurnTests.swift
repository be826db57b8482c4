@testable import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore
@testable import ScanReader
import Testing

/// A document lying on its side or upside down in an upright photo is turned on its own
/// (`RegionTurn`): sample photos turned a quarter, a half and three quarters read as
/// they do upright, with the default options.
@Suite("Regions turned upright")
struct RegionTurnTests {
    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)

    static func sample(_ name: String) throws -> GrayImage {
        try ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/\(name)").path,
                             options: .init(maxDimension: ReadOptions().workingSize)).image
    }

    /// The texts read from `image` as the reader reports them (regions turned), sorted.
    func texts(_ image: GrayImage, turning: Bool = true) -> [String] {
        let read = Self.reader.readRegions(in: image)
        let regions = turning ? Self.reader.turningRegions(read) : read
        return regions.enumerated().map { i, r in r.result(index: i, scale: 1, minConfidence: 0.6, unsure: "?").text }.sorted()
    }

    @Test("Fields and a grid turned 1–3 quarter turns read as upright",
          arguments: ["form-fields.jpg", "ruled-grid.jpg", "two-lines.jpg"])
    func turnedBack(name: String) throws {
        let upright = try Self.sample(name)
        let want = texts(upright)
        #expect(want.contains { $0.contains(where: \.isNumber) })
        for t in 1...3 {
            #expect(texts(upright.rotated(quarterTurns: t)) == want, "\(name) turned \(t)")
        }
        // without the turn, the sideways reading is not the upright one (the test's premise)
        #expect(texts(upright.rotated(quarterTurns: 1), turning: false) != want)
    }

    @Test("Controls: an upright reading is left as it is; one big digit alone is not turned")
    func leftAlone() throws {
        let upright = try Self.sample("form-fields.jpg")
        let read = Self.reader.readRegions(in: upright)
        #expect(RegionTurn.turns(of: read, segmenter: Self.reader.layout.segmenter, classifier: Self.reader.classifier).allSatisfy { $0 == 0 })
        let one = try Self.sample("sticky-one-digit.jpg").rotated(quarterTurns: 1)
        #expect(RegionTurn.turns(of: Self.reader.readRegions(in: one), segmenter: Self.reader.layout.segmenter, classifier: Self.reader.classifier)
            .allSatisfy { $0 == 0 })
    }

    @Test("A crop's ink turned: a quarter swaps its sides and moves its top-left to the top-right; four turns are none")
    func turnedInk() {
        // 3 × 2: ink only at the top-left pixel
        let crop = InkCrop(box: PixelBox(x: 0, y: 0, width: 3, height: 2), ink: [9, 0, 0, 0, 0, 0])
        let quarter = crop.turnedInk(quarterTurns: 1)
        #expect(quarter.width == 2 && quarter.height == 3 && quarter.ink == [0, 9, 0, 0, 0, 0])
        let half = crop.turnedInk(quarterTurns: 2)
        #expect(half.width == 3 && half.height == 2 && half.ink == [0, 0, 0, 0, 0, 9])
        #expect(crop.turnedInk(quarterTurns: 4).ink == crop.ink)
    }
}
