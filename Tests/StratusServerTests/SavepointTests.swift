import Testing
import StratusCore
@testable import StratusServer

/// A savepoint undoes exactly the writes made inside it, on both backends. On PostgreSQL saves
/// are held back and a savepoint is sent only once a statement must run inside it, so each way
/// a savepoint can end is tried: undone before anything reached the server, undone after a
/// statement ran inside it, and nested.
@Suite struct SavepointTests {
    struct Undo: Error {}

    @Test func aSavepointUndoesOnlyItsOwnSaves() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            _ = try await alice.save([.create("seed")], zone: "Z")
            let storage = server.server.services.storage
            let key = DatabaseKey(containerID: TestServer.containerID, environment: .development, scope: .private,
                                  ownerRecordName: try #require(alice.userRecordName))
            let seed = try await storage.read { transaction in
                let databaseID = try #require(try await transaction.databaseID(key, create: false))
                let zone = try #require(try await transaction.liveZone(databaseID: databaseID, zoneName: "Z"))
                return try #require(try await transaction.record(zoneRowID: zone.rowID, recordName: "seed"))
            }
            @Sendable func named(_ name: String) -> StoredRecord {
                var record = seed
                record.recordName = name
                return record
            }
            try await storage.write { transaction in
                func save(_ name: String) async throws {
                    try await transaction.saveRecord(named(name), references: [], replacingReferences: false)
                }
                try await save("kept-1")
                _ = try? await transaction.withSavepoint {
                    try await save("undone-1")
                    throw Undo()
                }
                _ = try? await transaction.withSavepoint {
                    try await save("undone-2")
                    _ = try await transaction.record(zoneRowID: seed.zoneRowID, recordName: "kept-1")
                    try await save("undone-3")
                    throw Undo()
                }
                try await transaction.withSavepoint {
                    try await save("kept-2")
                    _ = try? await transaction.withSavepoint {
                        try await save("undone-4")
                        throw Undo()
                    }
                    _ = try? await transaction.withSavepoint {
                        _ = try await transaction.record(zoneRowID: seed.zoneRowID, recordName: "kept-1")
                        try await save("undone-5")
                        throw Undo()
                    }
                    try await save("kept-3")
                }
                try await save("kept-4")
            }
            let names = ["seed"] + (1...4).map { "kept-\($0)" } + (1...5).map { "undone-\($0)" }
            let stored = try await storage.read { try await $0.records(zoneRowID: seed.zoneRowID, recordNames: names) }
            #expect(stored.map(\.recordName).sorted() == ["kept-1", "kept-2", "kept-3", "kept-4", "seed"])
        }
    }
}
