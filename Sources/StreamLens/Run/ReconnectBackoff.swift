/// When to try reopening a lost live input: the first attempt after 0.5 s, each later one after twice the previous
/// wait, never more than 10 s apart; at most `maxAttempts` attempts in a row when given. A recovery (frames again)
/// starts the sequence afresh.
struct ReconnectBackoff: Sendable, Equatable {
    let initialDelay: Duration
    let maximumDelay: Duration
    /// Attempts in a row after which the input counts as gone; nil: no limit.
    let maxAttempts: Int?
    /// Attempts made since the input was lost.
    private(set) var attempts = 0

    init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(10), maxAttempts: Int? = nil) {
        precondition(initialDelay > .zero && maximumDelay >= initialDelay, "backoff delays must grow from a positive start")
        precondition(maxAttempts.map { $0 >= 0 } ?? true, "attempts cannot be negative")
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maxAttempts = maxAttempts
    }

    /// The wait before the next attempt: initial × 2^attempts, capped.
    var nextDelay: Duration {
        var delay = initialDelay
        for _ in 0..<attempts {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return delay
    }

    /// True when another attempt is allowed.
    var mayAttempt: Bool { maxAttempts.map { attempts < $0 } ?? true }

    mutating func recordAttempt() { attempts += 1 }

    /// The input is back: the next loss starts from the initial delay.
    mutating func reset() { attempts = 0 }
}
