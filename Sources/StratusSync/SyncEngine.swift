import Synchronization
import Foundation
import Logging
import StratusClient

/// Keeps one database of one account in sync, offline first (CloudKit's `CKSyncEngine`, with its
/// state durable on its own).
///
/// The app queues the IDs of what it changed with ``add(pendingRecordZoneChanges:)`` (or, with the
/// engine's state in the app's database, by appending to its outbox table in the transaction that
/// makes the change); the change is durable once queued. When it sends, the engine asks its
/// ``SyncEngineDelegate`` for each record's current body, saves in batches, resolves conflicts,
/// retries what can be retried and sets aside what the server refuses. It fetches the changes
/// made elsewhere by change token. Everything it does is reported, in order, to the delegate's
/// ``SyncEngineDelegate/handleEvent(_:syncEngine:)``, which the engine awaits.
///
/// Work runs one operation at a time: account, then zones, then records, then fetching.
public actor SyncEngine {
    /// What the engine was made with.
    public nonisolated let configuration: Configuration
    let state: SyncStateStore
    var database: CloudDatabase { configuration.database }

    /// The engine's status for a user interface, updated on the main actor as it changes.
    public nonisolated let status: SyncStatus
    var phase: SyncEngine.State.Status = .idle { didSet { publishStatus() } }
    var lastSuccessfulSync: Date? { didSet { publishStatus() } }
    private var statusVersion = 0
    var recentEvents: [String] = []
    /// Server versions the delegate could not apply, until reported (``reportSetAside()``).
    let refusals = Refusals()
    var accountChecked = false
    /// The batch size in use; halved while the server answers `limitExceeded`.
    var batchSize: Int

    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var scheduledSend: Task<Void, Never>?
    private var poller: Task<Void, Never>?
    private var started = false
    private var pushListener: Task<Void, Never>?
    private var fetchRequested = false
    private var pendingFetch = PendingFetch()

    /// Opens (or creates) the engine's state.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        switch configuration.state {
        case .file(let url): state = try SyncStateStore(path: url.path, scope: configuration.database.scope)
        case .database(let writer, let prefix): state = try SyncStateStore(database: writer, tablePrefix: prefix, scope: configuration.database.scope)
        }
        batchSize = max(1, configuration.batchSize)
        lastSuccessfulSync = try state.meta("lastSync").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        if let halted = try state.meta("halted") {
            let parts = halted.split(separator: "\n", maxSplits: 1).map(String.init)
            phase = .halted(CloudError(CloudError.Code(rawValue: parts[0]) ?? .notAuthenticated, parts.count > 1 ? parts[1] : halted))
        }
        status = SyncStatus(phase: phase, lastSuccessfulSync: lastSuccessfulSync)
    }

    // MARK: Queuing

    /// Queues record changes to send. Durable when it returns; a later change of the same record
    /// replaces an earlier one still waiting.
    public func add(pendingRecordZoneChanges changes: [SyncEngine.PendingRecordZoneChange]) async throws {
        try state.addPending(changes)
        await queuedChangesCommitted()
    }

    /// Tells the engine that changes were queued: a committed transaction appended record changes
    /// to its outbox table (``StateStorage/database(_:tablePrefix:)``). It reports a state update
    /// and, with automatic sync, sends soon.
    public func queuedChangesCommitted() async {
        await emit(.stateUpdate)
        scheduleSend()
    }

    /// Queues zone changes to send. Deleting a zone drops the zone's queued record changes.
    public func add(pendingDatabaseChanges changes: [SyncEngine.PendingDatabaseChange]) async throws {
        try state.addPending(changes)
        await queuedChangesCommitted()
    }

    // MARK: Running

    /// With automatic sync: fetches now, then sends soon after each change and polls.
    public func start() {
        guard configuration.automaticallySync, !started else { return }
        started = true
        Task { try? await self.run(.automatic) { try await $0.fetchOnce() } }
        let queued = ((try? state.pendingRecordCount()) ?? 0) + ((try? state.pendingDatabaseChanges().count) ?? 0)
        if queued > 0 { scheduleSend(after: .zero) }
        if let interval = configuration.pollInterval {
            let clock = configuration.clock
            poller = Task { [weak self] in
                while !Task.isCancelled {
                    try? await clock.sleep(for: interval)
                    try? await self?.run(.automatic) { try await $0.fetchOnce() }
                }
            }
        }
    }

    /// Stops automatic syncing; queued changes stay queued.
    public func stop() {
        started = false
        scheduledSend?.cancel()
        scheduledSend = nil
        poller?.cancel()
        poller = nil
    }

    /// Sends every queued change, retrying transient failures (up to the retry policy's attempts).
    public func sendChanges() async throws {
        try await run(.explicit) { try await $0.sendOnce() }
    }

    /// Fetches every change made elsewhere, retrying transient failures.
    public func fetchChanges() async throws {
        try await run(.explicit) { try await $0.fetchOnce() }
    }

    /// Sends, then fetches: Shopping UK's "Sync now".
    public func syncNow() async throws {
        try await sendChanges()
        try await fetchChanges()
    }

    /// Clears a halt (after the app signed in again or freed quota) and syncs again.
    public func resume() async throws {
        try state.setMeta("halted", nil)
        phase = .idle
        accountChecked = false
        await emit(.stateUpdate)
        scheduleSend(after: .zero)
    }

    /// Forgets the change tokens and what it knew of the server, so the next fetch brings (and
    /// reports) every record again — for an app that cleared its local data.
    public func refetchEverything() async throws {
        try state.forgetServerState()
        await emit(.stateUpdate)
    }

    // MARK: Diagnostics

    /// What the engine is doing and holding, for a diagnostics screen.
    public func snapshot() throws -> SyncEngine.State {
        SyncEngine.State(
            status: phase, pendingRecordChanges: try state.pendingRecordChanges(),
            pendingDatabaseChanges: try state.pendingDatabaseChanges(),
            setAsideChanges: try state.setAsideChanges().map { .init(change: $0.change, reason: $0.reason, isServerVersion: $0.notApplied) },
            setAsideDropped: try state.setAsideDropped(),
            tokens: try state.allTokens(),
            lastSuccessfulSync: lastSuccessfulSync,
            recentEvents: recentEvents)
    }

    // MARK: Internals

    /// Reports an event to the delegate and waits until it is handled.
    func emit(_ event: SyncEngine.Event) async {
        recentEvents.append("\(Date()) \(Self.summary(event))")
        if recentEvents.count > 50 { recentEvents.removeFirst(recentEvents.count - 50) }
        await configuration.delegate?.handleEvent(event, syncEngine: self)
    }

    /// Reports what the server has now (a fetched page, a record deleted on the server since it
    /// was created here, a set-aside record's server version) through the one channel the app
    /// takes it from: when the state lives in the app's database, ``applier`` handed it to the
    /// delegate in the transaction that stored it, and no event repeats it; otherwise the event
    /// ``SyncEngine/Event/fetchedRecordZoneChanges(modifications:deletions:)``.
    func deliverFetched(_ modifications: [CloudRecord], deletions: [RecordZoneChanges.Deletion]) async {
        guard applier == nil, !modifications.isEmpty || !deletions.isEmpty else { return }
        await emit(.fetchedRecordZoneChanges(modifications: modifications, deletions: deletions))
    }

    /// What the delegate applies inside the state's transactions, when the state lives in the
    /// app's database.
    var applier: ServerChangesApplier? {
        guard case .database = configuration.state, let delegate = configuration.delegate else { return nil }
        let refusals = self.refusals
        return { changes, db in
            let refused = try delegate.applyServerChanges(changes, in: db)
            refusals.add(refused)
            return refused
        }
    }

    /// The delegate, which must still be alive when the engine needs a record.
    func requireDelegate() throws -> any SyncEngineDelegate {
        guard let delegate = configuration.delegate else { throw CancellationError() }
        return delegate
    }

    /// Runs one operation at a time.
    func exclusively<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        while busy { await withCheckedContinuation { waiters.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiters.isEmpty { waiters.removeFirst().resume() }
        }
        return try await body()
    }

    /// Who asked for an operation, which decides how long its transient failures are retried.
    enum Trigger {
        /// The app (``syncNow()``, ``sendChanges()``, ``fetchChanges()``): retried up to the retry
        /// policy's attempts, then the error is thrown.
        case explicit
        /// Automatic sync: retried until it succeeds, for as long as the engine runs.
        case automatic
        /// A push notification: retried like automatic sync, even while the engine is stopped.
        case pushed
    }

    /// Runs an operation, one at a time, and does what ``ErrorPolicy`` says about its failures:
    /// waits and tries again, halts, or throws. The engine's only retry loop.
    func run(_ trigger: Trigger, _ operation: @Sendable (isolated SyncEngine) async throws -> Void) async throws {
        var attempt = 0
        while true {
            if trigger == .automatic && !started { return }
            try checkNotHalted()
            do {
                try await exclusively { try await operation(self) }
                phase = .idle
                return
            } catch let error as CloudError {
                switch decide(error, in: .operation, about: "the \(trigger) sync") {
                case .retry where trigger != .explicit || attempt + 1 < configuration.retry.maximumAttempts:
                    let delay = configuration.retry.delay(attempt: attempt, error: error)
                    phase = .waitingToRetry(until: Date().addingTimeInterval(delay.seconds), error: error)
                    configuration.logger.notice("retrying the \(trigger) sync", metadata: ["attempt": "\(attempt + 1)", "in": "\(delay)"])
                    attempt += 1
                    try await configuration.clock.sleep(for: delay)
                case .halt:
                    try await halt(error)
                    throw error
                default:
                    phase = .idle
                    throw error
                }
            } catch {
                // Not the server's answer (the app's store could not be read, the state file
                // failed): automatic sync stops until resumed; the app's own call gets the error.
                configuration.logger.error("the \(trigger) sync failed", metadata: ["error": "\(error)"])
                if trigger != .explicit { phase = .halted(CloudError(.internalError, "\(error)")) }
                throw error
            }
        }
    }

    /// Asks ``ErrorPolicy`` what to do about `error` in `step` (concerning `subject`), and logs
    /// the decision.
    func decide(_ error: CloudError, in step: ErrorPolicy.Step, about subject: String) -> ErrorPolicy.Action {
        let action = ErrorPolicy.action(for: error, in: step, scope: database.scope)
        let metadata: Logger.Metadata = ["step": "\(step)", "subject": "\(subject)", "error": "\(error)", "action": "\(action.rawValue)"]
        switch action {
        case .halt: configuration.logger.error("sync halts until the app resumes it", metadata: metadata)
        case .setAside, .retry, .splitBatch: configuration.logger.notice("sync failure", metadata: metadata)
        default: configuration.logger.info("sync failure", metadata: metadata)
        }
        return action
    }

    /// Sends after the send delay, once, however many changes arrive meanwhile.
    private func scheduleSend(after delay: Duration? = nil) {
        guard started, scheduledSend == nil else { return }
        let delay = delay ?? configuration.sendDelay
        let clock = configuration.clock
        scheduledSend = Task { [weak self] in
            try? await clock.sleep(for: delay)
            await self?.runScheduledSend()
        }
    }

    private func runScheduledSend() async {
        scheduledSend = nil
        try? await run(.automatic) { try await $0.sendOnce() }
    }

    /// Stops syncing until ``resume()``: the error needs the app (authentication, quota).
    private func halt(_ error: CloudError) async throws {
        phase = .halted(error)
        try state.setMeta("halted", "\(error.code.rawValue)\n\(error.reason)")
        await emit(.halted(error))
    }

    func checkNotHalted() throws {
        if case .halted(let error) = phase { throw error }
    }

    /// Checks once per engine life that the signed-in user is the one the state belongs to.
    func ensureAccount() async throws {
        guard !accountChecked else { return }
        let user = try await database.container.currentUserRecordName()
        let known = try state.meta("user")
        if known != user {
            if known != nil { try state.resetForNewAccount() }
            try state.setMeta("user", user)
            await emit(.accountChange(userRecordName: user))
        }
        accountChecked = true
    }

    /// Creates the engine's database subscription once per account (in the public database, a
    /// subscription of its `_defaultZone`, which hears of the changes the user may read); the
    /// state remembers it.
    func ensureSubscription() async throws {
        guard let id = configuration.subscriptionID, try state.meta("subscription") != id else { return }
        let subscription = database.scope == .public
            ? CloudSubscription(subscriptionID: id, subscriptionType: .zone, zoneID: .default,
                                notificationInfo: NotificationInfo(shouldSendContentAvailable: true))
            : CloudSubscription(subscriptionID: id, subscriptionType: .database,
                                notificationInfo: NotificationInfo(shouldSendContentAvailable: true))
        do {
            try await database.save(subscription: subscription)
        } catch let error as CloudError where error.code == .serverRecordChanged {
            // Another device of the account created it at the same moment: it exists, as wanted.
        }
        try state.setMeta("subscription", id)
    }

    // MARK: Push

    /// Fetches when a notification arrives on `push` (and after each reconnection, which the
    /// server announces with a notification): the zone a zone or query notification names, or the
    /// whole database. Notifications that arrive during a fetch cause one more fetch, not one each.
    public func listen(to push: PushConnection) {
        let notifications = push.notifications
        pushListener?.cancel()
        pushListener = Task { [weak self] in
            for await notification in notifications {
                await self?.fetch(for: notification)
            }
        }
    }

    private func fetch(for notification: PushNotification) {
        let zone: ZoneID? = switch notification.subject {
        case .query(_, let zoneID, _, _), .recordZone(let zoneID): zoneID
        case .database, nil: nil
        }
        if !notification.isPruned, let zone {
            pendingFetch.insert(database.scope == .shared ? zone : ZoneID(zoneName: zone.zoneName))
        } else {
            pendingFetch.wholeDatabase = true
        }
        guard !fetchRequested else { return }
        fetchRequested = true
        Task {
            try? await self.run(.pushed) { engine in
                engine.fetchRequested = false
                let wanted = engine.pendingFetch
                engine.pendingFetch = PendingFetch()
                if wanted.wholeDatabase {
                    try await engine.fetchOnce()
                } else {
                    try await engine.fetchZones(wanted.zones)
                }
            }
        }
    }

    /// What notifications asked to fetch since the last fetch began.
    struct PendingFetch {
        var wholeDatabase = false
        var zones: [ZoneID] = []

        mutating func insert(_ zoneID: ZoneID) {
            if !zones.contains(zoneID) { zones.append(zoneID) }
        }
    }

    func markSynced() throws {
        let now = Date()
        try state.setMeta("lastSync", String(now.timeIntervalSince1970))
        lastSuccessfulSync = now
    }

    /// Hands the current status to ``status`` on the main actor.
    private func publishStatus() {
        statusVersion += 1
        let update = SyncStatus.Update(version: statusVersion, phase: phase, lastSuccessfulSync: lastSuccessfulSync)
        Task { @MainActor [status] in status.apply(update) }
    }

    private static func summary(_ event: SyncEngine.Event) -> String {
        switch event {
        case .accountChange(let user): "account \(user)"
        case .stateUpdate: "state update"
        case .willFetchChanges: "will fetch"
        case .fetchedDatabaseChanges(let modified, let deleted): "fetched zones: \(modified.count) changed, \(deleted.count) deleted"
        case .zonesRemoved(let reasons): "zones removed: " + reasons.map { "\($0.key.zoneName) (\($0.value.rawValue))" }.sorted().joined(separator: ", ")
        case .fetchedRecordZoneChanges(let modified, let deleted): "fetched records: \(modified.count) changed, \(deleted.count) deleted"
        case .changeTokenExpired(let zone): "change token expired (\(zone?.zoneName ?? "database"))"
        case .didFetchChanges: "did fetch"
        case .willSendChanges: "will send"
        case .sentDatabaseChanges(let saved, let deleted, let failed): "sent zones: \(saved.count) saved, \(deleted.count) deleted, \(failed.count) failed"
        case .sentRecordZoneChanges(let sent):
            "sent records: \(sent.savedRecords.count) saved, \(sent.deletedRecordIDs.count) deleted, \(sent.failedRecordSaves.count + sent.failedRecordDeletes.count) failed"
        case .didSendChanges: "did send"
        case .serverVersionsSetAside(let refused): "set aside, not applied: " + refused.map { "\($0.key.recordName) (\($0.value))" }.sorted().joined(separator: ", ")
        case .halted(let error): "halted: \(error)"
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Records the delegate refused while applying, gathered inside the state's transactions and
/// reported by the engine afterwards.
final class Refusals: Sendable {
    private let refused = Mutex<[RecordID: String]>([:])

    func add(_ more: [RecordID: String]) {
        guard !more.isEmpty else { return }
        refused.withLock { $0.merge(more) { $1 } }
    }

    func take() -> [RecordID: String] {
        refused.withLock { refused in
            defer { refused = [:] }
            return refused
        }
    }
}
