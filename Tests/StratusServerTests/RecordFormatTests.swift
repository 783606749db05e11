import Foundation
import GRDB
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// Record format 2 (``RecordFormatMigration``): a store of format 1 opens, moves across in steps
/// that resume after `SIGKILL`, and serves what it held; on PostgreSQL an older instance is refused.
@Suite struct RecordFormatTests {
    /// A data directory, and a PostgreSQL database (`pg_dump --inserts`), that `f60165d` — the last
    /// build of record format 1 — wrote through its HTTP API (`Tests/Fixtures/make-fixture.py`, the
    /// same on both): user `fixture-alice`, zone `Notes` with `note-1` (saved from device `phone`,
    /// then changed from `laptop`), `note-2` (a DELETE_SELF reference to note-1, from `laptop`), a
    /// deleted `gone`, items `item-000`…`item-299`, a zone subscription, and a public `notice-1`.
    static let fixture = FixtureStore(build: "f60165d")
    /// Notes' change token after the fixture's writes.
    static let tokenOfFormat1 = "MS56LjIuMzA3"

    /// A version's change tag is its sequence in base 36 (`String(_:radix:)`'s digits, written by hand).
    @Test(arguments: [Int64(1), 9, 10, 35, 36, 1_295, 1_296, 60_304, 1_700_000_000_000, Int64.max, 0, -1, Int64.min])
    func aDerivedChangeTagIsTheSequenceInBase36(_ sequence: Int64) {
        #expect(StoredRecord.derivedChangeTag(of: sequence) == String(sequence, radix: 36))
    }

    @Test func aStoreOfFormat1OpensMovedAcrossAndServesWhatItHeld() async throws {
        let directory = try await Self.fixture.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.with(dataDirectory: directory) { server in
            let alice = try await Self.servesTheFixture(server)
            // A device's token from format 1 still holds: nothing new, then the next write.
            let unchanged = try #require(try await alice.zoneChanges("Notes", token: Self.tokenOfFormat1).changes)
            #expect(unchanged.records.isEmpty)
            _ = try await alice.save([.create("note-3")], zone: "Notes")
            let changed = try #require(try await alice.zoneChanges("Notes", token: Self.tokenOfFormat1).changes)
            #expect(changed.records.map(\.recordName) == ["note-3"])
            #expect(changed.records.first?.created?.userRecordName == alice.userRecordName)
            let everything = try await alice.allZoneChanges("Notes")
            #expect(Set(everything.records.filter { $0.deleted != true }.map(\.recordName)).isSuperset(of: ["note-1", "note-2", "note-3", "item-299"]))
            #expect(everything.records.count == 303, "note-1, note-2, note-3 and 300 items (a sync from the start leaves deletions out)")
        }
    }

    /// A backup (`stratus backup`) and a container archive (`stratus export`, without secrets) that
    /// 0.2.0 (`f60165d`) made of the fixture restore and import into this version.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "stratus backup copies SQLite stores"))
    func aBackupAndAnArchiveOf020RestoreAndImport() async throws {
        for (command, source) in [("restore", "backup-0.2.0"), ("import", "archive-0.2.0")] {
            let target = TestServer.temporaryDirectory().appendingPathComponent("new")
            defer { try? FileManager.default.removeItem(at: target.deletingLastPathComponent()) }
            let run = try await ServerProcess.run([command, "--from", FixtureStore.folder.appendingPathComponent(source).path, "--data", target.path])
            #expect(run.status == 0, "\(command): \(run.output)")
            if command == "import" {
                // The archive holds no password hashes: the user signs in after a reset.
                _ = try await AdministrationTests.stratus(["user", "reset-password", "fixture-alice", "--password-file",
                                                           AdministrationTests.passwordFile("fixture password")], target)
            }
            try await TestServer.with(dataDirectory: target) { server in _ = try await Self.servesTheFixture(server) }
        }
    }

    /// Signs in as the fixture's user and checks what the fixture holds is served as it was written.
    static func servesTheFixture(_ server: TestServer) async throws -> Caller {
        let signIn = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signin",
                                                     Credentials(username: "fixture-alice", password: "fixture password"))
            .decode(SignInResponse.self)
        let alice = Caller(server: server.endpoint, webAuthToken: signIn.ckWebAuthToken, userRecordName: signIn.userRecordName,
                           username: "fixture-alice")
        let found = try await alice.lookup(["note-1", "note-2", "gone", "item-150"], zone: "Notes")
        let note = try #require(found[0].record)
        #expect(note.recordChangeTag == "5", "format 1's change tag stays the record's")
        #expect(note.created?.userRecordName == signIn.userRecordName)
        #expect(note.created?.deviceID == "phone")
        #expect(note.modified?.userRecordName == signIn.userRecordName)
        #expect(note.modified?.deviceID == "laptop")
        #expect(note.fields["title"] == .string("Written in record format 1"))
        #expect(note.fields["count"] == .int64(43))
        #expect(note.fields["tags"] == .list(.string, [.string("a"), .string("b")]))
        let second = try #require(found[1].record)
        #expect(second.created?.deviceID == "laptop")
        #expect(second.fields["about"]??.references.first?.recordName == "note-1")
        #expect(found[2].error?.serverErrorCode == .notFound)
        #expect(try #require(found[3].record).fields["n"] == .int64(150))
        let lookup = try await alice.post(alice.path(.private, "records/lookup"), json: #"{"zoneID":{"zoneName":"Notes"},"records":[{"recordName":"note-1"}]}"#)
        let file = try await alice.download(try #require(AuthorizationMatrixTests.downloadURLs(in: lookup).first))
        #expect(String(decoding: file.body, as: UTF8.self) == "fixture asset bytes written by the f60165d build")
        let notice = try #require(try await alice.lookup(["notice-1"], database: .public).first?.record)
        #expect(notice.created?.userRecordName == signIn.userRecordName)
        return alice
    }

    /// The move runs in steps, each a transaction that moves the mark: a server killed with
    /// `SIGKILL` in the middle of it (the crash loop's harness, ``ServerProcess``) starts again
    /// where it stopped, and every row crosses once, its actors named.
    @Test(.enabled(if: !TestServer.runsOnPostgres, "SQLite's file is read behind the server's back"))
    func theMoveResumesAfterSIGKILL() async throws {
        let directory = try await Self.fixture.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stratus.sqlite").path
        let added = 60_000
        let file = try DatabaseQueue(path: path)
        let owner = try await file.write { db in
            let row = try Row.fetchOne(db, sql: "SELECT zone_id, created_by FROM records WHERE record_name = 'note-1'")!
            let (zone, owner): (Int64, String) = (row[0], row[1])
            let insert = try db.makeStatement(sql: """
                INSERT INTO records (zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
                                     modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key)
                VALUES (?, ?, 'Item', ?, ?, 1, ?, ?, 2, ?, ?, NULL, NULL, ?, 0, NULL)
                """)
            for index in 0..<added {
                let sequence = 1_000 + Int64(index)
                try insert.execute(arguments: [zone, "bulk-\(index)", String(sequence, radix: 36), Data(#"{"n":{"value":\#(index),"type":"INT64"}}"#.utf8),
                                               owner, "device-\(index % 7)", owner, "device-\((index + 1) % 7)", sequence])
            }
            try db.execute(sql: "UPDATE change_sequence SET value = ?", arguments: [1_000 + added])
            return owner
        }
        try file.close()

        let server = ServerProcess(executable: ServerProcess.siblingExecutable, dataDirectory: directory)
        let child = try ChildProcess(ServerProcess.siblingExecutable.path, ["serve", "--data", directory.path, "--port", "0", "--log-level", "error"])
        // Killed once a step has committed and before the last one.
        var interrupted = false
        let reader = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        for _ in 0..<20_000 {
            let mark = try? await reader.read { db in try Int64.fetchOne(db, sql: "SELECT zone_id FROM record_format_migration") }
            if mark != nil {
                _ = child.end(with: SIGKILL)
                interrupted = true
                break
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        _ = child.end(with: SIGKILL)
        let (crossed, left) = try await reader.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_rows") ?? 0, try db.tableExists("records_format_1"))
        }
        try reader.close()
        #expect(interrupted, "the move was seen under way")
        #expect(left && crossed > 0 && crossed < added + 304, "killed in the middle: \(crossed) rows across")

        try await server.start()
        let (rows, unnamed, wrongDevices, oldLeft) = try await DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record_rows") ?? 0,
             try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM record_rows r LEFT JOIN record_actors c ON c.id = r.created_by
                LEFT JOIN record_actors m ON m.id = r.modified_by WHERE c.id IS NULL OR m.id IS NULL
                """) ?? -1,
             try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM record_rows r JOIN record_actors c ON c.id = r.created_by JOIN record_actors m ON m.id = r.modified_by
                WHERE r.record_name LIKE 'bulk-%' AND (c.user_record_name != ? OR m.user_record_name != ?
                    OR c.device_id != 'device-' || (CAST(substr(r.record_name, 6) AS INTEGER) % 7)
                    OR m.device_id != 'device-' || ((CAST(substr(r.record_name, 6) AS INTEGER) + 1) % 7))
                """, arguments: [owner, owner]) ?? -1,
             try db.tableExists("records_format_1"))
        }
        _ = await server.stop()
        #expect(rows == added + 304, "every row crossed once")
        #expect(unnamed == 0 && wrongDevices == 0, "each row keeps its creator and modifier")
        #expect(!oldLeft)
    }

    /// On PostgreSQL the formats never share a database: once it is in format 2, every statement an
    /// older instance makes on `records` is refused, saying why.
    @Test(.enabled(if: TestServer.runsOnPostgres, "instances share a database only on PostgreSQL"))
    func anOlderInstanceIsRefusedWithTheReason() async throws {
        let directory = try await Self.fixture.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.with(dataDirectory: directory) { _ in }
        let base = try #require(TestServer.postgresURL)
        // What f60165d sends: a read of names, then a write of a row.
        for statement in [
            "SELECT zone_id, record_name, created_by, created_device FROM records WHERE zone_id = 2 AND record_name IN ('note-1')",
            """
            INSERT INTO records (zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device, modified_at,
            modified_by, modified_device, parent, share, sequence, deleted, create_key)
            VALUES (2, 'x', 'T', '1', '\\x7b7d', 0, 'u', 'd', 0, 'u', 'd', NULL, NULL, 1, false, NULL)
            """,
        ] {
            let refusal = await #expect(throws: ChildProcessError.self) { try await TestDatabase.execute(statement, for: directory, base: base) }
            #expect(refusal?.description.contains("records in Stratus record format 2") == true, "\(String(describing: refusal))")
        }
    }
}
