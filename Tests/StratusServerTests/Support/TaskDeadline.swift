import Synchronization

extension Task where Failure == any Error {
    /// The task's value, or nil when it has not finished within `limit`. The task is neither
    /// cancelled nor waited for past the limit, so a step whose client ignores cancellation (one
    /// stuck reading a socket) cannot hold the test run: the caller decides what to do.
    func value(within limit: Duration) async throws -> Success? {
        try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            let timer = Task<Void, Never> {
                try? await Task<Never, Never>.sleep(for: limit)
                once.resume(with: .success(nil))
            }
            Task<Void, Never> {
                once.resume(with: await self.result.map { Optional($0) })
                timer.cancel()
            }
        }
    }
}

/// A continuation resumed by whichever of two tasks comes first.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
