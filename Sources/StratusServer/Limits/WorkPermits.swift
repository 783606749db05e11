import NIOConcurrencyHelpers
import StratusCore

/// A bound on the requests that may hold large amounts of memory at once: reads whose answers
/// can fill a response budget, and writes with large bodies. Each holds a permit while its body
/// is read, its work done and its answer encoded; others wait (their bodies stay unread in the
/// socket, held back by TCP), and past `maxWaiting` waiters a request is shed with `THROTTLED`.
///
/// With `permits` × (request body + its parse + response budget × 2) this is what bounds the
/// server's memory under a flood of large requests; small requests never wait here.
final class WorkPermits: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>
    let maxWaiting: Int

    init(permits: Int, maxWaiting: Int) {
        state = NIOLockedValueBox(State(available: permits))
        self.maxWaiting = maxWaiting
    }

    /// Runs `body` holding a permit, waiting for one if none is free.
    func withPermit<T>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        enum Admission { case granted, wait, refused }
        let admission = state.withLockedValue { state -> Admission in
            if state.available > 0 {
                state.available -= 1
                return .granted
            }
            return state.waiters.count < maxWaiting ? .wait : .refused
        }
        switch admission {
        case .granted:
            return
        case .refused:
            throw CloudKitError(.throttled, "the server is busy with large requests; retry after the delay", retryAfter: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                let granted = state.withLockedValue { state -> Bool in
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append(continuation)
                    return false
                }
                if granted { continuation.resume() }
            }
        }
    }

    /// Hands the permit to the first waiter, or returns it.
    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
