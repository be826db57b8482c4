import Foundation
import ScanReader

/// Tallies of an evaluation run.
struct Scorecard {
    var files = 0, failedFiles = 0
    var gridFiles = 0, gridsExact = 0, gridsMissing = 0
    var digitCells = 0, digitCellsRight = 0, emptyCells = 0, emptyCellsRight = 0
    var printedCells = 0, printedRight = 0, handCells = 0, handRight = 0
    var fieldFiles = 0, fieldsExact = 0, fieldDigits = 0, fieldDigitsRight = 0

    /// Scores one file; returns the indices of misread cells (or [-1] for a missing grid or field).
    mutating func add(result: ScanResult, expected: String, mask: String?) -> [Int] {
        files += 1
        if result.status != "ok" { failedFiles += 1 }
        let isGrid = expected.count == 81 || (expected.contains(".") && expected.allSatisfy { "0123456789.?".contains($0) } && expected.count > 9)
        if isGrid { return addGrid(result: result, expected: Array(expected), mask: mask.map(Array.init)) }
        fieldFiles += 1
        let read = result.regions.map(\.text).joined(separator: " ")
        let truthDigits = Array(expected.filter(\.isNumber))
        let readDigits = Array(read.filter { $0.isNumber || $0 == "?" })
        if read.replacingOccurrences(of: " ", with: "") == expected.replacingOccurrences(of: " ", with: "") { fieldsExact += 1 }
        fieldDigits += truthDigits.count
        fieldDigitsRight += zip(truthDigits, readDigits).filter { $0 == $1 }.count
        return read.replacingOccurrences(of: " ", with: "") == expected.replacingOccurrences(of: " ", with: "") ? [] : [-1]
    }

    private mutating func addGrid(result: ScanResult, expected: [Character], mask: [Character]?) -> [Int] {
        gridFiles += 1
        let grid = result.regions.filter { $0.kind == "grid" && $0.grid?.cells.count == expected.count }
            .max { area($0.corners) < area($1.corners) }
        let read: [Character]
        if let grid {
            read = grid.grid!.cells.map { $0.text.first ?? "." }
        } else {
            gridsMissing += 1
            read = [Character](repeating: "!", count: expected.count)
        }
        var wrong: [Int] = []
        for (i, (t, r)) in zip(expected, read).enumerated() {
            let ok = (t == "?" || t == ".") ? r == "." : r == t
            if t == "." || t == "?" { emptyCells += 1; emptyCellsRight += ok ? 1 : 0 } else { digitCells += 1; digitCellsRight += ok ? 1 : 0 }
            if let mask, i < mask.count, t != "." && t != "?" {
                if mask[i] == "p" { printedCells += 1; printedRight += ok ? 1 : 0 } else { handCells += 1; handRight += ok ? 1 : 0 }
            }
            if !ok { wrong.append(i) }
        }
        if wrong.isEmpty { gridsExact += 1 }
        return wrong
    }

    func area(_ c: [[Double]]) -> Double {
        var s = 0.0
        for i in 0..<c.count { s += c[i][0] * c[(i + 1) % c.count][1] - c[(i + 1) % c.count][0] * c[i][1] }
        return abs(s) / 2
    }

    func report(seconds: Double, files: Int) -> String {
        func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "n/a" : String(format: "%.2f %% (%d/%d)", Double(a) / Double(b) * 100, a, b) }
        var lines = ["files: \(files), unreadable: \(failedFiles), \(String(format: "%.2f", seconds)) s"]
        if gridFiles > 0 {
            let cells = digitCells + emptyCells, right = digitCellsRight + emptyCellsRight
            lines += ["grids: \(gridFiles), exact: \(pct(gridsExact, gridFiles)), no grid found: \(gridsMissing)",
                      "cells right: \(pct(right, cells))",
                      "  digit cells right: \(pct(digitCellsRight, digitCells))",
                      "  empty cells right (incl. '?' read as empty): \(pct(emptyCellsRight, emptyCells))"]
            if printedCells + handCells > 0 {
                lines += ["  printed digit cells right: \(pct(printedRight, printedCells))",
                          "  handwritten digit cells right: \(pct(handRight, handCells))"]
            }
        }
        if fieldFiles > 0 {
            lines += ["fields: \(fieldFiles), exact: \(pct(fieldsExact, fieldFiles))",
                      "field digits right: \(pct(fieldDigitsRight, fieldDigits))"]
        }
        return lines.joined(separator: "\n")
    }
}

/// A PNG of misread grid cells: each cell's image from the photo with what was read.
enum MisreadGallery {
    static func write(_ misreads: [(String, ScanResult, [Int])], to path: String, reader: DocumentReader) throws {
        var tiles: [(GrayImage, String)] = []
        for (file, result, cells) in misreads {
            guard let loaded = try? ImageLoader.load(path: file), let grid = result.regions.first(where: { $0.kind == "grid" }),
                  let g = grid.grid else { continue }
            let corners = grid.corners.map { Point($0[0], $0[1]) }
            let quad = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
            guard let rect = loaded.image.rectified(quad, width: g.cols * 40, height: g.rows * 40) else { continue }
            for i in cells.prefix(12) where i >= 0 && i < g.cells.count {
                let r = i / g.cols, c = i % g.cols
                var tile = GrayImage(width: 40, height: 40)
                for y in 0..<40 { for x in 0..<40 { tile[x, y] = rect[c * 40 + x, r * 40 + y] } }
                let text = g.cells[i].text.isEmpty ? "." : g.cells[i].text
                tiles.append((tile, "\(text) \(Int((g.cells[i].confidence * 100).rounded()))"))
            }
            if tiles.count >= 200 { break }
        }
        let columns = 10, tileW = 90, tileH = 110
        var canvas = RGBCanvas(width: columns * tileW, height: max(1, (tiles.count + columns - 1) / columns) * tileH)
        for (i, (tile, caption)) in tiles.enumerated() {
            let ox = (i % columns) * tileW + 5, oy = (i / columns) * tileH + 5
            for y in 0..<80 { for x in 0..<80 { let v = tile[x / 2, y / 2]; canvas.plot(ox + x, oy + y, RGBCanvas.Color(v, v, v)) } }
            canvas.text(caption, x: ox, y: oy + 86, scale: 2, color: .white, background: .red)
        }
        try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
