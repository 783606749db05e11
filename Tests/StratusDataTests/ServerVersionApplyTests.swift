import Foundation
import GRDB
import Testing
import StratusClient
import StratusData
import StratusSync
import StratusTesting

/// A row of every kind of column a synced table maps, each NOT NULL.
struct Specimen: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var title: String
    var count: Int64
    var weight: Double
    var raw: Data
    var takenAt: Int64
    var photo: Data
    var ownerID: String
    var tagIDs: [String]

    enum Columns {
        static let takenAt = Column(CodingKeys.takenAt)
        static let photo = Column(CodingKeys.photo)
        static let ownerID = Column(CodingKeys.ownerID)
        static let tagIDs = Column(CodingKeys.tagIDs)
    }

    static func edited(_ text: String, at time: Int64) -> Specimen {
        Specimen(id: "s1", title: "title \(text)", count: time % 1000, weight: Double(time) / 7, raw: Data("raw \(text)".utf8),
                 takenAt: time, photo: Data("photo \(text)".utf8), ownerID: "owner-\(text)", tagIDs: ["tag-\(text)", "tag-2"])
    }
}

struct SpecimenOwner: Codable, FetchableRecord, PersistableRecord {
    var id: String
}

struct SpecimenTag: Codable, FetchableRecord, PersistableRecord {
    var id: String
}

/// Records from the server are applied with every column they map to, whatever path brings them:
/// here a send's conflict whose server version wins, on a table whose columns are all NOT NULL.
@Suite struct ServerVersionApplyTests {
    static let tables = [
        SyncedTable(Specimen.self, recordType: "Specimen", assetColumns: [Specimen.Columns.photo], timestampColumns: [Specimen.Columns.takenAt],
                    references: [.init(Specimen.Columns.ownerID, to: SpecimenOwner.self)],
                    referenceLists: [.init(Specimen.Columns.tagIDs, to: SpecimenTag.self)]),
    ]

    /// A device of `user`; with `appVersion` "2", the app's update lets every column but the key be NULL.
    static func device(_ cloud: TestCloud, user: String, name: String, appVersion: String = "1") async throws
        -> (DatabaseQueue, SyncedDatabase, FaultInjectingTransport) {
        let directory = cloud.root.appendingPathComponent("specimen-devices/\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS specimenOwner (id TEXT PRIMARY KEY NOT NULL);
                CREATE TABLE IF NOT EXISTS specimenTag (id TEXT PRIMARY KEY NOT NULL);
                CREATE TABLE IF NOT EXISTS specimen (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, count INTEGER NOT NULL, weight REAL NOT NULL,
                    raw BLOB NOT NULL, takenAt INTEGER NOT NULL, photo BLOB NOT NULL, ownerID TEXT NOT NULL, tagIDs TEXT NOT NULL);
                """)
            if appVersion == "2" {
                try db.execute(sql: """
                    ALTER TABLE specimen RENAME TO specimen_v1;
                    CREATE TABLE specimen (id TEXT PRIMARY KEY NOT NULL, title TEXT, count INTEGER, weight REAL,
                        raw BLOB, takenAt INTEGER, photo BLOB, ownerID TEXT, tagIDs TEXT);
                    INSERT INTO specimen SELECT * FROM specimen_v1;
                    DROP TABLE specimen_v1;
                    """)
            }
        }
        let transport = FaultInjectingTransport()
        let container = await cloud.container(deviceID: name, transport: transport,
                                              assetCacheDirectory: directory.appendingPathComponent("assets"))
        try await container.signIn(username: user, password: "password-\(user)")
        let store = try SyncedDatabase(writer: queue, tables: tables, database: container.privateCloudDatabase) { configuration in
            configuration.conflictResolver = .latestModified(field: "takenAt")
            configuration.appVersion = appVersion
        }
        return (queue, store, transport)
    }

    /// Both devices edit offline; the older edit syncs last and loses: its device takes the
    /// server's version whole (the asset included), sends nothing more, and fails no sync.
    @Test func aConflictTheServerWinsIsAppliedWithEveryColumn() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("specimens")
            let (phoneDB, phone, phoneNet) = try await Self.device(cloud, user: user, name: "phone")
            let (laptopDB, laptop, laptopNet) = try await Self.device(cloud, user: user, name: "laptop")
            try await phoneDB.write { db in try Specimen.edited("first", at: 1_000).insert(db) }
            try await phone.syncNow()
            try await laptop.syncNow()
            #expect(try await laptopDB.read { try Specimen.fetchOne($0, key: "s1") } == Specimen.edited("first", at: 1_000))

            phoneNet.setOffline(true)
            laptopNet.setOffline(true)
            try await laptopDB.write { db in try Specimen.edited("older", at: 2_000).update(db) }
            try await phoneDB.write { db in try Specimen.edited("newer", at: 3_000).update(db) }
            phoneNet.setOffline(false)
            laptopNet.setOffline(false)
            try await phone.syncNow()
            try await laptop.syncNow()   // conflicts, loses, applies the phone's version
            try await laptop.syncNow()
            try await phone.syncNow()
            for queue in [phoneDB, laptopDB] {
                #expect(try await queue.read { try Specimen.fetchOne($0, key: "s1") } == Specimen.edited("newer", at: 3_000))
            }
            #expect(try await laptop.hasUnsentChanges() == false)
            #expect(try await phone.hasUnsentChanges() == false)
        }
    }

    /// A server version the app's table refuses (a NOT NULL column its record leaves out) is set
    /// aside with its reason; the rest of the page is applied, and the device's syncs go on
    /// without failing.
    @Test func aServerVersionTheTableRefusesIsSetAsideAndTheRestApply() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("specimens")
            let (phoneDB, phone, _) = try await Self.device(cloud, user: user, name: "phone")
            try await phoneDB.write { db in try Specimen.edited("good", at: 1_000).insert(db) }
            try await phone.syncNow()
            // Another client saves a record of the type without most of its fields.
            let web = await cloud.container(deviceID: "web")
            try await web.signIn(username: user, password: "password-\(user)")
            let bad = RecordID(recordName: "s2", zoneID: ZoneID(zoneName: "StratusData"))
            _ = try await web.privateCloudDatabase.save(CloudRecord(recordType: "Specimen", recordID: bad, fields: ["count": .int64(3)]))

            let (laptopDB, laptop, _) = try await Self.device(cloud, user: user, name: "laptop")
            try await laptop.syncNow()
            try await laptop.syncNow()
            #expect(try await laptopDB.read { try Specimen.fetchOne($0, key: "s1") } == Specimen.edited("good", at: 1_000))
            #expect(try await laptopDB.read { try Specimen.fetchOne($0, key: "s2") } == nil)
            let setAside = try await laptop.engine.snapshot().setAsideChanges
            #expect(setAside.map(\.change.recordID) == [bad])
            #expect(setAside.first?.isServerVersion == true)
            #expect(setAside.first?.reason.contains("NOT NULL constraint failed: specimen.") == true)
            #expect(try await laptop.hasUnsentChanges() == false)

            // The app's update accepts such records: the set-aside version is retried, once, and applied.
            await laptop.engine.stop()
            let (updatedDB, updated, _) = try await Self.device(cloud, user: user, name: "laptop", appVersion: "2")
            try await updated.syncNow()
            #expect(try await updatedDB.read { try Int64.fetchOne($0, sql: "SELECT count FROM specimen WHERE id = 's2'") } == 3)
            #expect(try await updated.engine.snapshot().setAsideChanges.isEmpty)
            #expect(try await updatedDB.read { try Specimen.fetchOne($0, key: "s1") } == Specimen.edited("good", at: 1_000))
        }
    }

    /// A phone holding `s1`, whose server version another client (`web`) then empties of its
    /// title: the phone's table cannot take it, sets it aside, and keeps its row.
    static func phoneWithARefusedServerVersion(_ cloud: TestCloud) async throws -> (DatabaseQueue, SyncedDatabase, Container, RecordID) {
        let user = try await cloud.createUser("specimens")
        let (phoneDB, phone, _) = try await device(cloud, user: user, name: "phone")
        try await phoneDB.write { db in try Specimen.edited("good", at: 1_000).insert(db) }
        try await phone.syncNow()
        let web = await cloud.container(deviceID: "web")
        try await web.signIn(username: user, password: "password-\(user)")
        let id = RecordID(recordName: "s1", zoneID: ZoneID(zoneName: "StratusData"))
        var broken = try await web.privateCloudDatabase.record(for: id)
        broken["title"] = nil
        _ = try await web.privateCloudDatabase.save(broken)
        try await phone.syncNow()
        #expect(try await phone.engine.snapshot().setAsideChanges.map(\.isServerVersion) == [true])
        #expect(try await phoneDB.read { try Specimen.fetchOne($0, key: "s1") } == Specimen.edited("good", at: 1_000))
        return (phoneDB, phone, web, id)
    }

    /// The resolutions of a set-aside server version: keeping the server's version applies what
    /// the server has now (here a version the table takes), and the entry goes.
    @Test func keepingTheServerVersionAppliesWhatTheServerHasNow() async throws {
        try await TestCloud.with { cloud in
            let (phoneDB, phone, web, id) = try await Self.phoneWithARefusedServerVersion(cloud)
            // The other client puts a title back; the phone keeps the server's version.
            var mended = try await web.privateCloudDatabase.record(for: id)
            mended["title"] = .string("mended")
            _ = try await web.privateCloudDatabase.save(mended)
            try await phone.engine.resolveSetAside(id, .keepServerVersion)
            #expect(try await phone.engine.snapshot().setAsideChanges.isEmpty)
            #expect(try await phoneDB.read { try Specimen.fetchOne($0, key: "s1") }?.title == "mended")
            try await phone.syncNow()
            #expect(try await phone.hasUnsentChanges() == false)
        }
    }

    /// Keeping this device's version sends the local row again over the server's version the
    /// table refused: the server ends with the device's values, and nothing stays set aside.
    @Test func keepingTheLocalVersionSendsItOverTheServers() async throws {
        try await TestCloud.with { cloud in
            let (_, phone, web, id) = try await Self.phoneWithARefusedServerVersion(cloud)
            try await phone.engine.resolveSetAside(id, .keepLocalVersion)
            try await phone.syncNow()
            #expect(try await phone.engine.snapshot().setAsideChanges.isEmpty)
            #expect(try await phone.hasUnsentChanges() == false)
            #expect(try await web.privateCloudDatabase.record(for: id)["title"] == .string("title good"))
        }
    }
}
