/// A live input lost and being reopened: how long it has been away, and when it counts as back.
///
/// An input that went silent may resume by itself, so its next frame ends the outage. One that failed or ended does
/// not come back until it is reopened: frames that still drain out of it after its error (already decoded, on their
/// way through the frame path) move the outage's start on but do not end it — counting them as a return would count
/// one loss as two reconnections when the old pipeline reports a second error behind them.
struct InputOutage: Sendable, Equatable {
    /// The last frame before the loss: the outage lasts from here to the next frame of the input that came back.
    private(set) var since: Duration
    var reason: String
    /// When to try next; nil while an attempt waits for frames.
    var nextAttemptAt: Duration?
    /// When an attempt in progress counts as failed without frames.
    var attemptDeadline: Duration?
    /// Whether frames arriving now come from an input that is back: a silent one's at once, a failed one's once it
    /// was reopened.
    private var arrivalsMeanBack: Bool

    init(since: Duration, reason: String, nextAttemptAt: Duration, inputWentSilent: Bool) {
        self.since = since
        self.reason = reason
        self.nextAttemptAt = nextAttemptAt
        arrivalsMeanBack = inputWentSilent
    }

    /// A fresh input replaced the lost one; its frames end the outage.
    mutating func inputReopened(attemptDeadline: Duration) {
        self.attemptDeadline = attemptDeadline
        arrivalsMeanBack = true
    }

    /// Frames arrived at `now`: the outage's length when they end it, nil when they drained from the lost input.
    mutating func framesArrived(at now: Duration) -> Duration? {
        guard arrivalsMeanBack else {
            since = now
            return nil
        }
        return now - since
    }
}
