import Foundation
@testable import ScanReader
import Testing

/// The hand-written JSON against Foundation's encoder (sorted keys, unescaped slashes).
@Suite("Result JSON")
struct JSONTextTests {
    func foundation(_ r: ScanResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(r), as: UTF8.self)
    }

    @Test("A grid, a field and an error record come out byte for byte as JSONEncoder writes them")
    func sameBytes() throws {
        let grid = RegionResult(
            index: 0, kind: "grid", corners: [[12.5, 3], [400, 2.25], [401.75, 390], [10, 388.1]],
            text: "7.?", confidence: 0.4215,
            digits: [DigitResult(value: 7, confidence: 1, box: [3, 4, 20, 28], row: 0, col: 0),
                     DigitResult(value: 1, confidence: 0.4215, box: [80, 4, 9, 27], row: 0, col: 2)],
            rejected: [RejectedCrop(box: [40, 5, 12, 3], confidence: 0.9999, row: 0, col: 1)],
            grid: GridResult(rows: 1, cols: 3, cells: [
                CellResult(row: 0, col: 0, text: "7", confidence: 1),
                CellResult(row: 0, col: 1, text: "", confidence: 1),
                CellResult(row: 0, col: 2, text: "?", confidence: 0.4215)]))
        let field = RegionResult(index: 1, kind: "field", corners: [[0, 0], [1e-5, 0], [3, 4], [0, 4]],
                                 text: "42", confidence: 0.0001,
                                 digits: [DigitResult(value: 4, confidence: 0.0001, box: [0, 0, 1, 1], row: nil, col: nil)],
                                 rejected: [RejectedCrop(box: [1, 1, 1, 1], confidence: 0.5, row: nil, col: nil)], grid: nil)
        let ok = ScanResult(file: "dir/a \"quoted\", back\\slash\ttab\nnew\u{01}line ünï/cødé 📷.jpg", status: "ok",
                            error: nil, width: 4608, height: 3456, orientation: 6, regions: [grid, field])
        let failed = ScanResult.failure(file: "/x/y.png", code: "corrupt_image", message: "y.png: \"bad\" header\r\n")
        for r in [ok, failed, ScanResult(file: "", status: "ok", error: nil, width: 1, height: 1, orientation: 1, regions: [])] {
            #expect(JSONText.of(r) == (try foundation(r)))
            #expect(try JSONDecoder().decode(ScanResult.self, from: Data(JSONText.of(r).utf8)) == r)
        }
    }
}
