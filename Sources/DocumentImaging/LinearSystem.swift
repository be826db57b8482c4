/// Small dense linear systems (a homography's eight unknowns, a smooth field's nine, a
/// comb's progression's three).
public enum LinearSystem {
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

    /// The least-squares solution of `a · x ≈ b` (rows of `a` the terms of each point, `b`
    /// its value), from the normal equations with `ridge` added to their diagonal (terms
    /// the points cannot fix stay near zero); nil when there are no rows or the system is
    /// singular.
    public static func leastSquares(_ a: [[Double]], _ b: [Double], ridge: Double = 0) -> [Double]? {
        guard let n = a.first?.count, !a.isEmpty else { return nil }
        var m = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
        for (row, y) in zip(a, b) {
            for i in 0..<n {
                for j in 0..<n { m[i][j] += row[i] * row[j] }
                m[i][n] += row[i] * y
            }
        }
        for i in 0..<n { m[i][i] += ridge }
        return solve(m, smallestPivot: 1e-12)
    }
}
