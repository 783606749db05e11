import StratusClient

/// What the engine does about a failure, for every step that can fail: the one table of the
/// engine's error handling. Each call site asks it and does what it says; the engine logs every
/// decision (what failed, what it will do).
///
/// The table follows CloudKit's guidance for `CKSyncEngine` and `CKModifyRecordsOperation`:
/// transient errors are retried after `retryAfter` or a backoff; authentication and quota stop
/// syncing until the app acts; a conflict is resolved against the server's record and sent
/// again; a batch the server finds too large is split; a missing zone is created (in the
/// databases the user owns); an expired change token restarts the listing; anything else about
/// one change is set aside with its error, never retried in a loop.
public enum ErrorPolicy {
    /// A step of syncing that can fail.
    public enum Step: Sendable, Equatable {
        /// A whole send or fetch, from ``SyncEngine/syncNow()`` or automatic sync.
        case operation
        /// Saving or deleting one zone.
        case zoneChange(deleting: Bool)
        /// A `records/modify` request refused as a whole.
        case batch(size: Int)
        /// Saving one record of a batch; `create` when the engine knows no server version of it.
        case recordSave(create: Bool)
        /// Deleting one record of a batch.
        case recordDelete
        /// Fetching a page of database or zone changes; `fromToken` unless listing from the start.
        case fetch(fromToken: Bool)
    }

    /// What to do about a failure.
    public enum Action: String, Sendable, Equatable {
        /// Wait (the server's `retryAfter`, or a backoff) and try again.
        case retry
        /// Stop syncing until the app calls ``SyncEngine/resume()`` (sign in again, free quota).
        case halt
        /// End the step with the error: the operation around it decides.
        case fail
        /// Send the batch again, in halves.
        case splitBatch
        /// Create the zone, then send again.
        case createZone
        /// Merge with the server's record (the type's ``ConflictResolver``) and send the result.
        case resolveConflict
        /// Send the change again with the next batch (another change of the batch failed it).
        case sendAgain
        /// The change is done: what it deletes is already gone.
        case done
        /// The create was applied before (its answer lost), then the record deleted: report the
        /// deletion instead of creating it again.
        case reportDeletion
        /// The record is gone from the server: forget its server version, so that the next send
        /// creates it.
        case forgetServerRecord
        /// List again from the beginning (the change token expired).
        case restartListing
        /// Forget the zone and what is known of it (deleted, or no longer shared).
        case forgetZone
        /// Set the change aside with its error and report it; it is not sent again.
        case setAside
    }

    /// The action for `error` in `step` of syncing a database of `scope`.
    public static func action(for error: CloudError, in step: Step, scope: DatabaseScope) -> Action {
        let ownsZones = scope != .shared
        switch (step, error.code) {
        case (_, .notAuthenticated), (_, .quotaExceeded):
            return step == .operation ? .halt : .fail
        case (_, _) where error.isTransient:
            return step == .operation ? .retry : .fail
        case (.operation, _):
            return .fail

        case (.zoneChange(deleting: true), .zoneNotFound):
            return .done
        case (.zoneChange, _):
            return .setAside

        case (.batch(let size), .limitExceeded) where size > 1, (.batch(let size), .invalidArguments) where size > 1:
            return .splitBatch
        case (.batch, .limitExceeded), (.batch, .invalidArguments):
            return .setAside
        case (.batch, .zoneNotFound):
            return ownsZones ? .createZone : .setAside
        case (.batch, _):
            return .fail

        case (.recordSave, .serverRecordChanged) where error.serverRecord != nil:
            return .resolveConflict
        case (.recordSave, .zoneNotFound) where ownsZones:
            return .createZone
        case (.recordSave(create: true), .unknownItem):
            return .reportDeletion
        case (.recordSave(create: false), .unknownItem):
            return .forgetServerRecord
        case (.recordSave, .batchRequestFailed), (.recordDelete, .batchRequestFailed):
            return .sendAgain
        case (.recordDelete, .unknownItem):
            return .done
        case (.recordSave, _), (.recordDelete, _):
            return .setAside

        case (.fetch(fromToken: true), .changeTokenExpired):
            return .restartListing
        case (.fetch, .zoneNotFound):
            return .forgetZone
        case (.fetch, _):
            return .fail
        }
    }
}
