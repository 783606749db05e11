#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Named moments at which a test kills its own process (`SIGKILL`, as the system kills an app).
/// The library never arms one itself: a harness arms one through the engine's configuration
/// (``SyncEngine/Configuration/crashPoint``), as the Notes example's debug build does when its
/// crash-window tests run it with `STRATUS_CRASH_POINT` set; they then start the app again on the
/// same files and check that nothing was lost and nothing applied twice.
package enum CrashPoint: String, Sendable {
    /// A fetched page with changes arrived; its transaction (records, local data, token) has not
    /// begun.
    case fetchedPageArrived = "sync.fetchedPageArrived"
    /// A fetched page's transaction committed changes; the delegate has not heard of them.
    case fetchedPageCommitted = "sync.fetchedPageCommitted"
    /// The server answered a sent batch; its outcome is not recorded.
    case sentBatchAnswered = "sync.sentBatchAnswered"
    /// An app's local change committed; nothing was sent.
    case localChangeCommitted = "app.localChangeCommitted"

    /// Kills the process if this is the `armed` point.
    package func reach(armed: CrashPoint?) {
        guard armed == self else { return }
        kill(getpid(), SIGKILL)
    }
}
