import DocumentImaging
import Foundation
import ImagingCore

/// Literal test images drawn with exact geometry.
enum TestImages {
    /// A `width` × `height` sheet at grey `level` with a grain of ± `noise` levels, the
    /// same for the same `seed` (a linear congruential generator, pixel by pixel).
    static func grainyPaper(width: Int, height: Int, level: Int, noise: Int, seed: UInt32) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: UInt8(clamping: level))
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                image[x, y] = UInt8(clamping: level + Int(state >> 24) % (2 * noise + 1) - noise)
            }
        }
        return image
    }

    /// `image` blurred as a camera blurs: `passes` passes of a (2 `radius` + 1)² box mean,
    /// the outermost `radius` pixels left as they are.
    static func boxBlurred(_ image: GrayImage, radius: Int, passes: Int) -> GrayImage {
        var g = image
        let side = 2 * radius + 1
        for _ in 0..<passes {
            var out = g
            for y in radius..<(g.height - radius) {
                for x in radius..<(g.width - radius) {
                    var sum = 0
                    for dy in -radius...radius { for dx in -radius...radius { sum += Int(g[x + dx, y + dy]) } }
                    out[x, y] = UInt8(sum / (side * side))
                }
            }
            g = out
        }
        return g
    }

    /// White image with a filled dark convex polygon (scanline fill, pixel centres).
    static func filledPolygon(_ corners: [Point], width: Int, height: Int, ink: UInt8 = 20,
                              paper: UInt8 = 235) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: paper)
        for y in 0..<height {
            for x in 0..<width where inside(Point(Double(x), Double(y)), corners) { image[x, y] = ink }
        }
        return image
    }

    /// A dark outline `thickness` wide: the polygon minus its inset copy.
    static func outlinedPolygon(_ corners: [Point], thickness: Double, width: Int, height: Int) -> GrayImage {
        let cx = corners.map(\.x).reduce(0, +) / Double(corners.count)
        let cy = corners.map(\.y).reduce(0, +) / Double(corners.count)
        let inner = corners.map { p -> Point in
            let d = Polygon.distance(p, Point(cx, cy))
            let s = (d - thickness * 1.4) / d
            return Point(cx + (p.x - cx) * s, cy + (p.y - cy) * s)
        }
        var image = GrayImage(width: width, height: height, fill: 235)
        for y in 0..<height {
            for x in 0..<width {
                let p = Point(Double(x), Double(y))
                if inside(p, corners) && !inside(p, inner) { image[x, y] = 20 }
            }
        }
        return image
    }

    static func inside(_ p: Point, _ poly: [Point]) -> Bool {
        var sign = 0.0
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// A rectangle's corners rotated by `degrees` about (cx, cy), in TL, TR, BR, BL order
    /// before rotation.
    static func rotatedRectangle(cx: Double, cy: Double, w: Double, h: Double, degrees: Double) -> [Point] {
        let a = degrees * .pi / 180
        return [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)].map { (x, y) in
            Point(cx + x * cos(a) - y * sin(a), cy + x * sin(a) + y * cos(a))
        }
    }

    /// Dark strokes `thickness` wide along a closed polyline (any shape, convex or not).
    static func strokedOutline(_ points: [Point], thickness: Double, width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 235)
        let r = thickness / 2
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            let x0 = max(0, Int((min(a.x, b.x) - r).rounded(.down))), x1 = min(width - 1, Int((max(a.x, b.x) + r).rounded(.up)))
            let y0 = max(0, Int((min(a.y, b.y) - r).rounded(.down))), y1 = min(height - 1, Int((max(a.y, b.y) + r).rounded(.up)))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0...y1 {
                for x in x0...x1 where distance(Point(Double(x), Double(y)), toSegment: a, b) <= r { image[x, y] = 20 }
            }
        }
        return image
    }

    /// White image with a dark polygon of any shape filled (even–odd rule, pixel centres).
    static func filledOutline(_ points: [Point], width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 235)
        for y in 0..<height {
            let py = Double(y)
            var crossings: [Double] = []
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                if (a.y <= py) != (b.y <= py) { crossings.append(a.x + (py - a.y) / (b.y - a.y) * (b.x - a.x)) }
            }
            crossings.sort()
            for k in stride(from: 0, to: crossings.count - 1, by: 2) {
                let from = max(0, Int(crossings[k].rounded(.up))), to = min(width - 1, Int(crossings[k + 1].rounded(.down)))
                if from <= to { for x in from...to { image[x, y] = 20 } }
            }
        }
        return image
    }

    static func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        return Polygon.distance(p, Point(a.x + t * dx, a.y + t * dy))
    }
}
