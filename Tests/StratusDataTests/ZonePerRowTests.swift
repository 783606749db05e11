import Foundation
import GRDB
import Testing
import StratusClient
import StratusData
import StratusSync
import StratusTesting

/// A table whose rows each live in a zone named by a column, and a table of their children, which
/// live in their parent's zone.
@Suite struct ZonePerRowTests {
    struct Folder: Codable, Equatable, FetchableRecord, PersistableRecord {
        var id: String
        var zone: String
        var title: String
        /// Local only.
        var pinned = false
    }

    struct Page: Codable, Equatable, FetchableRecord, PersistableRecord {
        var id: String
        var folderID: String
        var body: String
    }

    static let tables = [
        SyncedTable(Folder.self, zone: .column(Column("zone")), localColumns: [Column("pinned")]),
        SyncedTable(Page.self, zone: .parent, references: [.init(Column("folderID"), to: Folder.self, onDelete: .cascade, isParent: true)]),
    ]

    static func device(_ cloud: TestCloud, user: String, name: String, sharing: Bool = false) async throws -> (DatabaseQueue, SyncedDatabase) {
        let directory = cloud.root.appendingPathComponent("zone-devices/\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE folder (id TEXT PRIMARY KEY NOT NULL, zone TEXT NOT NULL, title TEXT NOT NULL, pinned INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE page (id TEXT PRIMARY KEY NOT NULL, folderID TEXT NOT NULL, body TEXT NOT NULL);
                """)
        }
        let container = await cloud.container(deviceID: name)
        try await container.signIn(username: user, password: "password-\(user)")
        let store = try SyncedDatabase(writer: queue, tables: tables, database: container.privateCloudDatabase,
                                       sharedDatabase: sharing ? container.sharedCloudDatabase : nil)
        return (queue, store)
    }

    @Test func eachRowAndItsChildrenSyncInTheRowsZone() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let (phone, phoneStore) = try await Self.device(cloud, user: user, name: "phone")
            try await phone.write { db in
                try Folder(id: "f1", zone: "Work", title: "Plans").insert(db)
                try Folder(id: "f2", zone: "Home", title: "Recipes").insert(db)
                try Page(id: "p1", folderID: "f1", body: "Q3").insert(db)
                try Page(id: "p2", folderID: "f2", body: "Soup").insert(db)
            }
            try await phoneStore.syncNow()   // the zones do not exist yet: the engine creates them

            // On the server, each folder and its pages are in the folder's zone.
            let web = await cloud.container(deviceID: "web")
            try await web.signIn(username: user, password: "password-\(user)")
            for (name, zone) in [("f1", "Work"), ("p1", "Work"), ("f2", "Home"), ("p2", "Home")] {
                let record = try await web.privateCloudDatabase.record(for: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone)))
                #expect(record["zone"] == nil)   // the zone column is the record's zone, not a field
            }

            // Another device gets them, the zone column set from the record's zone.
            let (laptop, laptopStore) = try await Self.device(cloud, user: user, name: "laptop")
            try await laptopStore.syncNow()
            #expect(try await laptop.read { try Folder.order(Column("id")).fetchAll($0) }
                        == [Folder(id: "f1", zone: "Work", title: "Plans"), Folder(id: "f2", zone: "Home", title: "Recipes")])
            #expect(try await laptop.read { try Page.fetchOne($0, key: "p2") } == Page(id: "p2", folderID: "f2", body: "Soup"))
            #expect(try await laptopStore.zone(of: Page.self, id: "p1") == ZoneID(zoneName: "Work"))

            // A local column changes without a send.
            try await phone.write { db in try db.execute(sql: "UPDATE folder SET pinned = 1 WHERE id = 'f1'") }
            #expect(try await phoneStore.hasUnsentChanges() == false)

            // Deleting a folder deletes its pages, in their zone, everywhere.
            try await phone.write { db in _ = try Folder.deleteOne(db, key: "f1") }
            try await phoneStore.syncNow()
            try await laptopStore.syncNow()
            #expect(try await laptop.read { try Page.fetchAll($0).map(\.id) } == ["p2"])
            #expect(try await laptop.read { try Folder.fetchAll($0).map(\.id) } == ["f2"])
        }
    }

    @Test func aChildWithoutItsParentHasNoZoneAndIsRefused() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let (phone, store) = try await Self.device(cloud, user: user, name: "phone")
            let refused = try await #require(throws: DatabaseError.self) {
                try await phone.write { db in try Page(id: "p1", folderID: "nowhere", body: "lost").insert(db) }
            }
            #expect(refused.message?.contains("has no zone") == true)
            #expect(try await phone.read { try Page.fetchCount($0) } == 0)
            #expect(try await store.hasUnsentChanges() == false)
        }
    }

    @Test func aSharedZoneBringsItsRowsAndTakesTheParticipantsNewChildren() async throws {
        try await TestCloud.with { cloud in
            let (aliceName, bobName, carolName) = (try await cloud.createUser("alice"), try await cloud.createUser("bob"), try await cloud.createUser("carol"))
            let (alice, aliceStore) = try await Self.device(cloud, user: aliceName, name: "alice", sharing: true)
            let (bob, bobStore) = try await Self.device(cloud, user: bobName, name: "bob", sharing: true)
            let (carol, carolStore) = try await Self.device(cloud, user: carolName, name: "carol", sharing: true)
            try await alice.write { db in
                try Folder(id: "f1", zone: "Work", title: "Plans").insert(db)
                try Folder(id: "f2", zone: "Home", title: "Recipes").insert(db)
                try Page(id: "p1", folderID: "f1", body: "Q3").insert(db)
            }
            try await aliceStore.syncNow()
            let share = try await aliceStore.shareZone(try await aliceStore.zone(of: Folder.self, id: "f1"), with: [(bobName, .readWrite), (carolName, .readOnly)])
            for store in [bobStore, carolStore] {
                try await store.sharedEngine!.configuration.database.acceptShare(try #require(share.shareKeys?.shareURL))
                try await store.syncNow()
            }
            #expect(try await bob.read { try Folder.fetchAll($0).map(\.id) } == ["f1"])
            #expect(try await bob.read { try Page.fetchAll($0).map(\.id) } == ["p1"])

            // Bob's new page goes to its folder's zone, in Alice's database.
            try await bob.write { db in try Page(id: "p2", folderID: "f1", body: "from Bob").insert(db) }
            let aliceID = try #require(try await bobStore.zone(of: Folder.self, id: "f1").ownerRecordName)
            #expect(try await bobStore.zone(of: Page.self, id: "p2") == ZoneID(zoneName: "Work", ownerRecordName: aliceID))
            try await bobStore.syncNow()
            try await aliceStore.syncNow()
            #expect(try await alice.read { try Page.fetchOne($0, key: "p2") }?.body == "from Bob")

            // Carol may not change the folder, but her local column is hers.
            await #expect(throws: DatabaseError.self) {
                try await carol.write { db in try db.execute(sql: "UPDATE folder SET title = 'Carol was here' WHERE id = 'f1'") }
            }
            try await carol.write { db in try db.execute(sql: "UPDATE folder SET pinned = 1 WHERE id = 'f1'") }
            #expect(try await carol.read { try Folder.fetchOne($0, key: "f1") }?.pinned == true)
            #expect(try await carolStore.hasUnsentChanges() == false)
        }
    }
}
