import Foundation

/// Output formats.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// One row per region (RFC 4180).
    case csv
    /// One JSON array of results.
    case json
    /// One JSON object per line.
    case jsonl

    /// The format a file name's extension implies, if any.
    public static func inferred(fromPath path: String) -> OutputFormat? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return .csv
        case "json": return .json
        case "jsonl", "ndjson": return .jsonl
        default: return nil
        }
    }
}

/// Serializes results. Pure functions of the results: the same input gives the same
/// bytes (keys sorted), so outputs can be compared with golden files.
public enum ResultWriter {
    /// The CSV header row.
    public static let csvColumns = ["file", "region", "kind", "text", "confidence", "tl_x", "tl_y", "tr_x", "tr_y",
                                    "br_x", "br_y", "bl_x", "bl_y", "rows", "cols", "status", "error_code", "error"]

    /// The header line (CSV only; empty otherwise).
    public static func header(_ format: OutputFormat) -> String {
        format == .csv ? csvColumns.joined(separator: ",") + "\r\n" : (format == .json ? "[\n" : "")
    }

    /// The trailer (closes the JSON array).
    public static func trailer(_ format: OutputFormat, count: Int) -> String {
        format == .json ? (count == 0 ? "]\n" : "\n]\n") : ""
    }

    /// One result's text; `position` is its place in the output (JSON needs commas).
    public static func record(_ result: ScanResult, format: OutputFormat, position: Int) -> String {
        switch format {
        case .csv: return csvRows(result)
        case .jsonl: return json(result) + "\n"
        case .json: return (position == 0 ? "" : ",\n") + json(result)
        }
    }

    /// Compact JSON with sorted keys (see `JSONText`).
    public static func json(_ result: ScanResult) -> String {
        JSONText.of(result)
    }

    /// CSV rows: one per region; a file with no region or an error still gets one row.
    public static func csvRows(_ r: ScanResult) -> String {
        func row(_ fields: [String]) -> String { fields.map(quote).joined(separator: ",") + "\r\n" }
        func number(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }
        let file = inert(r.file)
        if r.regions.isEmpty {
            return row([file, "", "", "", "", "", "", "", "", "", "", "", "", "", "", r.status,
                        r.error?.code ?? "", r.error.map { inert($0.message) } ?? ""])
        }
        return r.regions.map { g in
            row([file, String(g.index), g.kind, g.text, String(g.confidence)]
                + g.corners.flatMap { $0.map(number) }
                + [g.grid.map { String($0.rows) } ?? "", g.grid.map { String($0.cols) } ?? "", r.status, "", ""])
        }.joined()
    }

    /// A text cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`,
    /// `@`, a tab or a carriage return) with a `'` put before it, as OWASP advises
    /// against CSV injection; other text as it is. Applied to the file and error columns
    /// (the others hold numbers, kinds and digits).
    public static func inert(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// RFC 4180: a field holding a comma, quote, CR or LF is quoted, quotes doubled.
    public static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
