import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Kalman box filter")
struct KalmanBoxFilterTests {
    @Test("Predict and update, to the numbers of the written-out 2 × 2 equations")
    func predictAndUpdate() {
        // Centre (50, 100), 20 × 100: noise scale h = 100. At the first sighting position variance
        // (2 · 0.05 · 100)² = 100, velocity variance (1 · 100)² = 10 000 (initial velocity noise 1 here), no
        // correlation.
        var noise = KalmanBoxFilter.Noise()
        noise.initialVelocityNoise = 1
        var filter = KalmanBoxFilter(box: box(40, 50, 20, 100), noise: noise)
        #expect(filter.x == .init(position: 50, velocity: 0, pp: 100, pv: 0, vv: 10_000))
        // Half a second on: qp = (0.27 · 100)² · 0.5 = 364.5, qv = (1.03 · 100)² · 0.5 = 5304.5;
        // pp = 100 + 0.25 · 10 000 + 364.5 = 2964.5, pv = 0.5 · 10 000 = 5000, vv = 15 304.5. At rest: no move.
        filter.predict(by: 0.5)
        #expect(abs(filter.x.pp - 2964.5) < 1e-9 && abs(filter.x.pv - 5000) < 1e-9 && abs(filter.x.vv - 15_304.5) < 1e-9)
        #expect(filter.box == box(40, 50, 20, 100))
        // A measurement 10 px to the right (r = (0.05 · 100)² = 25): S = 2989.5, gains 2964.5/S and 5000/S.
        filter.update(with: box(50, 50, 20, 100))
        let s = 2989.5
        #expect(abs(filter.x.position - (50 + 10 * 2964.5 / s)) < 1e-9)
        #expect(abs(filter.x.velocity - 10 * 5000 / s) < 1e-9)
        #expect(abs(filter.x.pp - 2964.5 * (1 - 2964.5 / s)) < 1e-9)
        #expect(abs(filter.x.pv - 5000 * (1 - 2964.5 / s)) < 1e-9)
        #expect(abs(filter.x.vv - (15_304.5 - 5000 / s * 5000)) < 1e-9)
        // y, width and height saw no change: they stay put, only less uncertain.
        #expect(filter.y.position == 100 && filter.y.velocity == 0 && filter.y.pp < 2964.5)
        // Predicting reads the velocity: 0.3 s later the centre is 0.3 · v further on.
        let ahead = filter.predicted(by: 0.3)
        #expect(abs(ahead.center.x - (filter.x.position + 0.3 * filter.x.velocity)) < 1e-9)
        // Nothing happens for a time that does not move forward.
        var same = filter
        same.predict(by: 0)
        same.predict(by: -1)
        #expect(same == filter)
    }

    @Test("A steady walker: the velocity estimate converges, at a stretching cadence too")
    func convergesOnSteadyMotion() {
        // 120 px/s right, 30 px/s down, sampled at uneven intervals (the cadence lengthens under load).
        let intervals = [0.3, 0.3, 0.6, 0.3, 0.9, 0.3, 0.3, 0.6, 0.3, 0.3, 0.3, 0.3]
        var time = 0.0
        var filter = KalmanBoxFilter(box: box(0, 0, 40, 80))
        for dt in intervals {
            time += dt
            filter.predict(by: dt)
            filter.update(with: box(120 * time, 30 * time, 40, 80))
        }
        #expect(abs(filter.velocity.x - 120) < 2, "vx \(filter.velocity.x)")
        #expect(abs(filter.velocity.y - 30) < 1, "vy \(filter.velocity.y)")
        let next = filter.predicted(by: 0.3)
        #expect(abs(next.x - 120 * (time + 0.3)) < 1 && abs(next.y - 30 * (time + 0.3)) < 1)
    }
}

@Suite("Linear assignment")
struct LinearAssignmentTests {
    /// The best assignment by trying every one: most pairs first, then least cost.
    static func bruteForce(_ cost: [[Double?]]) -> (pairs: Int, cost: Double) {
        let rows = cost.count
        let columns = cost.first?.count ?? 0
        var best = (pairs: 0, cost: 0.0)
        var used = [Bool](repeating: false, count: columns)
        func search(_ row: Int, _ pairs: Int, _ total: Double) {
            if row == rows {
                if pairs > best.pairs || (pairs == best.pairs && total < best.cost - 1e-12) { best = (pairs, total) }
                return
            }
            search(row + 1, pairs, total)
            for column in 0..<columns where !used[column] {
                guard let value = cost[row][column] else { continue }
                used[column] = true
                search(row + 1, pairs + 1, total + value)
                used[column] = false
            }
        }
        search(0, 0, 0)
        return best
    }

    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("Equals brute force on 300 random matrices up to 6 × 6, a third of the pairs inadmissible")
    func againstBruteForce() {
        var generator = SplitMix(state: 68)
        for trial in 0..<300 {
            let rows = Int.random(in: 1...6, using: &generator)
            let columns = Int.random(in: 1...6, using: &generator)
            let cost: [[Double?]] = (0..<rows).map { _ in
                (0..<columns).map { _ in
                    Double.random(in: 0..<1, using: &generator) < 0.33 ? nil : Double.random(in: 0...1, using: &generator)
                }
            }
            let pairs = LinearAssignment.solve(rows: rows, columns: columns) { cost[$0][$1] }
            let expected = Self.bruteForce(cost)
            let total = pairs.reduce(0.0) { $0 + cost[$1.row][$1.column]! }
            #expect(pairs.count == expected.pairs, "trial \(trial): \(cost)")
            #expect(abs(total - expected.cost) < 1e-9, "trial \(trial): \(cost)")
            #expect(Set(pairs.map(\.row)).count == pairs.count && Set(pairs.map(\.column)).count == pairs.count)
        }
    }

    @Test("The optimum where greedy picking of the best pair fails")
    func beatsGreedy() {
        // Greedy takes (0, 0) at 0.1 and must then pair (1, 1) at 0.9: total 1.0. The optimum is 0.2 + 0.3.
        let cost: [[Double?]] = [[0.1, 0.2], [0.3, 0.9]]
        let pairs = LinearAssignment.solve(rows: 2, columns: 2) { cost[$0][$1] }
        #expect(pairs.map { [$0.row, $0.column] } == [[0, 1], [1, 0]])
        // Nothing admissible: no pairs.
        #expect(LinearAssignment.solve(rows: 2, columns: 3) { _, _ in nil }.isEmpty)
    }
}
