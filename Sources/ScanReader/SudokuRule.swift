import DigitClassifier
import DocumentImaging

/// A sudoku's digits never repeat in a row or a column (nor in a box, but a jigsaw
/// sudoku's regions are no boxes, so only rows and columns are asked), and none is 0. In
/// a 9×9 grid of one piece per cell whose digits read surely (`sureConfidence`: the
/// givens) keep that rule — a sudoku, not a table of numbers — every other cell read as a
/// digit holds none of the digits the givens of its row and column already are, nor 0:
/// those are ruled out and their probability spread over what is left, the reject
/// class among it (`DigitPrediction.excluding`). A 7 read beside a given 7 reads as the 1
/// the model thought next likeliest; a 1 the model half took for a 7 is read surely a 1
/// when a given 7 stands in its row. The other cells are read surest first, and one that
/// reads surely once so read (at `sureConfidence`) rules its digit out too, for the cells
/// of its row and column read after it.
enum SudokuRule {
    /// A sudoku's side, in cells.
    static let side = 9
    /// A digit read with at least this probability is taken as given: the rule is checked
    /// against these only, and only the others are read again (a digit the model is less
    /// sure of is no evidence against another). With 0.9 instead, fewer grids keep the
    /// rule (wichtounet-mixed, prototype: 26 clashing cells read right instead of 32).
    static let sureConfidence: Float = 0.99

    /// `pieces` (per region, with predictions) with each sudoku's cells that are no givens
    /// read with the digits its rule rules out ruled out, surest first.
    static func reading(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion]) -> [[ReadRegion.Piece]] {
        var result = pieces
        for (r, region) in regions.enumerated() where region.kind == .grid {
            guard let ruling = region.ruling, ruling.rowCount == side, ruling.columnCount == side else { continue }
            // each cell's piece (a cell of several pieces is a table's number: no sudoku)
            var pieceOf: [Int: Int] = [:]
            var oneEach = true
            for (i, piece) in pieces[r].enumerated() {
                guard piece.crop != nil, let row = piece.row, let col = piece.col else { continue }
                if pieceOf.updateValue(i, forKey: row * side + col) != nil { oneEach = false }
            }
            guard oneEach else { continue }
            var given: [Int: Int] = [:]   // cell → its sure digit
            for (cell, i) in pieceOf {
                if let p = pieces[r][i].prediction, !p.isRejected, p.confidence >= sureConfidence { given[cell] = p.label }
            }
            guard keepsRule(given) else { continue }
            // the other cells, surest first: each reads without the digits the givens and
            // the cells read before it hold in its row and column; a digit it then reads
            // surely is held too
            var held = given
            let others = pieceOf.filter { given[$0.key] == nil }.compactMap { cell, i -> (cell: Int, piece: Int, p: DigitPrediction)? in
                guard let p = pieces[r][i].prediction, !p.isRejected else { return nil }
                return (cell, i, p)
            }.sorted { ($0.p.confidence, -$0.cell) > ($1.p.confidence, -$1.cell) }
            for (cell, i, p) in others {
                let taken = Set(held.filter { other, _ in
                    other != cell && (other / side == cell / side || other % side == cell % side)
                }.values)
                let ruledOut = taken.union([0]).filter { p.probabilities[$0] > 0 }
                var reading = p
                if !ruledOut.isEmpty, let kept = p.excluding(Set(ruledOut)) {
                    result[r][i].prediction = kept
                    reading = kept
                }
                if !reading.isRejected, reading.confidence >= sureConfidence { held[cell] = reading.label }
            }
        }
        return result
    }

    /// Whether `given` (cell → digit) holds digits 1–9 only, none twice in a row or column.
    static func keepsRule(_ given: [Int: Int]) -> Bool {
        var seen = Set<[Int]>()
        for (cell, digit) in given {
            guard (1...9).contains(digit), seen.insert([0, cell / side, digit]).inserted,
                  seen.insert([1, cell % side, digit]).inserted else { return false }
        }
        return true
    }
}
