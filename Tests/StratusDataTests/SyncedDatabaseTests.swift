import Foundation
import GRDB
import Testing
import StratusClient
import StratusData
import StratusSync
import StratusTesting

struct Person: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var addressID: String?
    var courseIDs: [String] = []

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let addressID = Column(CodingKeys.addressID)
        static let courseIDs = Column(CodingKeys.courseIDs)
    }
}

struct Address: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var street: String
    var personID: String?

    enum Columns {
        static let personID = Column(CodingKeys.personID)
    }
}

struct Course: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: String
    var title: String
}

/// One device: its own SQLite file with the app's tables, synced through a container.
struct DataDevice {
    static let tables = [
        SyncedTable(Person.self, recordType: "Person", fieldNames: [Person.Columns.name: "fullName"],
                    references: [.init(Person.Columns.addressID, to: Address.self)],
                    referenceLists: [.init(Person.Columns.courseIDs, to: Course.self)]),
        SyncedTable(Address.self, recordType: "Address",
                    references: [.init(Address.Columns.personID, to: Person.self, onDelete: .cascade,
                                       placeholder: Person(id: "", name: "(someone)"), isParent: true)]),
        SyncedTable(Course.self, recordType: "Course"),
    ]

    let queue: DatabaseQueue
    let store: SyncedDatabase

    static func open(_ cloud: TestCloud, user: String, name: String, newerCourse: Bool = false) async throws -> DataDevice {
        let directory = cloud.root.appendingPathComponent("data-devices/\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS person (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, addressID TEXT, courseIDs TEXT NOT NULL DEFAULT '[]');
                CREATE TABLE IF NOT EXISTS address (id TEXT PRIMARY KEY NOT NULL, street TEXT NOT NULL, personID TEXT);
                CREATE TABLE IF NOT EXISTS course (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL\(newerCourse ? ", level INTEGER" : ""));
                """)
        }
        let container = await cloud.container(deviceID: name)
        try await container.signIn(username: user, password: "password-\(user)")
        let store = try SyncedDatabase(writer: queue, tables: tables, database: container.privateCloudDatabase)
        return DataDevice(queue: queue, store: store)
    }
}

@Suite struct SyncedDatabaseTests {
    /// Without a shared database, a table's rows are the records of its zone: a record of its type
    /// in another zone of the private database stays out of the table.
    @Test func aRecordOfTheTableTypeInAnotherZoneStaysOut() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let web = await cloud.container(deviceID: "web")
            try await web.signIn(username: user, password: "password-\(user)")
            let (home, elsewhere) = (ZoneID(zoneName: "StratusData"), ZoneID(zoneName: "Elsewhere"))
            for zone in [home, elsewhere] { try await web.privateCloudDatabase.save(zone: zone) }
            for (name, zone) in [("at-home", home), ("elsewhere", elsewhere)] {
                _ = try await web.privateCloudDatabase.save(CloudRecord(recordType: "Person", recordID: RecordID(recordName: name, zoneID: zone),
                                                                        fields: ["fullName": "Ada", "courseIDs": .list(.reference, [])]))
            }
            try await phone.store.syncNow()
            #expect(try await phone.queue.read { try Person.fetchAll($0).map(\.id) } == ["at-home"])
        }
    }

    @Test func peopleAddressesAndCoursesSyncBetweenDevices() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await phone.queue.write { db in
                try Course(id: "c1", title: "Swift").insert(db)
                try Course(id: "c2", title: "SQL").insert(db)
                try Address(id: "a1", street: "1 Main St", personID: "p1").insert(db)
                try Person(id: "p1", name: "Ada", addressID: "a1", courseIDs: ["c1", "c2"]).insert(db)
            }
            try await phone.store.syncNow()

            // The laptop watches its people while it syncs.
            let observation = ValueObservation.tracking { try Person.fetchAll($0) }
            var people = observation.values(in: laptop.queue).makeAsyncIterator()
            #expect(try await people.next() == [])
            try await laptop.store.syncNow()
            var seen = try await people.next()
            while seen?.isEmpty == true { seen = try await people.next() }
            #expect(seen == [Person(id: "p1", name: "Ada", addressID: "a1", courseIDs: ["c1", "c2"])])
            #expect(try await laptop.queue.read { try Address.fetchOne($0, key: "a1") }?.personID == "p1")

            // An edit on the laptop reaches the phone; the field is mapped ("name" → "fullName").
            try await laptop.queue.write { db in try db.execute(sql: "UPDATE person SET name = 'Ada Lovelace' WHERE id = 'p1'") }
            try await laptop.store.syncNow()
            try await phone.store.syncNow()
            #expect(try await phone.queue.read { try Person.fetchOne($0, key: "p1") }?.name == "Ada Lovelace")
            let server = try await phone.store.engine.configuration.database.record(for: RecordID(recordName: "p1", zoneID: ZoneID(zoneName: "StratusData")))
            #expect(server.string("fullName") == "Ada Lovelace" && server["courseIDs"]?.references.count == 2)

            // Deleting the person deletes the address with it (cascade), on the other device too.
            try await phone.queue.write { db in _ = try Person.deleteOne(db, key: "p1") }
            try await phone.store.syncNow()
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Person.fetchCount($0) } == 0)
            #expect(try await laptop.queue.read { try Address.fetchCount($0) } == 0)
            #expect(try await laptop.queue.read { try Course.fetchCount($0) } == 2)
        }
    }

    /// The simulation's seed 1: a person created and deleted before a sync left its address,
    /// whose `DELETE_SELF` had nothing to cascade from on the server.
    @Test func deletingARowLocallyDeletesWhatCascadesFromIt() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            try await phone.queue.write { db in
                try Address(id: "a1", street: "1 Main St", personID: "p1").insert(db)
                try Person(id: "p1", name: "Ada", addressID: "a1", courseIDs: []).insert(db)
                try Address(id: "a2", street: "2 Main St", personID: "p2").insert(db)
                try Person(id: "p2", name: "Grace", addressID: "a2", courseIDs: []).insert(db)
            }
            try await phone.queue.write { db in _ = try Person.deleteOne(db, key: "p1") }
            #expect(try await phone.queue.read { try Address.fetchAll($0).map(\.id) } == ["a2"])
            try await phone.store.syncNow()
            let changes = try await phone.store.engine.configuration.database.recordZoneChanges(inZoneWith: ZoneID(zoneName: "StratusData"), since: nil)
            #expect(Set(changes.modifications.map(\.recordID.recordName)) == ["a2", "p2"])
        }
    }

    /// A row deleted and synced comes back from the server's history, on this device and on
    /// another, as the ordinary change the restore made; a row the device's own cascade deleted
    /// was deleted by itself, and comes back by itself.
    @Test func aDeletedRowIsUndeletedFromTheServersHistory() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await phone.queue.write { db in
                try Address(id: "a1", street: "1 Main St", personID: "p1").insert(db)
                try Person(id: "p1", name: "Ada", addressID: "a1", courseIDs: []).insert(db)
            }
            try await phone.store.syncNow()
            try await laptop.store.syncNow()
            try await laptop.store.undelete(Person.self, id: "p1")   // live: nothing to bring back
            try await phone.queue.write { db in _ = try Person.deleteOne(db, key: "p1") }
            try await phone.store.syncNow()
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Person.fetchCount($0) } == 0)

            try await laptop.store.undelete(Person.self, id: "p1")
            #expect(try await laptop.queue.read { try Person.fetchOne($0, key: "p1")?.name } == "Ada")
            #expect(try await laptop.queue.read { try Address.fetchCount($0) } == 0)
            try await laptop.store.undelete(Address.self, id: "a1")
            #expect(try await laptop.queue.read { try Address.fetchOne($0, key: "a1")?.street } == "1 Main St")
            try await phone.store.syncNow()
            #expect(try await phone.queue.read { try Person.fetchOne($0, key: "p1")?.name } == "Ada")
            #expect(try await phone.queue.read { try Address.fetchOne($0, key: "a1")?.street } == "1 Main St")
            await #expect(throws: CloudError.self) { try await laptop.store.undelete(Person.self, id: "never") }
        }
    }

    @Test func aPlaceholderStandsInForAMissingReference() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await phone.queue.write { db in try Address(id: "a9", street: "9 Elm", personID: "ghost").insert(db) }
            try await phone.store.syncNow()
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Person.fetchOne($0, key: "ghost") }?.name == "(someone)")
            // The stand-in is not sent back as if it were a real person.
            try await laptop.store.syncNow()
            let people = try await laptop.store.engine.configuration.database.recordZoneChanges(inZoneWith: ZoneID(zoneName: "StratusData"), since: nil)
            #expect(!people.modifications.contains { $0.recordID.recordName == "ghost" })
        }
    }

    /// Two devices of one user: the newer one's `course` table has a `level` column the older one
    /// does not know, and both have course `c1` of level 3.
    static func newerAndOlder(_ cloud: TestCloud) async throws -> (newer: DataDevice, older: DataDevice) {
        let user = try await cloud.createUser("alice")
        let newer = try await DataDevice.open(cloud, user: user, name: "newer", newerCourse: true)
        let older = try await DataDevice.open(cloud, user: user, name: "older")
        try await newer.queue.write { db in try db.execute(sql: "INSERT INTO course (id, title, level) VALUES ('c1', 'Swift', 3)") }
        try await newer.store.syncNow()
        try await older.store.syncNow()
        return (newer, older)
    }

    @Test func aFieldAnOldClientDoesNotKnowSurvivesItsEdit() async throws {
        try await TestCloud.with { cloud in
            let (newer, older) = try await Self.newerAndOlder(cloud)
            try await older.queue.write { db in try db.execute(sql: "UPDATE course SET title = 'Swift 6' WHERE id = 'c1'") }
            try await older.store.syncNow()
            try await newer.store.syncNow()
            let row = try await newer.queue.read { try Row.fetchOne($0, sql: "SELECT title, level FROM course WHERE id = 'c1'") }
            #expect(row?["title"] == "Swift 6")
            #expect(row?["level"] == 3)
        }
    }

    /// Fields a device does not know go once the server's record no longer has them: the
    /// device's next edit does not bring them back.
    @Test func aFieldTheServerNoLongerHasIsNotSentBack() async throws {
        try await TestCloud.with { cloud in
            let (newer, older) = try await Self.newerAndOlder(cloud)
            try await newer.queue.write { db in try db.execute(sql: "UPDATE course SET level = NULL WHERE id = 'c1'") }
            try await newer.store.syncNow()
            try await older.store.syncNow()
            try await older.queue.write { db in try db.execute(sql: "UPDATE course SET title = 'Swift 6' WHERE id = 'c1'") }
            try await older.store.syncNow()
            try await newer.store.syncNow()
            let row = try await newer.queue.read { try Row.fetchOne($0, sql: "SELECT title, level FROM course WHERE id = 'c1'") }
            #expect(row?["title"] == "Swift 6")
            #expect(row?["level"] as DatabaseValue? == .null)
        }
    }

    /// A zone deleted on another device takes the rows of the tables it held with it (rows of
    /// the table's one zone, which need no bookkeeping of where they live).
    @Test func aZoneDeletedElsewhereTakesItsRowsWithIt() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await phone.queue.write { db in try Person(id: "p1", name: "Ada", courseIDs: ["c1"]).insert(db) }
            try await phone.queue.write { db in try Course(id: "c1", title: "Swift").insert(db) }
            try await phone.store.syncNow()
            try await laptop.store.syncNow()
            let rows = { try await laptop.queue.read { db in [try Person.fetchCount(db), try Course.fetchCount(db)] } }
            #expect(try await rows() == [1, 1])
            // Rows in their table's zone need no bookkeeping: the rule says where they live.
            #expect(try await laptop.queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM _stratus_rows") } == 0)
            try await phone.store.engine.configuration.database.deleteRecordZone(withID: ZoneID(zoneName: "StratusData"))
            try await laptop.store.syncNow()
            #expect(try await rows() == [0, 0])
            #expect(try await laptop.store.hasUnsentChanges() == false)
        }
    }

    @Test func aChangeCommittedJustBeforeACrashIsStillSent() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            var phone: DataDevice? = try await DataDevice.open(cloud, user: user, name: "phone")
            try await phone!.store.pauseSync()
            try await phone!.queue.write { db in try Course(id: "c7", title: "Committed, then the app died").insert(db) }
            phone = nil   // the app dies: nothing was handed to the engine
            let relaunched = try await DataDevice.open(cloud, user: user, name: "phone")
            try await relaunched.store.syncNow()
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Course.fetchOne($0, key: "c7") }?.title == "Committed, then the app died")
        }
    }

    /// Found by the simulation (seeds 298, 306 and 352, about one run in ten under load), when a
    /// task drained the outbox into a second file: two overlapping drains lost a change. The
    /// engine now folds the outbox inside its own transactions; commits interleaved with those
    /// folds must still all be sent.
    @Test func changesCommittedWhileTheOutboxIsFoldedAreAllSent() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            // Bursts of writes, with pauses, while the engine folds the outbox again and again.
            let folding = Task {
                while !Task.isCancelled { _ = try await phone.store.hasUnsentChanges() }
            }
            for index in 0..<300 {
                try await phone.queue.write { db in try Course(id: "c\(index)", title: "course").insert(db) }
                if index % 3 == 2 { try await Task.sleep(for: .milliseconds(index % 4)) }
            }
            folding.cancel()
            _ = await folding.result
            try await phone.store.syncNow()
            #expect(try await phone.store.hasUnsentChanges() == false)
            var saved = 0
            var token: ServerChangeToken?
            while true {
                let page = try await phone.store.engine.configuration.database.recordZoneChanges(inZoneWith: ZoneID(zoneName: "StratusData"), since: token)
                saved += page.modifications.count
                token = page.changeToken
                if !page.moreComing { break }
            }
            #expect(saved == 300)
        }
    }

    /// Found by the simulation (seed 187): an app killed while a drain pass ran was relaunched;
    /// the new app's pass emptied the outbox, its first changes took the emptied outbox's
    /// sequences again, and the old pass deleted them with the rows it had read.
    @Test func anEmptiedOutboxNeverGivesASequenceAgain() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            func capture(_ id: String) async throws -> Int64? {
                try await phone.queue.write { db in
                    try Course(id: id, title: "course").insert(db)
                    return try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM _stratus_sync_outbox")
                }
            }
            let first = try #require(try await capture("first"))
            try await phone.store.syncNow()
            #expect(try await phone.store.hasUnsentChanges() == false)
            let second = try #require(try await capture("second"))
            #expect(second > first)
        }
    }

    /// Found by the full simulation run (its process reached 20,000 open files): reference cycles
    /// kept every dropped `SyncedDatabase`'s engines, and their SQLite files, alive.
    @Test func theEngineOfASyncedDatabaseLetGoIsFreed() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            weak var released: SyncEngine?
            do {
                let phone = try await DataDevice.open(cloud, user: user, name: "phone")
                try await phone.queue.write { db in try Course(id: "c", title: "course").insert(db) }
                try await phone.store.syncNow()
                released = phone.store.engine
            }
            for _ in 0..<500 where released != nil { try await Task.sleep(for: .milliseconds(10)) }
            #expect(released == nil)
        }
    }

    @Test func concurrentSavesOfOneNewObjectMakeOneRecord() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<10 {
                    group.addTask { try await phone.queue.write { db in try Course(id: "same", title: "phone \(index)").save(db) } }
                }
                group.addTask { try await laptop.queue.write { db in try Course(id: "same", title: "laptop").save(db) } }
                try await group.waitForAll()
            }
            async let phoneSync: Void = phone.store.syncNow()
            async let laptopSync: Void = laptop.store.syncNow()
            _ = try await (phoneSync, laptopSync)
            try await phone.store.syncNow()
            let changes = try await phone.store.engine.configuration.database.recordZoneChanges(inZoneWith: ZoneID(zoneName: "StratusData"), since: nil)
            #expect(changes.modifications.filter { $0.recordID.recordName == "same" }.count == 1)
        }
    }

    /// Found by the simulation (`stratus-sim --seed 3`, shrunk to two edits): when a conflict
    /// resolved in the server's favour, the row kept the losing local value for good.
    @Test func aConflictTheServerWinsReachesTheTable() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await laptop.queue.write { db in try Course(id: "c", title: "from the laptop").insert(db) }
            try await laptop.store.syncNow()
            // The phone made the same course offline; sending it conflicts, and the server wins.
            try await phone.queue.write { db in try Course(id: "c", title: "from the phone").insert(db) }
            try await phone.store.syncNow()
            #expect(try await phone.queue.read { try Course.fetchOne($0, key: "c") }?.title == "from the laptop")
            try await phone.store.syncNow()
            #expect(try await phone.queue.read { try Course.fetchOne($0, key: "c") }?.title == "from the laptop")
        }
    }

    @Test func forceFullSyncRepairsDriftBothWays() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            try await phone.queue.write { db in try Course(id: "on-server", title: "A").insert(db) }
            try await phone.store.syncNow()
            // Drift: a row written behind the store's back (its capture undone), and a server row
            // lost locally.
            try await phone.queue.write { db in
                let end = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM _stratus_sync_outbox") ?? 0
                try Course(id: "local-only", title: "B").insert(db)
                _ = try Course.deleteOne(db, key: "on-server")
                try db.execute(sql: "DELETE FROM _stratus_sync_outbox WHERE sequence > ?", arguments: [end])
            }
            try await phone.store.forceFullSync()
            #expect(try await phone.queue.read { try Course.fetchOne($0, key: "on-server") } != nil)
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Course.fetchOne($0, key: "local-only") }?.title == "B")
        }
    }

    /// With `.delete`, a row the server no longer has (removed behind this device's back) goes
    /// locally, and nothing is sent; a row written since is kept and sent.
    @Test func forceFullSyncCanTakeTheServersWord() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await DataDevice.open(cloud, user: user, name: "phone")
            try await phone.queue.write { db in
                try Course(id: "kept", title: "A").insert(db)
                try Course(id: "compacted", title: "B").insert(db)
            }
            try await phone.store.syncNow()
            let web = await cloud.container(deviceID: "web")
            try await web.signIn(username: user, password: "password-\(user)")
            try await web.privateCloudDatabase.deleteRecord(withID: RecordID(recordName: "compacted", zoneID: ZoneID(zoneName: "StratusData")))
            try await phone.queue.write { db in try Course(id: "new", title: "C").insert(db) }
            try await phone.store.forceFullSync(deletingRowsMissingOnServer: .delete)
            #expect(try await phone.queue.read { try Course.order(Column("id")).fetchAll($0).map(\.id) } == ["kept", "new"])
            #expect(try await phone.store.hasUnsentChanges() == false)
            let laptop = try await DataDevice.open(cloud, user: user, name: "laptop")
            try await laptop.store.syncNow()
            #expect(try await laptop.queue.read { try Course.order(Column("id")).fetchAll($0).map(\.id) } == ["kept", "new"])
        }
    }
}

@Suite struct SyncedSharingTests {
    static func device(_ cloud: TestCloud, user: String, name: String) async throws -> DataDevice {
        let directory = cloud.root.appendingPathComponent("data-devices/\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE person (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, addressID TEXT, courseIDs TEXT NOT NULL DEFAULT '[]');
                CREATE TABLE address (id TEXT PRIMARY KEY NOT NULL, street TEXT NOT NULL, personID TEXT);
                CREATE TABLE course (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL);
                """)
        }
        let container = await cloud.container(deviceID: name)
        try await container.signIn(username: user, password: "password-\(user)")
        let store = try SyncedDatabase(writer: queue, tables: DataDevice.tables, database: container.privateCloudDatabase, sharedDatabase: container.sharedCloudDatabase)
        return DataDevice(queue: queue, store: store)
    }

    /// A row shared on its own brings the rows whose parent it is, and no other row.
    @Test func aSharedRowBringsItsChildrenAndNothingElse() async throws {
        try await TestCloud.with { cloud in
            let (aliceName, bobName) = (try await cloud.createUser("alice"), try await cloud.createUser("bob"))
            let alice = try await Self.device(cloud, user: aliceName, name: "alice")
            let bob = try await Self.device(cloud, user: bobName, name: "bob")
            try await alice.queue.write { db in
                try Person(id: "p1", name: "Ada").insert(db)
                try Person(id: "p2", name: "Grace").insert(db)
                try Address(id: "a1", street: "1 Analytical Row", personID: "p1").insert(db)
            }
            let share = try await alice.store.share(Person.self, id: "p1", title: "Ada", with: [(bobName, .readWrite)])
            try await bob.store.sharedEngine!.configuration.database.acceptShare(try #require(share.shareKeys?.shareURL))
            try await bob.store.syncNow()
            #expect(try await bob.queue.read { try Person.fetchAll($0).map(\.id) } == ["p1"])
            #expect(try await bob.queue.read { try Address.fetchAll($0).map(\.id) } == ["a1"])
            #expect(try await bob.store.sharingStatus(Person.self, id: "p1") == SharingStatus(isShared: true, isOwner: false, canEdit: true))
        }
    }

    @Test func sharedRowsLandInTheSameTablesWithTheirPermissions() async throws {
        try await TestCloud.with { cloud in
            let (aliceName, bobName, carolName) = (try await cloud.createUser("alice"), try await cloud.createUser("bob"), try await cloud.createUser("carol"))
            let alice = try await Self.device(cloud, user: aliceName, name: "alice")
            let bob = try await Self.device(cloud, user: bobName, name: "bob")
            let carol = try await Self.device(cloud, user: carolName, name: "carol")
            try await alice.queue.write { db in try Person(id: "p1", name: "Ada").insert(db) }
            let share = try await alice.store.shareZone(with: [(bobName, .readOnly), (carolName, .readWrite)])
            let url = try #require(share.shareKeys?.shareURL)
            try await alice.store.syncNow()
            #expect(try await alice.store.sharingStatus(Person.self, id: "p1") == SharingStatus(isShared: true, isOwner: true, canEdit: true))
            let unsynced = await #expect(throws: CloudError.self) { try await alice.store.sharingStatus(AssetColumnTests.Document.self, id: "p1") }
            #expect(unsynced?.code == .invalidArguments)

            for device in [bob, carol] {
                try await device.store.sharedEngine!.configuration.database.acceptShare(url)
                try await device.store.syncNow()
                #expect(try await device.queue.read { try Person.fetchOne($0, key: "p1") }?.name == "Ada")
            }
            #expect(try await bob.store.sharingStatus(Person.self, id: "p1") == SharingStatus(isShared: true, isOwner: false, canEdit: false))
            #expect(try await carol.store.sharingStatus(Person.self, id: "p1") == SharingStatus(isShared: true, isOwner: false, canEdit: true))

            // Bob may not edit: refused locally, before anything is queued.
            let refused = try await #require(throws: DatabaseError.self) {
                try await bob.queue.write { db in try db.execute(sql: "UPDATE person SET name = 'Bob was here' WHERE id = 'p1'") }
            }
            #expect(refused.message?.contains("read-only") == true)

            // Carol may: her edit lands in Alice's zone and comes back to Alice.
            try await carol.queue.write { db in try db.execute(sql: "UPDATE person SET name = 'Ada (edited by Carol)' WHERE id = 'p1'") }
            try await carol.store.syncNow()
            try await alice.store.syncNow()
            #expect(try await alice.queue.read { try Person.fetchOne($0, key: "p1") }?.name == "Ada (edited by Carol)")

            // Stopping sharing removes the rows from Bob's tables.
            try await alice.store.engine.configuration.database.deleteShare(share.recordID)
            try await bob.store.syncNow()
            #expect(try await bob.queue.read { try Person.fetchCount($0) } == 0)
        }
    }
}

@Suite struct AssetColumnTests {
    /// The table, written with SQL.
    enum Document: TableRecord { static let databaseTableName = "document" }

    static let documents = SyncedTable(Document.self, recordType: "Document", assetColumns: [Column("body")],
                                       timestampColumns: [Column("edited")])

    /// A device of `user` syncing `table`; with `singleAttempt`, a failed request is not retried.
    static func open(_ name: String, in cloud: TestCloud, user: String, table: SyncedTable, singleAttempt: Bool = false) async throws
        -> (DatabaseQueue, SyncedDatabase, FaultInjectingTransport) {
        let directory = cloud.root.appendingPathComponent("asset-devices/\(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("app.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE document (id TEXT PRIMARY KEY NOT NULL, body TEXT, edited INTEGER)")
        }
        let transport = FaultInjectingTransport()
        let container = await cloud.container(deviceID: name, transport: transport, assetCacheDirectory: directory.appendingPathComponent("cache"))
        try await container.signIn(username: user, password: "password-\(user)")
        let store = try SyncedDatabase(writer: queue, tables: [table], database: container.privateCloudDatabase,
                                       assetDirectory: directory.appendingPathComponent("uploads")) {
            if singleAttempt { $0.retry.maximumAttempts = 1 }
        }
        return (queue, store, transport)
    }

    /// The simulation's seed 6: a row's create landed but its answer was lost; sent again, it met
    /// the server's copy (`EXISTS`), whose asset was not downloaded — and the row's asset became NULL.
    @Test func aRowKeepsItsAssetWhenItsLostCreateIsSentAgain() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let (queue, store, transport) = try await Self.open("phone", in: cloud, user: user, table: Self.documents, singleAttempt: true)
            try await queue.write { db in try db.execute(sql: "INSERT INTO document (id, body, edited) VALUES ('first', 'first', 1)") }
            try await store.syncNow()
            try await queue.write { db in try db.execute(sql: "INSERT INTO document (id, body, edited) VALUES ('d1', 'the body', 2)") }
            transport.inject(.dropResponse, on: "records/modify")
            await #expect(throws: CloudError.self) { try await store.syncNow() }
            try await store.syncNow()
            #expect(try await queue.read { try String.fetchOne($0, sql: "SELECT body FROM document WHERE id = 'd1'") } == "the body")
        }
    }

    @Test func assetColumnsNeedAnAssetCache() async throws {
        try await TestCloud.with { cloud in
            let queue = try DatabaseQueue()
            try await queue.write { db in try db.execute(sql: "CREATE TABLE document (id TEXT PRIMARY KEY NOT NULL, body TEXT, edited INTEGER)") }
            let database = await cloud.container().privateCloudDatabase
            let refused = #expect(throws: CloudError.self) {
                try SyncedDatabase(writer: queue, tables: [Self.documents], database: database)
            }
            #expect(refused?.code == .invalidArguments)
        }
    }
    @Test func anAssetColumnTravelsAsAFile() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let table = Self.documents
            let (phoneDB, phone, _) = try await Self.open("phone", in: cloud, user: user, table: table)
            let (laptopDB, laptop, _) = try await Self.open("laptop", in: cloud, user: user, table: table)
            let body = String(repeating: "A long document. ", count: 100_000)   // 1.7 MB: over the 1 MB record limit
            try await phoneDB.write { db in try db.execute(sql: "INSERT INTO document (id, body, edited) VALUES ('d1', ?, 1700000000000)", arguments: [body]) }
            try await phone.syncNow()
            try await laptop.syncNow()
            let row = try await laptopDB.read { try Row.fetchOne($0, sql: "SELECT body, edited FROM document WHERE id = 'd1'") }
            #expect(row?["body"] == body)
            #expect(row?["edited"] == 1_700_000_000_000 as Int64)
            let record = try await laptop.engine.configuration.database.record(for: RecordID(recordName: "d1", zoneID: ZoneID(zoneName: "StratusData")))
            #expect(record.asset("body")?.size == Int64(body.utf8.count) && record["edited"] == .timestamp(1_700_000_000_000))
        }
    }
}

@Suite struct EncryptedColumnTests {
    /// A column declared encrypted travels as an encrypted field: the server answers it with
    /// `isEncrypted` (and keeps it sealed), and another device gets the row whole.
    @Test func anEncryptedColumnSyncsAsAnEncryptedField() async throws {
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let table = SyncedTable(AssetColumnTests.Document.self, recordType: "Diary", encryptedColumns: [Column("body")])
            let (phoneDB, phone, _) = try await AssetColumnTests.open("phone", in: cloud, user: user, table: table)
            let (laptopDB, laptop, _) = try await AssetColumnTests.open("laptop", in: cloud, user: user, table: table)
            try await phoneDB.write { db in try db.execute(sql: "INSERT INTO document (id, body, edited) VALUES ('d1', 'dear diary', 3)") }
            try await phone.syncNow()
            try await laptop.syncNow()
            #expect(try await laptopDB.read { try String.fetchOne($0, sql: "SELECT body FROM document WHERE id = 'd1'") } == "dear diary")
            let record = try await laptop.engine.configuration.database.record(for: RecordID(recordName: "d1", zoneID: ZoneID(zoneName: "StratusData")))
            #expect(record.encryptedKeys == ["body"] && record.encryptedValues["body"] == .string("dear diary") && record["edited"] == .int64(3))
        }
    }
}
