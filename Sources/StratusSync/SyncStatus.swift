import Foundation
import Observation
import StratusClient

/// An engine's status for a user interface, kept current by the engine (``SyncEngine/status``).
///
/// It is `@Observable`: a SwiftUI view that reads it is redrawn when what it read changes, with
/// no polling and no event handling. It lives on the main actor, as views do.
///
/// ```swift
/// struct SyncBadge: View {
///     let status: SyncStatus
///     var body: some View {
///         if status.isSyncing { ProgressView() }
///         else if let error = status.lastError { Text(error.reason) }
///         else { Text("Synced \(status.lastSuccessfulSync?.formatted() ?? "never")") }
///     }
/// }
/// ```
@MainActor @Observable
public final class SyncStatus {
    /// What the engine is doing.
    public private(set) var phase: SyncEngine.State.Status
    /// When a sync last completed without error, in this run or an earlier one.
    public private(set) var lastSuccessfulSync: Date?

    /// The order of the engine's updates, so a late one never overwrites a newer one.
    @ObservationIgnored private var version = 0

    nonisolated init(phase: SyncEngine.State.Status, lastSuccessfulSync: Date?) {
        _phase = phase
        _lastSuccessfulSync = lastSuccessfulSync
    }

    /// Whether the engine is sending or fetching now.
    public var isSyncing: Bool {
        switch phase {
        case .sending, .fetching: true
        default: false
        }
    }

    /// The error the engine is waiting out or halted on; nil while all is well.
    public var lastError: CloudError? {
        switch phase {
        case .waitingToRetry(_, let error), .halted(let error): error
        default: nil
        }
    }

    /// One change, as the engine sends it.
    struct Update: Sendable {
        var version: Int
        var phase: SyncEngine.State.Status
        var lastSuccessfulSync: Date?
    }

    func apply(_ update: Update) {
        guard update.version > version else { return }
        version = update.version
        phase = update.phase
        if lastSuccessfulSync != update.lastSuccessfulSync { lastSuccessfulSync = update.lastSuccessfulSync }
    }
}
