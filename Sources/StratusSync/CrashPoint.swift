import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Named moments at which a test kills its own process (`SIGKILL`, as the system kills an app):
/// the process dies at the point `STRATUS_CRASH_POINT` names, and nowhere else. The crash-window
/// tests run a real app as a child process with it set, then start the app again on the same
/// files and check that nothing was lost and nothing applied twice.
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

    private static let armed = ProcessInfo.processInfo.environment["STRATUS_CRASH_POINT"].flatMap(CrashPoint.init(rawValue:))

    /// Kills the process if this is the armed point.
    package func reach() {
        guard Self.armed == self else { return }
        kill(getpid(), SIGKILL)
    }
}
