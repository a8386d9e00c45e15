import Synchronization

/// Lets one task at a time through, waiting without blocking a thread. A catalog holds one database connection, and
/// an actor alone does not keep a transaction whole: at each `await` inside it another call may run, and its
/// statements would land inside the first one's transaction.
///
/// ## Thread Safety
/// State behind a mutex; waiters resume in arrival order.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Runs `body` alone, on the caller's actor.
    func withLock<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock(isolation: isolated (any Actor)? = #isolation) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    private func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
