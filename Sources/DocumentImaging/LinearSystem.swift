/// Small dense linear systems (a homography's eight unknowns, a smooth field's nine).
enum LinearSystem {
    /// The solution of the n × n system whose rows are `augmented` (each n coefficients
    /// and the right-hand side), by Gauss–Jordan elimination with partial pivoting; nil
    /// when a pivot is under `smallestPivot` (singular, or nearly).
    static func solve(_ augmented: [[Double]], smallestPivot: Double) -> [Double]? {
        var a = augmented
        let n = a.count
        for col in 0..<n {
            let pivot = (col..<n).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            guard abs(a[pivot][col]) > smallestPivot else { return nil }
            a.swapAt(col, pivot)
            for row in 0..<n where row != col {
                let f = a[row][col] / a[col][col]
                if f == 0 { continue }
                for k in col...n { a[row][k] -= f * a[col][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}
