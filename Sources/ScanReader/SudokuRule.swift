import DigitClassifier
import DocumentImaging

/// A sudoku's digits never repeat in a row or a column (nor in a box, but a jigsaw
/// sudoku's regions are no boxes, so only rows and columns are asked). In a 9×9 grid of
/// one digit a cell whose digits the model reads surely (`sureConfidence`) keep that rule
/// — a sudoku, not a table of numbers — a digit the model doubts
/// (`DigitClassifier.secondLookBelow`) that a sure digit of its row or column already is,
/// is not that digit: the cell is read as the likeliest digit none of them is
/// (`DigitPrediction.amongDigits(excluding:)`, its probability spread over the digits
/// left).
enum SudokuRule {
    /// A sudoku's side, in cells.
    static let side = 9
    /// A digit read with at least this probability is taken as given: the rule is checked
    /// against these only (a doubted digit is no evidence against another).
    static let sureConfidence: Float = 0.99

    /// `pieces` (per region, with predictions) with the doubted digits of each sudoku that
    /// break its rule read as the likeliest digits that keep it.
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
            for (cell, i) in pieceOf where given[cell] == nil {
                guard let p = pieces[r][i].prediction, !p.isRejected, p.confidence < DigitClassifier.secondLookBelow
                else { continue }
                let taken = Set(given.filter { other, _ in
                    other != cell && (other / side == cell / side || other % side == cell % side)
                }.values)
                guard taken.contains(p.label), let kept = p.amongDigits(excluding: taken.union([0])) else { continue }
                result[r][i].prediction = kept
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
