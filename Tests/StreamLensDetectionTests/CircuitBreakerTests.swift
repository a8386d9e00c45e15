import StreamLensCore
import Testing

@testable import StreamLensDetection

@Suite("Circuit breaker")
struct CircuitBreakerTests {
    /// Threshold 3, backoff 0.5 s doubling up to 4 s, cool-down 10 s doubling up to 40 s, timeout 2 s.
    static func configuration() -> CircuitBreaker.Configuration {
        var configuration = CircuitBreaker.Configuration()
        configuration.failureThreshold = 3
        configuration.initialBackoff = .milliseconds(500)
        configuration.multiplier = 2
        configuration.maxBackoff = .seconds(4)
        configuration.coolDown = .seconds(10)
        configuration.maxCoolDown = .seconds(40)
        configuration.callTimeout = .seconds(2)
        return configuration
    }

    @Test(
        "Backoff doubles per failure up to its cap",
        arguments: [(0, 0), (1, 500), (2, 1000), (3, 2000), (4, 4000), (5, 4000), (12, 4000)])
    func backoff(failures: Int, milliseconds: Int) {
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: ManualClock())
        #expect(breaker.backoff(afterFailures: failures) == .milliseconds(milliseconds))
    }

    @Test("Closed → backoff → open after 3 failures → half-open probe → open longer → probe → closed")
    func fullCycle() {
        let clock = ManualClock()
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: clock)
        #expect(breaker.requestPermission() == .granted)
        breaker.recordFailure()
        // Backing off 0.5 s, still closed.
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(500), state: .closed))
        clock.set(.milliseconds(499))
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(500), state: .closed))
        clock.set(.milliseconds(500))
        #expect(breaker.requestPermission() == .granted)
        breaker.recordFailure()
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(1500), state: .closed))
        clock.set(.milliseconds(1500))
        #expect(breaker.requestPermission() == .granted)
        breaker.recordFailure()
        // Third failure in a row: open for the 10 s cool-down.
        #expect(breaker.state == .open)
        #expect(breaker.counters.trips == 1)
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(11_500), state: .open))
        clock.set(.milliseconds(11_499))
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(11_500), state: .open))
        clock.set(.milliseconds(11_500))
        // Cool-down over: one probe, and only one.
        #expect(breaker.requestPermission() == .probe)
        #expect(breaker.state == .halfOpen)
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(11_500), state: .halfOpen))
        breaker.recordFailure()
        // Failed probe: open again for twice the cool-down.
        #expect(breaker.state == .open)
        #expect(breaker.counters.trips == 2)
        #expect(breaker.requestPermission() == .denied(until: .milliseconds(31_500), state: .open))
        clock.set(.milliseconds(31_500))
        #expect(breaker.requestPermission() == .probe)
        breaker.recordSuccess(duration: .milliseconds(100))
        // Closed: every request granted again, failures forgotten.
        #expect(breaker.state == .closed)
        #expect(breaker.consecutiveFailures == 0)
        #expect(breaker.requestPermission() == .granted)
        #expect(breaker.requestPermission() == .granted)
        #expect(breaker.counters == CircuitBreaker.Counters(failures: 4, timeouts: 0, trips: 2, probes: 2, denied: 7))
    }

    @Test("After closing, a new failure starts over at the first backoff and the base cool-down")
    func resetAfterClose() {
        let clock = ManualClock()
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: clock)
        for _ in 0..<3 {
            breaker.recordFailure()
            clock.advance(by: .seconds(5))
        }
        clock.advance(by: .seconds(10))
        #expect(breaker.requestPermission() == .probe)
        breaker.recordSuccess()
        let now = clock.now()
        breaker.recordFailure()
        #expect(breaker.requestPermission() == .denied(until: now + .milliseconds(500), state: .closed))
    }

    @Test("Repeated failed probes lengthen the cool-down up to its cap", arguments: [1, 2, 3, 4, 5])
    func coolDownCap(failedProbes: Int) {
        let clock = ManualClock()
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: clock)
        for _ in 0..<3 { breaker.recordFailure() }
        var coolDown = Duration.seconds(10)
        for _ in 0..<failedProbes {
            clock.advance(by: coolDown)
            #expect(breaker.requestPermission() == .probe)
            breaker.recordFailure()
            coolDown = min(coolDown * 2, .seconds(40))
        }
        #expect(breaker.requestPermission() == .denied(until: clock.now() + coolDown, state: .open))
    }

    @Test("A call slower than the timeout counts as a failure and can open the circuit")
    func timeouts() {
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: ManualClock())
        breaker.recordSuccess(duration: .seconds(2))  // exactly the timeout: fine
        #expect(breaker.counters.failures == 0)
        for _ in 0..<3 { breaker.recordSuccess(duration: .milliseconds(2001)) }
        #expect(breaker.counters.timeouts == 3)
        #expect(breaker.counters.failures == 3)
        #expect(breaker.state == .open)
    }

    @Test("When results are awaited, slow calls are successes and failures still count")
    func ignoredTimeouts() {
        let breaker = CircuitBreaker(configuration: Self.configuration(), clock: ManualClock())
        breaker.ignoreTimeouts()
        for _ in 0..<3 { breaker.recordSuccess(duration: .seconds(5)) }
        #expect(breaker.counters.timeouts == 0 && breaker.counters.failures == 0)
        #expect(breaker.state == .closed)
        for _ in 0..<3 { breaker.recordFailure() }
        #expect(breaker.counters.failures == 3)
        #expect(breaker.state == .open)
    }

    @Test("Invalid configurations are rejected")
    func validation() {
        var configuration = Self.configuration()
        configuration.failureThreshold = 0
        #expect(throws: DetectionError.self) { try configuration.validate() }
        configuration = Self.configuration()
        configuration.maxCoolDown = .seconds(1)
        #expect(throws: DetectionError.self) { try configuration.validate() }
    }
}
