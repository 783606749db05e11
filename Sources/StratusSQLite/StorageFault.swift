import GRDB
import StratusCore
import StratusServer

/// Storage faults as CloudKit errors: what a client can retry gets `TRY_AGAIN_LATER` with
/// `retryAfter`, so the sync engine waits and resends instead of giving up.
///
/// | SQLite result | code | `retryAfter` |
/// |---|---|---|
/// | `SQLITE_FULL` (disk or database size limit full) | `TRY_AGAIN_LATER` | 60 s |
/// | `SQLITE_IOERR` (an I/O error, an fsync that failed) | `TRY_AGAIN_LATER` | 5 s |
/// | `SQLITE_BUSY`, `SQLITE_LOCKED` | `TRY_AGAIN_LATER` | 1 s |
///
/// Any other error passes through unchanged (and ends as a logged `INTERNAL_ERROR`).
enum StorageFault {
    static func map(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_FULL:
            return CloudKitError(.tryAgainLater, "the server's storage is full; nothing was written", retryAfter: 60)
        case .SQLITE_IOERR:
            return CloudKitError(.tryAgainLater, "the server could not write to its storage; nothing was written", retryAfter: 5)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return CloudKitError(.tryAgainLater, "the server's storage is busy; retry", retryAfter: 1)
        default:
            return error
        }
    }

    /// Whether an error (after ``map(_:)``) is a storage fault rather than the write's own failure.
    static func isFault(_ error: any Error) -> Bool {
        (error as? CloudKitError)?.code == .tryAgainLater
    }
}
