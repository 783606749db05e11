import Foundation
import GRDB
import StratusCore
import Synchronization
import Testing
@testable import StratusSQLite
@testable import StratusServer

/// Durability that is true: the writer's pragmas read back from SQLite, and concurrent writes
/// sharing commits without sharing failures.
@Suite struct GroupCommitTests {
    /// GRDB lowers `synchronous` to NORMAL when it enables WAL; the server must raise it again
    /// and it must stay raised after the migrations and after writes.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func writerConnectionIsWALWithSynchronousFull() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("one")])
            let storage = try #require(server.server.services.storage as? SQLiteStorage)
            let durability = try await storage.writerDurability()
            #expect(durability.journalMode == "wal")
            #expect(durability.synchronous == 2, "synchronous must be FULL (2), not NORMAL (1)")
        }
    }

    /// Many clients saving one record each at once: every save is acknowledged once and present
    /// after a restart; the change feed holds each exactly once.
    @Test func concurrentSingleSavesAreAllDurable() async throws {
        let directory = TestServer.temporaryDirectory()
        let users = try await TestServer.with(dataDirectory: directory) { server in
            var users: [Caller] = []
            for index in 0..<8 { users.append(try await server.signUp("writer\(index)")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    group.addTask {
                        for index in 0..<25 { _ = try await user.save([.create("r\(index)")]) }
                    }
                }
                try await group.waitForAll()
            }
            return users
        }
        try await TestServer.with(dataDirectory: directory) { server in
            for user in users {
                let caller = Caller(server: server.endpoint, webAuthToken: user.webAuthToken, userRecordName: user.userRecordName)
                let names = try await caller.allZoneChanges(ZoneID.defaultZoneName).records.compactMap(\.recordName)
                #expect(names.sorted() == (0..<25).map { "r\($0)" }.sorted())
            }
        }
    }

    /// A write that fails its own checks inside a shared group commit fails alone: its
    /// neighbours commit, and nothing of it is written.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func aFailingWriteNeverFailsItsGroup() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("taken")])
            // A write of the test's own holds the writer until the eight saves wait for it, so
            // they commit as one group (left to timing, a loaded machine let them arrive one by
            // one). Eight: the test client's connections to one server (AsyncHTTPClient's default).
            let storage = try #require(server.server.services.storage as? SQLiteStorage)
            let (held, heldSignal) = AsyncStream.makeStream(of: Void.self)
            let deadline = ContinuousClock.now + .seconds(60)
            let holder = Task {
                try await storage.write { _ in
                    heldSignal.yield()
                    heldSignal.finish()
                    while storage.queuedWrites < 8 && ContinuousClock.now < deadline { usleep(10_000) }
                }
            }
            for await _ in held {}
            let before = storage.commitStatistics
            let outcomes = try await withThrowingTaskGroup(of: (Int, ServerErrorCode?).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        // Every fourth save clashes with an existing record.
                        let name = index % 4 == 0 ? "taken" : "fresh-\(index)"
                        let result = try await alice.modify([.create(name)])
                        return (index, result.first?.error?.serverErrorCode)
                    }
                }
                var outcomes: [Int: ServerErrorCode?] = [:]
                for try await (index, code) in group { outcomes[index] = code }
                return outcomes
            }
            for (index, code) in outcomes {
                #expect(code == (index % 4 == 0 ? .exists : nil), "save \(index)")
            }
            try await holder.value
            let after = storage.commitStatistics
            // The holder's commit and one for the eight (a third, should a background write have
            // taken a place in the queue).
            #expect(after.writes - before.writes >= 9 && after.transactions - before.transactions <= 3,
                    "the eight saves shared a commit: \(before) then \(after)")
            let names = try await alice.allZoneChanges(ZoneID.defaultZoneName).records.compactMap(\.recordName)
            #expect(names.count == 7, "one 'taken' and 6 fresh records, each once")
        }
    }

    /// A write's answer, made while its transaction commits or after, is dropped when the commit fails:
    /// the caller gets the commit's error, never an answer for a write that is not there. (A
    /// deferred foreign key left dangling fails the commit itself, after the body returned.)
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite"), arguments: [true, false])
    func anAnswerIsGivenOnlyForACommittedWrite(whileCommitting: Bool) async throws {
        try await TestServer.with { server in
            let services = server.server.services
            let bodyReturned = Mutex(false)
            let error = await #expect(throws: DatabaseError.self) {
                _ = try await services.storage.write(publishingTo: services.hub, answering: { (value: Int) in "answer \(value)" }, whileCommitting: whileCommitting) { transaction, _ in
                    let db = try #require(transaction as? SQLiteTransaction).db
                    try db.execute(sql: """
                        CREATE TABLE answered_parents (id INTEGER PRIMARY KEY);
                        CREATE TABLE answered_children (parent INTEGER REFERENCES answered_parents(id) DEFERRABLE INITIALLY DEFERRED);
                        INSERT INTO answered_children VALUES (1);
                        """)
                    bodyReturned.withLock { $0 = true }
                    return 1
                }
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY && bodyReturned.withLock { $0 }, "the commit failed, after the body")
            let tables = try await services.storage.read { transaction in
                try String.fetchAll(try #require(transaction as? SQLiteTransaction).db,
                                    sql: "SELECT name FROM sqlite_master WHERE name LIKE 'answered_%'")
            }
            #expect(tables.isEmpty, "the failed commit left nothing")
            let answer = try await services.storage.write(publishingTo: services.hub, answering: { "answer \($0)" }, whileCommitting: whileCommitting) { _, _ in 2 }
            #expect(answer == "answer 2")
        }
    }

    /// Past `maxQueuedWrites` waiting writes, new ones are shed with THROTTLED and `retryAfter`
    /// instead of queueing without bound; none of the shed ones is written.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "about SQLite")) func aDeepWriteQueueShedsLoad() async throws {
        try await TestServer.with(configure: { $0.maxQueuedWrites = 1 }) { server in
            var users: [Caller] = []
            for index in 0..<4 { users.append(try await server.signUp("u\(index)")) }
            let codes = try await withThrowingTaskGroup(of: (String, HTTPResult).self) { group in
                for (index, user) in users.enumerated() {
                    let user = user
                    for item in 0..<30 {
                        group.addTask {
                            let name = "u\(index)-\(item)"
                            return (name, try await user.post(user.path(.private, "records/modify"),
                                                              RecordsModifyRequest(operations: [.create(name)])))
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let shed = codes.filter { $0.1.status != 200 }
            #expect(shed.allSatisfy { $0.1.status == 429 && $0.1.errorCode == .throttled && $0.1.error?.retryAfter != nil })
            #expect(!shed.isEmpty, "with one write allowed to wait, 120 concurrent saves must shed some")
            let shedNames = Set(shed.map(\.0))
            for user in users {
                let saved = try await user.allZoneChanges(ZoneID.defaultZoneName).records.compactMap(\.recordName)
                #expect(shedNames.isDisjoint(with: saved))
            }
        }
    }
}
