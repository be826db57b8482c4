@testable import DocumentImaging
import ImagingCore
@testable import ScanReader

/// A blank 90-px square region for the reading stages' tests: laid out as a 3×3 grid of
/// 30-px cells, or as another kind (a field, a page: no ruling).
func blankGridRegion(_ kind: LaidOutRegion.Kind = .grid) -> LaidOutRegion {
    let gray = GrayImage(width: 90, height: 90, fill: 230)
    let quad = Quadrilateral(topLeft: Point(0, 0), topRight: Point(90, 0), bottomRight: Point(90, 90),
                             bottomLeft: Point(0, 90))
    let ruling = Ruling(rows: [0, 30, 60, 90], columns: [0, 30, 60, 90])
    return LaidOutRegion(kind: kind, quad: quad, gray: gray, binary: gray.binarized(), ruling: kind == .grid ? ruling : nil)
}
