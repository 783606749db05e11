import PostgresNIO
import StratusCore
import StratusServer

/// PostgreSQL's faults as CloudKit errors, as ``StorageFault`` maps SQLite's: what a client can
/// retry gets `TRY_AGAIN_LATER` with `retryAfter`.
///
/// | fault | code | `retryAfter` |
/// |---|---|---|
/// | the server unreachable, a connection lost, the pool exhausted | `TRY_AGAIN_LATER` | 1 s |
/// | a deadlock or serialization failure (`40P01`, `40001`), a lock timeout (`55P03`) | `TRY_AGAIN_LATER` | 1 s |
/// | the disk full (`53100`), too many connections (`53300`) | `TRY_AGAIN_LATER` | 5 s |
///
/// A transaction's closure error passes through unchanged.
enum PostgresFault {
    static func map(_ error: any Error) -> any Error {
        if let error = error as? PostgresTransactionError { return map(error.closureError ?? error.commitError ?? error) }
        guard let error = error as? PSQLError else { return error }
        if let state = error.serverInfo?[.sqlState] {
            switch state {
            case "40P01", "40001", "55P03":
                return CloudKitError(.tryAgainLater, "the server's storage is busy; retry", retryAfter: 1)
            case "53100", "53300":
                return CloudKitError(.tryAgainLater, "the server's storage is out of capacity; nothing was written", retryAfter: 5)
            default:
                return error
            }
        }
        return CloudKitError(.tryAgainLater, "the server could not reach its database; retry", retryAfter: 1)
    }
}
