import DocumentImaging
import ImagingCore

/// Draws what the reader saw: regions (red fields, blue grids, orange page), grid
/// cells, and each digit's box with its value and confidence (magenta when rejected or
/// read under `minConfidence`, as the result shows it unsure).
enum DebugRenderer {
    static func draw(image: GrayImage, regions: [ReadRegion], result: ScanResult, minConfidence: Double) -> RGBCanvas {
        var canvas = RGBCanvas(image)
        let thick = max(1, max(image.width, image.height) / 500)
        let textScale = max(1, max(image.width, image.height) / 700)
        for (i, read) in regions.enumerated() {
            let region = read.region
            let color: RGBCanvas.Color = region.kind == .grid ? .blue : region.kind == .field ? .red : .orange
            let map = read.toImage
            if let ruling = region.ruling {
                // cell by cell, so lines followed round a bend are drawn where they run
                for y in ruling.rows {
                    for (a, b) in zip(ruling.columns, ruling.columns.dropFirst()) {
                        canvas.line(from: xy(map(Point(a, y))), to: xy(map(Point(b, y))), .green, thickness: 1)
                    }
                }
                for x in ruling.columns {
                    for (a, b) in zip(ruling.rows, ruling.rows.dropFirst()) {
                        canvas.line(from: xy(map(Point(x, a))), to: xy(map(Point(x, b))), .green, thickness: 1)
                    }
                }
            }
            let outline = read.outline
            canvas.polygon(outline.corners.map(xy), color, thickness: thick)
            canvas.text("\(i) \(region.kind.rawValue.uppercased())", x: Int(outline.topLeft.x) + 3,
                        y: Int(outline.topLeft.y) + 3, scale: textScale, color: .white, background: color)
            for piece in read.pieces {
                guard let crop = piece.crop, let p = piece.prediction else { continue }
                let b = crop.box
                let corners = [Point(Double(b.x), Double(b.y)), Point(Double(b.maxX), Double(b.y)),
                               Point(Double(b.maxX), Double(b.maxY)), Point(Double(b.x), Double(b.maxY))].map(map)
                let unsure = p.isRejected || Double(p.confidence) < minConfidence
                canvas.polygon(corners.map(xy), unsure ? .magenta : .green, thickness: 1)
                let label = p.isRejected ? "R" : "\(p.label)"
                canvas.text("\(label) \(Int((p.confidence * 100).rounded()))", x: Int(corners[3].x), y: Int(corners[3].y) + 2,
                            scale: textScale, color: .white, background: unsure ? .magenta : .black)
            }
        }
        return canvas
    }

    static func xy(_ p: Point) -> (Double, Double) { (p.x, p.y) }
}
