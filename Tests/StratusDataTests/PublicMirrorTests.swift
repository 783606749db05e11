import Foundation
import GRDB
import Testing
import StratusClient
import StratusData
import StratusTesting

struct Recipe: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var title: String
    var favourite = false

    enum Columns {
        static let title = Column(CodingKeys.title)
        static let favourite = Column(CodingKeys.favourite)
    }
}

/// A synced table mirroring a public record type read-only, through the public database's change
/// feed (issue 66): what others publish arrives, the app cannot change it, its local columns stay its own.
@Suite struct PublicMirrorTests {
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Recipe (title STRING, GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator");
            RECORD TYPE Unpublished (title STRING, GRANT CREATE TO "_icloud", GRANT READ, WRITE TO "_creator");
        """

    @Test func aTableMirrorsAPublicTypeReadOnly() async throws {
        try await TestCloud.with { cloud in
            try await cloud.importSchema(Self.schema)
            let editor = await cloud.container(deviceID: "editor")
            let alice = try await cloud.createUser("alice"), bob = try await cloud.createUser("bob")
            try await editor.signIn(username: alice, password: "password-\(alice)")
            let catalogue = editor.publicCloudDatabase
            for (name, title) in [("soup", "Soup"), ("bread", "Bread")] {
                _ = try await catalogue.save(CloudRecord(recordType: "Recipe", recordID: RecordID(recordName: name), fields: ["title": .string(title)]))
            }
            _ = try await catalogue.save(CloudRecord(recordType: "Unpublished", recordID: RecordID(recordName: "draft"), fields: ["title": .string("Draft")]))

            let directory = cloud.root.appendingPathComponent("mirror")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE recipe (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, favourite INTEGER NOT NULL DEFAULT 0)")
            }
            let container = await cloud.container(deviceID: "bob-phone")
            try await container.signIn(username: bob, password: "password-\(bob)")
            let table = SyncedTable(Recipe.self, recordType: "Recipe", zone: .defaultZone, localColumns: [Recipe.Columns.favourite], readOnly: true)
            let store = try SyncedDatabase(writer: queue, tables: [table], database: container.publicCloudDatabase)
            try await store.syncNow()
            #expect(try await queue.read { try Recipe.order(Column("id")).fetchAll($0) } == [Recipe(id: "bread", title: "Bread"), Recipe(id: "soup", title: "Soup")])

            // The app may not change what it mirrors, only its own columns.
            await #expect(throws: DatabaseError.self) { try await queue.write { try Recipe(id: "cake", title: "Cake").insert($0) } }
            await #expect(throws: DatabaseError.self) { try await queue.write { try $0.execute(sql: "UPDATE recipe SET title = 'Mine' WHERE id = 'soup'") } }
            await #expect(throws: DatabaseError.self) { try await queue.write { _ = try Recipe.deleteOne($0, key: "bread") } }
            try await queue.write { try $0.execute(sql: "UPDATE recipe SET favourite = 1 WHERE id = 'soup'") }
            #expect(try await store.engine.snapshot().pendingRecordChanges.isEmpty)

            // What the editor changes and deletes arrives; the local column stays.
            var soup = try await catalogue.record(for: RecordID(recordName: "soup"))
            soup["title"] = .string("Soup, better")
            _ = try await catalogue.save(soup)
            try await catalogue.deleteRecord(withID: RecordID(recordName: "bread"))
            try await store.syncNow()
            #expect(try await queue.read { try Recipe.fetchAll($0) } == [Recipe(id: "soup", title: "Soup, better", favourite: true)])
        }
    }
}
