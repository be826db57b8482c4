/// The JSON of a result, written directly: the text `JSONEncoder` makes with sorted keys
/// and unescaped slashes (absent optionals left out, integral numbers without a
/// fraction), at a fraction of its cost — Foundation's encoder took 2 % of the reader's
/// time on 12 MP photos. Non-finite numbers, which JSON cannot hold, are written as null.
enum JSONText {
    /// One result as one line of compact JSON.
    static func of(_ r: ScanResult) -> String {
        var o = JSONObject()
        if let e = r.error {
            var error = JSONObject()
            error.add("code", string: e.code)
            error.add("message", string: e.message)
            o.add("error", error.text)
        }
        o.add("file", string: r.file)
        if let h = r.height { o.add("height", String(h)) }
        if let v = r.orientation { o.add("orientation", String(v)) }
        o.add("regions", array(r.regions.map(region)))
        o.add("status", string: r.status)
        if let w = r.width { o.add("width", String(w)) }
        return o.text
    }

    static func region(_ g: RegionResult) -> String {
        var o = JSONObject()
        o.add("confidence", number(g.confidence))
        o.add("corners", array(g.corners.map { array($0.map(number)) }))
        o.add("digits", array(g.digits.map { d in
            var o = crop(box: d.box, col: d.col, confidence: d.confidence, row: d.row)
            o.add("value", String(d.value))
            return o.text
        }))
        if let grid = g.grid {
            var cells = JSONObject()
            cells.add("cells", array(grid.cells.map { c in
                var o = JSONObject()
                o.add("col", String(c.col))
                o.add("confidence", number(c.confidence))
                o.add("row", String(c.row))
                o.add("text", string: c.text)
                return o.text
            }))
            cells.add("cols", String(grid.cols))
            cells.add("rows", String(grid.rows))
            o.add("grid", cells.text)
        }
        o.add("index", String(g.index))
        o.add("kind", string: g.kind)
        o.add("rejected", array(g.rejected.map { crop(box: $0.box, col: $0.col, confidence: $0.confidence, row: $0.row).text }))
        o.add("text", string: g.text)
        return o.text
    }

    /// The keys a read digit and a rejected crop share, in sorted order.
    static func crop(box: [Int], col: Int?, confidence: Double, row: Int?) -> JSONObject {
        var o = JSONObject()
        o.add("box", array(box.map(String.init)))
        if let col { o.add("col", String(col)) }
        o.add("confidence", number(confidence))
        if let row { o.add("row", String(row)) }
        return o
    }

    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// An integral value without a fraction ("3", not "3.0"), else Swift's shortest
    /// round-tripping form, as `JSONEncoder` writes it.
    static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return String(x)
    }

    /// A JSON string literal: quote, backslash and control characters escaped, the rest
    /// (slashes and non-ASCII included) as it is.
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

/// Key–value pairs added in sorted-key order (the caller's duty), written as an object.
struct JSONObject {
    private var members: [String] = []

    mutating func add(_ key: String, _ rawValue: String) {
        members.append(JSONText.string(key) + ":" + rawValue)
    }

    mutating func add(_ key: String, string value: String) {
        add(key, JSONText.string(value))
    }

    var text: String { "{" + members.joined(separator: ",") + "}" }
}
