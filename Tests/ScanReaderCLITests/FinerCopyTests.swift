import DocumentImaging
import Foundation
import ImageCodecs
import ImagingCore
@testable import ScanReader
import Testing

/// A form photographed from afar: decoded reduced, its boxes are a dozen pixels high and
/// their digits a few; straightened from the photo's finer copy (`PhotoPixels`,
/// `Layout.enlarged`) they read as on the sample.
@Suite("Small fields from the finer copy")
struct FinerCopyTests {
    static let reader = try! DocumentReader(modelPath: CLI.root.appendingPathComponent("Models/digits-lenet.safetensors").path)
    static let want = ["17", "2024", "36512"]

    /// The sample form (1200 × 1500, boxes 190 px high) reduced by `shrink` in the middle
    /// of a darker desk `width` × `height`, as a full-resolution photo.
    static func formOnDesk(shrink: Int = 1, width w: Int, height h: Int) throws -> GrayImage {
        let form = try ImageLoader.load(path: CLI.root.appendingPathComponent("SampleImages/form-fields.jpg").path).image
            .reduced(by: shrink)
        var pixels = [UInt8](repeating: 70, count: w * h)
        let (x0, y0) = ((w - form.width) / 2, (h - form.height) / 2)
        for y in 0..<form.height {
            for x in 0..<form.width { pixels[(y0 + y) * w + x0 + x] = form.pixels[y * form.width + x] }
        }
        return GrayImage(width: w, height: h, pixels: pixels)
    }

    /// The field texts of `regions`, sorted.
    static func fieldTexts(_ regions: [ReadRegion]) -> [String] {
        regions.map { $0.result(index: 0, scale: 1, minConfidence: 0, unsure: "?") }
            .filter { $0.kind == "field" }.map(\.text).sorted()
    }

    @Test("Boxes a dozen working pixels high read from the finer copy, and not without it")
    func farFormReads() throws {
        // the form at a quarter (boxes 48 px high) in a 900 × 1125 photo read at a
        // quarter of its size (boxes 12 px high, digits 7 px), the half-size copy finer
        let photo = try Self.formOnDesk(shrink: 4, width: 900, height: 1125)
        var decoded = 0
        let pixels = PhotoPixels(photo.reduced(by: 4), finerScale: 2) { decoded += 1; return photo.reduced(by: 2) }
        #expect(Self.fieldTexts(Self.reader.readRegions(in: pixels)) == Self.want)
        #expect(decoded == 1, "the finer copy is decoded once, when first needed")
        let workingAlone = Self.fieldTexts(Self.reader.readRegions(in: photo.reduced(by: 4)))
        #expect(workingAlone != Self.want, "the working copy alone (interpolated) reads the small boxes: the test shows nothing")
        // a finer decode that fails reads the fields as a photo with no finer copy does
        let failing = PhotoPixels(photo.reduced(by: 4), finerScale: 2) { nil }
        #expect(Self.fieldTexts(Self.reader.readRegions(in: failing)) == workingAlone)
    }

    @Test("A small box loose on the desk (inside no other quad) asks for no finer copy; the same box on its sheet does")
    func looseBoxAsksNothing() throws {
        let photo = try Self.formOnDesk(shrink: 4, width: 900, height: 1125)
        let working = photo.reduced(by: 4)
        let found = Self.reader.readRegions(in: PhotoPixels(working, finerScale: 2) { photo.reduced(by: 2) })
        let box = try #require(found.first { $0.region.kind == .field }).region.quad
        func decodes(_ quads: [DetectedQuad]) -> Int {
            var nested = quads
            DetectedQuad.assignParents(&nested)
            var decoded = 0
            _ = Layout().regions(in: PhotoPixels(working, finerScale: 2) { decoded += 1; return photo.reduced(by: 2) },
                                 quads: nested)
            return decoded
        }
        #expect(decodes([DetectedQuad(quad: box, parent: nil, isHole: false)]) == 0)
        let w = Double(working.width - 1), h = Double(working.height - 1)
        let sheet = Quadrilateral(topLeft: Point(w * 0.3, h * 0.3), topRight: Point(w * 0.7, h * 0.3),
                                  bottomRight: Point(w * 0.7, h * 0.7), bottomLeft: Point(w * 0.3, h * 0.7))
        #expect(decodes([DetectedQuad(quad: sheet, parent: nil, isHole: false), DetectedQuad(quad: box, parent: nil, isHole: false)]) == 1)
    }

    @Test("No finer copy is decoded when every field is legible at working size")
    func closeFormAsksNothing() throws {
        let photo = try Self.formOnDesk(width: 1300, height: 1600)
        var decoded = 0
        let pixels = PhotoPixels(photo, finerScale: 2) { decoded += 1; return nil }
        #expect(Self.fieldTexts(Self.reader.readRegions(in: pixels)) == Self.want)
        #expect(decoded == 0)
    }

    @Test("A photo decoded reduced gets a finer copy at half the reduction, the same photo twice the size")
    func finerDecode() throws {
        let photo = try Self.formOnDesk(width: 2400, height: 3000)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("far-form-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(PNGEncoder.encode(photo)).write(to: url)
        let options = ImageLoadOptions(maxDimension: 750)
        let load = { (o: ImageLoadOptions) throws(ImageLoadError) in try ImageLoader.load(path: url.path, options: o) }
        let loaded = try load(options)
        #expect(loaded.reduction == 4)
        let pixels = DocumentReader.pixels(of: loaded, options: options, loading: load)
        #expect(pixels.finerScale == 2)
        let finer = try #require(pixels.finer)
        #expect(finer.width == 1200 && finer.height == 1500)
        #expect(finer.pixels == photo.reduced(by: 2).pixels)
        // a photo decoded at full size has none
        let full = try load(.init())
        #expect(DocumentReader.pixels(of: full, options: .init(), loading: load).finer == nil)
    }
}
