/// Optimal one-to-one assignment of rows (tracks) to columns (detections) at the least total cost: the Hungarian
/// method in its shortest-augmenting-path form (Jonker–Volgenant's potentials), O(n³) for an n × n problem.
///
/// Pairs that may not be made (below the overlap threshold, another class) have cost `nil`; they are never returned,
/// and the solution is the cheapest among those that make as many admissible pairs as possible: an inadmissible pair
/// costs more than any admissible set could, so the solver never gives up a pair to save cost on another.
public enum LinearAssignment {
    /// The (row, column) pairs of the best assignment of a `rows` × `columns` problem whose costs `cost(row, column)`
    /// gives, sorted by row.
    public static func solve(rows: Int, columns: Int, cost: (Int, Int) -> Double?) -> [(row: Int, column: Int)] {
        guard rows > 0, columns > 0 else { return [] }
        let n = max(rows, columns)
        // Admissible costs are shifted to be ≥ 0; the inadmissible (and padding) cost exceeds n times the largest.
        var matrix = [Double](repeating: 0, count: n * n)
        var admissible = [Bool](repeating: false, count: n * n)
        var lowest = Double.infinity
        var highest = -Double.infinity
        for row in 0..<rows {
            for column in 0..<columns {
                guard let value = cost(row, column) else { continue }
                matrix[row * n + column] = value
                admissible[row * n + column] = true
                lowest = min(lowest, value)
                highest = max(highest, value)
            }
        }
        guard lowest.isFinite else { return [] }
        let blocked = (highest - lowest + 1) * Double(n + 1)
        for index in 0..<(n * n) {
            matrix[index] = admissible[index] ? matrix[index] - lowest : blocked
        }
        let assignment = minimise(matrix, size: n)
        var pairs: [(row: Int, column: Int)] = []
        for row in 0..<rows {
            let column = assignment[row]
            if column < columns && admissible[row * n + column] { pairs.append((row, column)) }
        }
        return pairs
    }

    /// The column of each row in a least-cost perfect matching of the square `size` × `size` matrix (row-major).
    ///
    /// Rows are added one at a time; each addition grows a shortest-path tree over the columns using reduced costs
    /// `c(i, j) − u(i) − v(j)` (never negative), then flips the path to the first free column reached and raises the
    /// potentials by the path lengths so reduced costs stay non-negative.
    static func minimise(_ cost: [Double], size n: Int) -> [Int] {
        // Index 0 is a virtual column; rows and columns are 1-based inside.
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: n + 1)
        var rowOfColumn = [Int](repeating: 0, count: n + 1)
        var previous = [Int](repeating: 0, count: n + 1)
        var distance = [Double](repeating: 0, count: n + 1)
        var used = [Bool](repeating: false, count: n + 1)
        for row in 1...n {
            rowOfColumn[0] = row
            var column0 = 0
            for j in 0...n {
                distance[j] = .infinity
                used[j] = false
            }
            repeat {
                used[column0] = true
                let row0 = rowOfColumn[column0]
                var delta = Double.infinity
                var column1 = 0
                for j in 1...n where !used[j] {
                    let reduced = cost[(row0 - 1) * n + (j - 1)] - u[row0] - v[j]
                    if reduced < distance[j] {
                        distance[j] = reduced
                        previous[j] = column0
                    }
                    if distance[j] < delta {
                        delta = distance[j]
                        column1 = j
                    }
                }
                for j in 0...n {
                    if used[j] {
                        u[rowOfColumn[j]] += delta
                        v[j] -= delta
                    } else {
                        distance[j] -= delta
                    }
                }
                column0 = column1
            } while rowOfColumn[column0] != 0
            // Flip the augmenting path back to the virtual column.
            repeat {
                let column1 = previous[column0]
                rowOfColumn[column0] = rowOfColumn[column1]
                column0 = column1
            } while column0 != 0
        }
        var columnOfRow = [Int](repeating: 0, count: n)
        for j in 1...n where rowOfColumn[j] != 0 { columnOfRow[rowOfColumn[j] - 1] = j - 1 }
        return columnOfRow
    }
}
