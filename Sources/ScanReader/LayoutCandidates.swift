import DocumentImaging
import ImagingCore

/// The layout's one model of a photo's quads while it decides what each is: the quads
/// (nested through `DetectedQuad.parent`), the grids taken so far with their rulings,
/// and what was measured of each quad — its straightened copy, the lines found in it,
/// its ink — so that a later stage reuses a measurement instead of making it again.
///
/// A quad is a grid exactly when it has a ruling here (`isGrid`); the stages that take
/// a grid or make one give way (`GridAssembly`, the grid pass of `Layout`) go through
/// `takeGrid` and `dropGrid`, so the verdict and the ruling cannot disagree.
struct LayoutCandidates {
    /// The quads, largest first as the detector lists them; grids put together from parts
    /// are appended (`addGrid`).
    private(set) var quads: [DetectedQuad]
    /// The grids so far: quad index → its ruling.
    private(set) var rulings: [Int: Ruling] = [:]
    /// Quads straightened (`Layout.straighten`), by index.
    var rectified: [Int: GrayImage] = [:]
    /// The lines found in a straightened quad (`Layout.ruling(of:)`), by index.
    var foundLines: [Int: FoundLines] = [:]
    /// The ink (`Layout.ink(of:)`) of a straightened quad that was checked for a ruling.
    var inks: [Int: BinaryImage] = [:]
    /// Tick combs: the clockwise quarter turns that put their ticks below their digits.
    var tickTurns: [Int: Int] = [:]
    /// Combs grown past their detected quads (`Layout.extendedComb`), in the order grown.
    var extendedCombs: [Int] = []

    /// The candidates of `quads`, none of them a grid yet.
    init(quads: [DetectedQuad]) {
        self.quads = quads
    }

    /// Whether quad `i` is (so far) a grid.
    func isGrid(_ i: Int) -> Bool { rulings[i] != nil }

    /// Takes quad `i` as a grid with `ruling` (or gives it a better ruling).
    mutating func takeGrid(_ i: Int, ruling: Ruling) { rulings[i] = ruling }

    /// Quad `i` is no grid (it gave way to a grid around or inside it).
    mutating func dropGrid(_ i: Int) { rulings[i] = nil }

    /// The quads around quad `i`, innermost first.
    func ancestors(_ i: Int) -> [Int] {
        var chain: [Int] = [], p = quads[i].parent
        while let q = p { chain.append(q); p = quads[q].parent }
        return chain
    }

    /// Whether a grid lies around quad `i`.
    func liesInGrid(_ i: Int) -> Bool { ancestors(i).contains(where: isGrid) }

    /// The grids the quads inside quad `i` make as cells found one by one (`CellLattice`).
    func latticesInside(_ i: Int) -> [CellLattice.Lattice] {
        CellLattice.find(among: quads.indices.filter { ancestors($0).contains(i) }, quads: quads.map(\.quad))
    }

    /// Quad `i` moved (a grid straightened along its frame, a comb grown, a box extended
    /// past a lighting step), with the copy straightened from where it now lies.
    mutating func move(_ i: Int, to quad: Quadrilateral, straightened g: GrayImage?) {
        quads[i].quad = quad
        rectified[i] = g
    }

    /// Adds a grid put together from parts, `quad` straightened as `g` and ruled by
    /// `ruling`, nested among the quads as a detected one would be (`Layout.nest`).
    /// Returns its index.
    mutating func addGrid(_ quad: Quadrilateral, straightened g: GrayImage, ruling: Ruling) -> Int {
        let n = Layout.nest(quad, into: &quads)
        rulings[n] = ruling
        rectified[n] = g
        return n
    }
}
