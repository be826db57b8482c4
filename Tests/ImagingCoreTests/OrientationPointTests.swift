import ImagingCore
import Testing

/// Point mappings between stored and upright pixels agree with `oriented(_:)`.
@Suite("Orientation point mapping")
struct OrientationPointTests {
    @Test("Each stored pixel's centre maps to where `oriented` puts its value, and back",
          arguments: ExifOrientation.allCases)
    func agreesWithPixels(orientation: ExifOrientation) {
        let stored = GrayImage(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let upright = stored.oriented(orientation)
        for sy in 0..<2 {
            for sx in 0..<3 {
                let p = orientation.displayedPoint(ofStored: (Double(sx) + 0.5, Double(sy) + 0.5),
                                                   storedWidth: 3, storedHeight: 2)
                let (ux, uy) = (Int(p.x), Int(p.y))
                #expect(upright[ux, uy] == stored[sx, sy], "stored (\(sx), \(sy)) → (\(ux), \(uy))")
                let back = orientation.storedPoint(of: p, storedWidth: 3, storedHeight: 2)
                #expect(abs(back.x - (Double(sx) + 0.5)) < 1e-12 && abs(back.y - (Double(sy) + 0.5)) < 1e-12)
            }
        }
    }
}
