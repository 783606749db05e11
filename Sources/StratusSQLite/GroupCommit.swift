import GRDB
import StratusCore
import StratusServer
import Synchronization

/// Group commit for SQLite's one writer connection.
///
/// Every acknowledged write must be fsynced (`synchronous = FULL`), and an fsync costs far more
/// than the work of a small write. So writes that arrive while the writer is busy queue here, and
/// whichever of them reaches the writer first runs all of those queued in **one** transaction
/// and one fsync. Each write still runs in a savepoint of its own: one whose body throws (a
/// failed validation, a conflict, a limit) is rolled back alone and fails alone, never its
/// neighbours. A fault of the transaction itself (the commit's fsync failing, a full disk, an
/// I/O error that makes SQLite abandon the transaction) fails every write of the group with a
/// retryable error, and none of them is acknowledged.
///
/// A lone write waits for nothing: it queues, reaches the idle writer, finds itself the whole
/// group and commits at once.
final class GroupCommit: Sendable {
    private let writer: DatabasePool
    private let queue = Mutex<[any GroupMember]>([])
    /// Most writes that may wait for the writer; past it a write is shed with `THROTTLED`.
    let maxQueuedWrites: Int
    /// When false each write commits alone (for measuring what grouping gains).
    let enabled: Bool

    init(writer: DatabasePool, maxQueuedWrites: Int, enabled: Bool = true) {
        self.writer = writer
        self.maxQueuedWrites = maxQueuedWrites
        self.enabled = enabled
    }

    /// Transactions committed and the writes they carried, since the server started.
    var statistics: (transactions: Int, writes: Int) { committed.withLock { $0 } }
    private let committed = Mutex((transactions: 0, writes: 0))

    /// Writes waiting for the writer now.
    var queuedWrites: Int { queue.withLock { $0.count } }

    /// Runs `body` in the next group's transaction and returns its result once that transaction
    /// is durable.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) async throws -> T) async throws -> T {
        let member = Member(body)
        let admitted = queue.withLock { queue in
            guard queue.count < maxQueuedWrites else { return false }
            queue.append(member)
            ServerMetrics.writeQueue(depth: queue.count)
            return true
        }
        guard admitted else {
            throw CloudKitError(.throttled, "the server is busy writing; retry later", retryAfter: 1)
        }
        try await writer.writeWithoutTransaction { db in
            let group = self.queue.withLock { queue -> [any GroupMember] in
                guard self.enabled else {
                    queue.removeAll { $0 === member }
                    ServerMetrics.writeQueue(depth: queue.count)
                    return [member]
                }
                defer {
                    queue.removeAll(keepingCapacity: true)
                    ServerMetrics.writeQueue(depth: 0)
                }
                return queue
            }
            // Empty when an earlier holder of the writer already took (and finished) this write.
            guard !group.isEmpty else { return }
            let start = ContinuousClock.now
            if try ConnectionThread.run({ await Self.commit(group, in: db) }) {
                ServerMetrics.committed(writes: group.count, in: ContinuousClock.now - start)
                self.committed.withLock { $0 = ($0.transactions + 1, $0.writes + group.count) }
            }
        }
        return try member.outcome()
    }

    /// Runs the members in one transaction, each in its own savepoint, and commits. Returns
    /// whether the transaction committed.
    private static func commit(_ group: [any GroupMember], in db: Database) async -> Bool {
        do {
            try db.beginImmediateTransaction()
        } catch {
            for member in group { member.fail(StorageFault.map(error)) }
            return false
        }
        for member in group {
            await member.run(in: db)
            if !db.isInsideTransaction {
                // SQLite rolled the whole transaction back (SQLITE_FULL, an I/O error…): every
                // write of the group is gone, the ones already run included.
                let fault: any Error = member.fault ?? CloudKitError(.tryAgainLater, "the write was rolled back; retry", retryAfter: 1)
                for member in group { member.fail(fault) }
                return false
            }
        }
        do {
            try db.commitTransaction()
        } catch {
            try? db.rollback()
            let fault = StorageFault.map(error)
            for member in group { member.fail(fault) }
            return false
        }
        for member in group { member.acknowledge() }
        return true
    }
}

/// One queued write of a group, erased to what the group needs.
private protocol GroupMember: AnyObject, Sendable {
    /// Runs the write in a savepoint; a write that throws is rolled back alone.
    func run(in db: Database) async
    /// The storage fault the write ran into, if its error was one.
    var fault: (any Error)? { get }
    /// Fails the write, whatever it did (the group's transaction did not commit).
    func fail(_ error: any Error)
    /// The group committed: the write's own result stands.
    func acknowledge()
}

private final class Member<T: Sendable>: GroupMember {
    private let body: @Sendable (Database) async throws -> T
    private let state = Mutex<State>(.queued)

    private enum State {
        case queued
        case ran(Result<T, any Error>)
        case done(Result<T, any Error>)
    }

    init(_ body: @escaping @Sendable (Database) async throws -> T) {
        self.body = body
    }

    func run(in db: Database) async {
        var result: Result<T, any Error> = .failure(CloudKitError(.internalError, "write did not run"))
        do {
            result = .success(try await db.inCachedSavepoint { try await body(db) })
        } catch {
            result = .failure(error)
        }
        state.withLock { $0 = .ran(result.mapError(StorageFault.map)) }
    }

    var fault: (any Error)? {
        state.withLock { state in
            guard case .ran(.failure(let error)) = state, StorageFault.isFault(error) else { return nil }
            return error
        }
    }

    func fail(_ error: any Error) {
        state.withLock { $0 = .done(.failure(error)) }
    }

    func acknowledge() {
        state.withLock { state in
            if case .ran(let result) = state { state = .done(result) }
        }
    }

    func outcome() throws -> T {
        try state.withLock { state in
            guard case .done(let result) = state else {
                throw CloudKitError(.internalError, "write finished without an outcome")
            }
            return try result.get()
        }
    }
}
