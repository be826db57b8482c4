/// An RGB drawing surface for debug images and galleries: lines, boxes, polygons and
/// short labels in a built-in 5×7 pixel font.
public struct RGBCanvas: Sendable {
    /// An RGB colour.
    public struct Color: Sendable, Equatable {
        /// Components.
        public var r, g, b: UInt8
        /// Makes a colour.
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
        /// Pure colours used by the debug drawings.
        public static let red = Color(230, 30, 30), green = Color(20, 180, 40),
            blue = Color(30, 90, 230), orange = Color(250, 140, 0),
            magenta = Color(200, 0, 200), white = Color(255, 255, 255), black = Color(0, 0, 0)
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Interleaved RGB bytes, row by row.
    public private(set) var pixels: [UInt8]

    /// A canvas showing a gray image.
    public init(_ image: GrayImage) {
        width = image.width
        height = image.height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let v = image.pixels[i]
            pixels[3 * i] = v; pixels[3 * i + 1] = v; pixels[3 * i + 2] = v
        }
    }

    /// A blank canvas.
    public init(width: Int, height: Int, fill: Color = .white) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fillRect(x: 0, y: 0, width: width, height: height, fill)
    }

    /// Sets one pixel; points outside are ignored.
    public mutating func plot(_ x: Int, _ y: Int, _ c: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = 3 * (y * width + x)
        pixels[i] = c.r; pixels[i + 1] = c.g; pixels[i + 2] = c.b
    }

    /// A filled axis-aligned rectangle, clipped.
    public mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, _ c: Color) {
        for yy in max(0, y)..<max(max(0, y), min(height, y + h)) {
            for xx in max(0, x)..<max(max(0, x), min(width, x + w)) { plot(xx, yy, c) }
        }
    }

    /// A straight line `thickness` pixels wide (Bresenham, squares at each step).
    public mutating func line(from a: (Double, Double), to b: (Double, Double), _ c: Color,
                              thickness: Int = 1) {
        var x0 = Int(a.0.rounded()), y0 = Int(a.1.rounded())
        let x1 = Int(b.0.rounded()), y1 = Int(b.1.rounded())
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        let r = thickness / 2
        var steps = 0
        while steps <= 100_000 {
            if r == 0 { plot(x0, y0, c) } else { fillRect(x: x0 - r, y: y0 - r, width: thickness, height: thickness, c) }
            if x0 == x1 && y0 == y1 { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x0 += sx }
            if e2 <= dx { err += dx; y0 += sy }
            steps += 1
        }
    }

    /// A closed polygon outline.
    public mutating func polygon(_ points: [(Double, Double)], _ c: Color, thickness: Int = 1) {
        for i in points.indices {
            line(from: points[i], to: points[(i + 1) % points.count], c, thickness: thickness)
        }
    }

    /// An axis-aligned rectangle outline.
    public mutating func strokeRect(x: Int, y: Int, width w: Int, height h: Int, _ c: Color,
                                    thickness: Int = 1) {
        let (x0, y0, x1, y1) = (Double(x), Double(y), Double(x + w - 1), Double(y + h - 1))
        polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], c, thickness: thickness)
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels,
    /// on a filled background box so it stays legible on photos. Unknown characters
    /// draw as a box.
    public mutating func text(_ text: String, x: Int, y: Int, scale: Int = 2,
                              color: Color = .white, background: Color? = .black) {
        let advance = 6 * scale
        if let background {
            fillRect(x: x - scale, y: y - scale, width: advance * text.count + scale,
                     height: 9 * scale, background)
        }
        for (i, ch) in text.enumerated() {
            let rows = Self.font[ch] ?? [0x1F, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1F]
            for (ry, bits) in rows.enumerated() {
                for rx in 0..<5 where bits & (0x10 >> rx) != 0 {
                    fillRect(x: x + i * advance + rx * scale, y: y + ry * scale,
                             width: scale, height: scale, color)
                }
            }
        }
    }

    /// Whether the built-in font has a glyph for `c` (others draw as a box).
    public static func canDraw(_ c: Character) -> Bool { font[c] != nil }

    /// 5×7 glyphs, one byte per row, bit 4 leftmost.
    static let font: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ".": [0, 0, 0, 0, 0, 0x0C, 0x0C], "?": [0x0E, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
        "%": [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03], ":": [0, 0x0C, 0x0C, 0, 0x0C, 0x0C, 0],
        "-": [0, 0, 0, 0x1F, 0, 0, 0], "/": [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0],
        " ": [0, 0, 0, 0, 0, 0, 0], "x": [0, 0, 0x11, 0x0A, 0x04, 0x0A, 0x11],
        "R": [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11], "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        "J": [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C], "T": [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        "G": [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F], "F": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10],
        "P": [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10], "A": [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        ">": [0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08], "=": [0, 0, 0x1F, 0, 0x1F, 0, 0],
    ]
}
