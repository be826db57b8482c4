import Foundation
import ImagingCore

/// The expected reading of one photo: a line of a truth file in JSON Lines
/// (`regions.jsonl`), the format `scanreader eval --truth` scores regions against.
///
/// ```json
/// {"file": "images/00001.jpg", "orientation": 6, "tagged": false,
///  "type": "form", "variants": ["handwritten"], "conditions": ["hard-shadow", "blur"],
///  "regions": [{"kind": "field", "corners": [[x,y],[x,y],[x,y],[x,y]], "text": "4071"},
///              {"kind": "grid", "corners": [...], "text": "3.1...", "rows": 9, "cols": 9,
///               "cells": ["3", "", "1", "?", ...]}]}
/// ```
///
/// Corners are TL, TR, BR, BL of the document as read upright, in upright pixels (the
/// stored pixels with `orientation` applied), as pixel centres like the reader's: (0, 0)
/// is the middle of the top-left pixel. `orientation` is the EXIF value that
/// turns the stored pixels upright (1 when they are); `tagged` says whether the file
/// carries that tag. A grid's `cells` run row by row: "" empty, "?" a cell holding only
/// pencilled candidates (right when read empty); a field's `text` is its digits in
/// reading order. `kind` "page" means digits with no frame: it matches the reader's
/// page region whatever its corners. `type`, `variants` and `conditions` only group
/// the scores.
public struct PhotoTruth: Codable, Sendable, Equatable {
    /// The photo, relative to the truth file's folder (or absolute).
    public var file: String
    /// The EXIF orientation value that makes the stored pixels upright.
    public var orientation: Int
    /// Whether the file carries the EXIF orientation tag.
    public var tagged: Bool?
    /// The kind of document (e.g. "sticky-note", "form"); groups the scores.
    public var type: String?
    /// How this document of its type was made (e.g. "jigsaw", "handwritten"); groups
    /// the scores within the type.
    public var variants: [String]?
    /// Conditions of the photo (e.g. "hard-shadow", "blur"); groups the scores.
    public var conditions: [String]?
    /// The regions the reader should report.
    public var regions: [RegionTruth]

    /// A truth line.
    public init(file: String, orientation: Int = 1, tagged: Bool? = nil, type: String? = nil,
                variants: [String]? = nil, conditions: [String]? = nil, regions: [RegionTruth]) {
        self.file = file; self.orientation = orientation; self.tagged = tagged
        self.type = type; self.variants = variants; self.conditions = conditions; self.regions = regions
    }

    enum CodingKeys: String, CodingKey { case file, orientation, tagged, type, variants, conditions, regions }

    /// The orientation a reader should report: `orientation`, followed by the quarter
    /// turn that makes the regions read left to right. A document lying at 143° in a
    /// photo stored upright is read turned a half turn, so 3 is right and 1 is not. The
    /// regions' direction is the sum of their top edges' unit vectors (TL → TR); with no
    /// framed region it is `orientation`.
    public var readingOrientation: Int { readingOrientations[0] }

    /// The orientations a reader may report (`readingOrientation` first): a document lying
    /// within `OrientationVote.levelTolerance` of a diagonal reads upright after either of
    /// the two quarter turns nearest it, each followed by its own eighth-turn
    /// straightening, and the reader itself calls that choice open; both are right.
    public var readingOrientations: [Int] {
        var dx = 0.0, dy = 0.0
        for region in regions where region.kind != "page" && region.corners.count == 4 {
            let ex = region.corners[1][0] - region.corners[0][0], ey = region.corners[1][1] - region.corners[0][1]
            let length = (ex * ex + ey * ey).squareRoot()
            if length > 0 { dx += ex / length; dy += ey / length }
        }
        guard dx != 0 || dy != 0, let stored = ExifOrientation(rawValue: orientation) else { return [orientation] }
        // the content is turned q quarter turns clockwise (y points down); turning the
        // photo 4 − q more brings it upright
        let quarters = atan2(dy, dx) / (Double.pi / 2)
        let upright = { (q: Int) in stored.followed(byClockwiseQuarterTurns: 4 - ((q % 4) + 4) % 4).rawValue }
        let nearest = Int(quarters.rounded())
        let offDiagonal = abs(abs(quarters - Double(nearest)) - 0.5) * 90
        guard offDiagonal <= OrientationVote.levelTolerance else { return [upright(nearest)] }
        let other = quarters > Double(nearest) ? nearest + 1 : nearest - 1
        return [upright(nearest), upright(other)]
    }

    /// Decodes a truth line; `orientation` defaults to 1.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = try c.decode(String.self, forKey: .file)
        orientation = try c.decodeIfPresent(Int.self, forKey: .orientation) ?? 1
        tagged = try c.decodeIfPresent(Bool.self, forKey: .tagged)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        variants = try c.decodeIfPresent([String].self, forKey: .variants)
        conditions = try c.decodeIfPresent([String].self, forKey: .conditions)
        regions = try c.decode([RegionTruth].self, forKey: .regions)
        guard (1...8).contains(orientation) else {
            throw DecodingError.dataCorruptedError(forKey: .orientation, in: c,
                                                   debugDescription: "orientation \(orientation) is not 1–8")
        }
    }

    /// Reads a JSON Lines truth file (blank lines skipped).
    /// - Throws: `TruthFileError` naming the file and the line that is not a truth line.
    public static func load(path: String) throws(TruthFileError) -> [PhotoTruth] {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else {
            throw TruthFileError(path: path, line: nil, message: "cannot read the file")
        }
        var out: [PhotoTruth] = []
        let decoder = JSONDecoder()
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            do {
                let truth = try decoder.decode(PhotoTruth.self, from: Data(trimmed.utf8))
                for region in truth.regions { try region.validate() }
                out.append(truth)
            } catch let error as TruthFileError {
                throw TruthFileError(path: path, line: i + 1, message: error.message)
            } catch {
                throw TruthFileError(path: path, line: i + 1, message: "not a truth line: \(error)")
            }
        }
        return out
    }
}

/// One expected region.
public struct RegionTruth: Codable, Sendable, Equatable {
    /// "field", "grid" or "page".
    public var kind: String
    /// TL, TR, BR, BL in upright pixels.
    public var corners: [[Double]]
    /// The digits in reading order (grids: cells row by row, "." empty).
    public var text: String
    /// Grid rows.
    public var rows: Int?
    /// Grid columns.
    public var cols: Int?
    /// Grid cells row by row: digits, "" empty, "?" pencilled candidates only.
    public var cells: [String]?

    /// A region's truth.
    public init(kind: String, corners: [[Double]], text: String, rows: Int? = nil, cols: Int? = nil,
                cells: [String]? = nil) {
        self.kind = kind; self.corners = corners; self.text = text
        self.rows = rows; self.cols = cols; self.cells = cells
    }

    func validate() throws(TruthFileError) {
        guard ["field", "grid", "page"].contains(kind) else {
            throw TruthFileError(path: "", line: nil, message: "kind \"\(kind)\" is not field, grid or page")
        }
        guard corners.count == 4, corners.allSatisfy({ $0.count == 2 }) else {
            throw TruthFileError(path: "", line: nil, message: "corners must be four [x, y] pairs")
        }
        if let cells {
            guard let rows, let cols, rows * cols == cells.count else {
                throw TruthFileError(path: "", line: nil,
                                     message: "\(cells.count) cells do not make \(rows ?? 0) × \(cols ?? 0)")
            }
        }
    }
}

/// A truth file that cannot be used.
public struct TruthFileError: Error, Sendable, CustomStringConvertible {
    /// The truth file.
    public var path: String
    /// The 1-based line, when one line is at fault.
    public var line: Int?
    /// What is wrong.
    public var message: String
    /// "path:line: message".
    public var description: String { "\(path)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
