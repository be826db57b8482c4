/// What ScanReader read from one input file: the JSON contract of DESIGN.md.
///
/// Keys: `file`, `status` ("ok" | "error"), `error` {code, message} on error, `width`,
/// `height` (upright image), `orientation` (the EXIF value applied, or the rotation
/// `--orientation auto` chose, as an EXIF value), `regions` in reading order.
public struct ScanResult: Codable, Sendable, Equatable {
    /// The input path (or the name given with bytes).
    public var file: String
    /// "ok" or "error".
    public var status: String
    /// Why the input could not be read (only when `status == "error"`).
    public var error: ScanError?
    /// Upright image width in pixels (full resolution).
    public var width: Int?
    /// Upright image height in pixels.
    public var height: Int?
    /// The EXIF orientation value applied (1 = none).
    public var orientation: Int?
    /// Regions in reading order (top to bottom, then left to right).
    public var regions: [RegionResult]

    /// A failed input.
    public static func failure(file: String, code: String, message: String) -> ScanResult {
        ScanResult(file: file, status: "error", error: ScanError(code: code, message: message),
                   width: nil, height: nil, orientation: nil, regions: [])
    }
}

/// An error record: a stable code and a message naming the file.
public struct ScanError: Codable, Sendable, Equatable {
    /// e.g. `corrupt_image`, `file_not_found`, `unsupported_format`, `image_too_large`.
    public var code: String
    /// Human-readable cause.
    public var message: String
}

/// One region that holds digits.
public struct RegionResult: Codable, Sendable, Equatable {
    /// Position in reading order, from 0.
    public var index: Int
    /// "field" (a box or note), "grid" (ruled cells) or "page" (no quad: the whole image).
    public var kind: String
    /// [[x, y]] × 4: top-left, top-right, bottom-right, bottom-left, upright image pixels.
    public var corners: [[Double]]
    /// The digits in reading order. Grids: cells row by row, an empty cell as `.`.
    /// A digit under the confidence threshold shows as `?` (it stays in `digits`).
    public var text: String
    /// The least confident digit's probability (1 when there is no digit).
    public var confidence: Double
    /// Every digit read, with its probability and box (rectified-region pixels for
    /// fields and grids, image pixels for pages).
    public var digits: [DigitResult]
    /// Crops the classifier judged not to be digits (left out of `text`).
    public var rejected: [RejectedCrop]
    /// The cells, for grids.
    public var grid: GridResult?
}

/// One digit.
public struct DigitResult: Codable, Sendable, Equatable {
    /// 0–9: the most probable digit.
    public var value: Int
    /// Its probability.
    public var confidence: Double
    /// [x, y, w, h].
    public var box: [Int]
    /// Grid cell, for grids.
    public var row: Int?
    /// Grid column, for grids.
    public var col: Int?
}

/// A crop the model rejected as "not a digit" (ruling remnant, speck, candidate marks).
public struct RejectedCrop: Codable, Sendable, Equatable {
    /// [x, y, w, h].
    public var box: [Int]
    /// Probability of "not a digit".
    public var confidence: Double
    /// Grid cell, for grids.
    public var row: Int?
    /// Grid column, for grids.
    public var col: Int?
}

/// The cells of a grid region.
public struct GridResult: Codable, Sendable, Equatable {
    /// Number of rows.
    public var rows: Int
    /// Number of columns.
    public var cols: Int
    /// Every cell, row by row, empty cells included (`text` "").
    public var cells: [CellResult]
}

/// One grid cell.
public struct CellResult: Codable, Sendable, Equatable {
    /// Row from 0.
    public var row: Int
    /// Column from 0.
    public var col: Int
    /// The digit ("" when empty, "?" when unsure); in a table of numbers, the number.
    public var text: String
    /// Probability of the reading (for an empty cell: 1).
    public var confidence: Double
}
