import Synchronization
import StratusCore

/// A bound on the requests that may hold large amounts of memory at once: reads whose answers
/// can fill a response budget, and writes with large bodies. A request takes a permit once its
/// body is in (``WholeRequestBody``: a slow sender never holds one) and holds it while its
/// work is done and its answer encoded; others wait, and past `maxWaiting` waiters a request is
/// shed with `THROTTLED`.
///
/// A permit is held until the answer has been written to the socket (see ``Lease``), so the
/// answers waiting to be sent count too. With `permits` × (its parse + response budget × 3), and
/// the bodies of the requests in flight (at most `maxRequestsInFlight` × `maxRequestBytes`, each
/// client address at most `maxRequestsPerAddress` of them), this is what bounds the server's
/// memory under a flood of large requests; small requests never wait here.
final class WorkPermits: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    let maxWaiting: Int

    init(permits: Int, maxWaiting: Int) {
        state = Mutex(State(available: permits))
        self.maxWaiting = maxWaiting
    }

    /// A permit, waiting for one if none is free. It returns when released, or when the lease
    /// is dropped unreleased (a request that failed, a response never written).
    func lease() async throws -> Lease {
        try await acquire()
        return Lease(self)
    }

    /// One held permit.
    final class Lease: Sendable {
        private let permits: WorkPermits
        private let released = Mutex(false)

        fileprivate init(_ permits: WorkPermits) {
            self.permits = permits
        }

        /// Returns the permit; later calls do nothing.
        func release() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            if first { permits.release() }
        }

        deinit { release() }
    }

    private func acquire() async throws {
        enum Admission { case granted, wait, refused }
        let admission = state.withLock { state -> Admission in
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
                let granted = state.withLock { state -> Bool in
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
    fileprivate func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
