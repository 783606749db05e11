import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Every store of the storage seam, called directly and checked for what it promises. The suite
/// runs on SQLite, and on PostgreSQL in `scripts/test-postgres.sh`: both drivers must answer the
/// same.
@Suite struct StorageConformanceTests {
    static let container = TestServer.containerID

    static func withStorage(_ body: @Sendable @escaping (any StratusStorage) async throws -> Void) async throws {
        try await TestServer.with { server in try await body(server.server.services.storage) }
    }

    static func user(_ name: String, email: String? = nil) -> StoredUser {
        StoredUser(userRecordName: "_\(name)-\(UUID().uuidString.prefix(8))", containerID: container, username: "\(name)-\(UUID().uuidString.prefix(8))",
                   passwordHash: "hash", createdAt: 1, email: email)
    }

    @Test func accounts() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let alice = Self.user("alice", email: "Alice@Example.com")
                try await t.insertUser(alice)
                await #expect(throws: CloudKitError.self) { try await t.insertUser(alice) }
                #expect(try await t.user(containerID: Self.container, username: alice.username)?.email == "alice@example.com")
                #expect(try await t.user(recordName: alice.userRecordName)?.username == alice.username)
                #expect(try await t.user(containerID: Self.container, email: "alice@example.com") == nil, "unverified claims never match")
                try await t.saveUserCode(StoredEmailCode(userRecordName: alice.userRecordName, codeHash: "c1", expiresAt: 5, attempts: 0), for: .emailVerification)
                try await t.saveUserCode(StoredEmailCode(userRecordName: alice.userRecordName, codeHash: "c2", expiresAt: 6, attempts: 2), for: .emailVerification)
                try await t.saveUserCode(StoredEmailCode(userRecordName: alice.userRecordName, codeHash: "p1", expiresAt: 7, attempts: 1), for: .proof)
                #expect(try await t.userCode(user: alice.userRecordName, for: .emailVerification)
                        == StoredEmailCode(userRecordName: alice.userRecordName, codeHash: "c2", expiresAt: 6, attempts: 2))
                #expect(try await t.userCode(user: alice.userRecordName, for: .proof)
                        == StoredEmailCode(userRecordName: alice.userRecordName, codeHash: "p1", expiresAt: 7, attempts: 1), "one code per purpose")
                try await t.deleteUserCode(user: alice.userRecordName, for: .proof)
                #expect(try await t.userCode(user: alice.userRecordName, for: .proof) == nil)
                try await t.markEmailVerified(user: alice.userRecordName)
                #expect(try await t.userCode(user: alice.userRecordName, for: .emailVerification) == nil)
                #expect(try await t.user(containerID: Self.container, email: "alice@example.com")?.emailVerified == true)
                let other = Self.user("other", email: "alice@example.com")
                try await t.insertUser(other)
                await #expect(throws: CloudKitError.self) { try await t.markEmailVerified(user: other.userRecordName) }

                let percent = Self.user("50%_off")
                try await t.insertUser(percent)
                let found = try await t.users(containerID: Self.container, matching: "0%_", limit: 10)
                #expect(found.map(\.userRecordName) == [percent.userRecordName], "wildcards in the search text match only themselves")
                #expect(try await t.users(containerID: Self.container, matching: nil, limit: 2).count == 2)
                try await t.setUserDisabled(user: alice.userRecordName, at: 42)
                try await t.setPasswordHash(user: alice.userRecordName, passwordHash: "new")
                let changed = try #require(try await t.user(recordName: alice.userRecordName))
                #expect(changed.disabledAt == 42 && changed.passwordHash == "new")
                try await t.deleteUser(recordName: percent.userRecordName)
                #expect(try await t.user(recordName: percent.userRecordName) == nil)

                try await t.setAPIToken(containerID: Self.container, apiToken: "token-\(UUID().uuidString)")
                let containers = try await t.containers()
                #expect(containers.contains { $0.id == Self.container })
                #expect(try await t.container(id: Self.container) == containers.first { $0.id == Self.container })
            }
        }
    }

    @Test func sessionsAndAdministrators() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let alice = Self.user("alice")
                try await t.insertUser(alice)
                for (hash, expiry) in [("s1", Int64(100)), ("s2", 200), ("s3", 300)] {
                    try await t.insertSession(StoredSession(tokenHash: hash, userRecordName: alice.userRecordName, containerID: Self.container,
                                                            environment: .development, expiresAt: expiry))
                    try await t.registerAPNsToken(StoredAPNsToken(containerID: Self.container, environment: .development, user: alice.userRecordName,
                                                                  token: "t-\(hash)", apnsEnvironment: .development, registeredAt: expiry,
                                                                  sessionHash: hash), maxPerUser: 10)
                }
                #expect(try await t.session(tokenHash: "s2")?.expiresAt == 200)
                try await t.deleteSession(tokenHash: "s1")
                #expect(try await t.session(tokenHash: "s1") == nil)
                try await t.deleteExpiredSessions(before: 250)
                #expect(try await t.session(tokenHash: "s2") == nil)
                let tokens = try await t.apnsTokens(containerID: Self.container, environment: .development, user: alice.userRecordName, liveAt: nil)
                #expect(tokens.map(\.token) == ["t-s3"], "a session's tokens go with it")
                #expect(try await t.apnsTokens(containerID: Self.container, environment: .development, user: alice.userRecordName, liveAt: 400).isEmpty)
                #expect(try await t.deleteSessions(user: alice.userRecordName, except: nil) == ["s3"])

                try await t.insertAdministrator(StoredAdministrator(username: "root", passwordHash: "h", createdAt: 1))
                await #expect(throws: CloudKitError.self) { try await t.insertAdministrator(StoredAdministrator(username: "root", passwordHash: "x", createdAt: 2)) }
                try await t.insertAdministrator(StoredAdministrator(username: "ann", passwordHash: "h", createdAt: 1))
                #expect(try await t.administrators().map(\.username) == ["ann", "root"])
                #expect(try await t.administrator(username: "root")?.passwordHash == "h")
                try await t.insertConsoleSession(StoredConsoleSession(tokenHash: "c1", username: "root", expiresAt: 10))
                try await t.insertConsoleSession(StoredConsoleSession(tokenHash: "c2", username: "ann", expiresAt: 10))
                try await t.insertConsoleSession(StoredConsoleSession(tokenHash: "c3", username: "ann", expiresAt: 30))
                #expect(try await t.consoleSession(tokenHash: "c1")?.username == "root")
                try await t.deleteConsoleSession(tokenHash: "c1")
                try await t.deleteExpiredConsoleSessions(before: 20)
                #expect(try await t.consoleSession(tokenHash: "c2") == nil)
                #expect(try await t.consoleSession(tokenHash: "c3") != nil)
                #expect(try await t.deleteAdministrator(username: "ann"))
                #expect(try await t.consoleSession(tokenHash: "c3") == nil, "an administrator's sessions go with them")
                #expect(try await !t.deleteAdministrator(username: "ann"))
            }
        }
    }

    @Test func serverKeysAndAPNs() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                for (id, created) in [("k2", Int64(2)), ("k1", 1)] {
                    try await t.insertServerKey(StoredServerKey(keyID: id, containerID: Self.container, publicKeyPEM: "pem", createdAt: created, revokedAt: nil))
                }
                #expect(try await t.serverKeys(containerID: Self.container).map(\.keyID) == ["k1", "k2"])
                #expect(try await t.revokeServerKey(keyID: "k1", at: 9))
                #expect(try await !t.revokeServerKey(keyID: "k1", at: 10), "revoked already")
                #expect(try await t.serverKey(keyID: "k1")?.revokedAt == 9)

                let credentials = APNsCredentials(keyID: "K", teamID: "T", topic: "app", privateKeyPEM: "p8")
                try await t.setAPNsCredentials(credentials, containerID: Self.container)
                try await t.setAPNsCredentials(APNsCredentials(keyID: "K2", teamID: "T", topic: "app", privateKeyPEM: "p8"), containerID: Self.container)
                #expect(try await t.apnsCredentials(containerID: Self.container)?.keyID == "K2")
                try await t.setAPNsCredentials(nil, containerID: Self.container)
                #expect(try await t.apnsCredentials(containerID: Self.container) == nil)

                let alice = Self.user("alice")
                try await t.insertUser(alice)
                for index in 0..<4 {
                    try await t.registerAPNsToken(StoredAPNsToken(containerID: Self.container, environment: .development, user: alice.userRecordName,
                                                                  token: "t\(index)", apnsEnvironment: .production, registeredAt: Int64(index),
                                                                  sessionHash: nil), maxPerUser: 3)
                }
                let tokens = try await t.apnsTokens(containerID: Self.container, environment: .development, user: alice.userRecordName, liveAt: nil)
                #expect(tokens.map(\.token) == ["t1", "t2", "t3"], "past the cap the oldest go")
                #expect(tokens.first?.apnsEnvironment == .production)
                #expect(try await t.removeAPNsToken("t1", containerID: Self.container))
                #expect(try await !t.removeAPNsToken("t1", containerID: Self.container))
            }
        }
    }

    @Test func zonesSharesAndSubscriptions() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let alice = Self.user("alice"), bob = Self.user("bob")
                try await t.insertUser(alice)
                try await t.insertUser(bob)
                let key = DatabaseKey(containerID: Self.container, environment: .development, scope: .private, ownerRecordName: alice.userRecordName)
                #expect(try await t.databaseID(key, create: false) == nil)
                let database = try #require(try await t.databaseID(key, create: true))
                #expect(try await t.databaseID(key, create: true) == database)
                #expect(try await t.databaseKey(id: database) == key)
                #expect(try await t.databaseIDs(containerID: Self.container, environment: .development).contains(database))
                #expect(try await t.databasePurgedSequence(databaseID: database) == 0)

                let notes = try await t.insertZone(databaseID: database, zoneName: "Notes", sequence: 5)
                let lists = try await t.insertZone(databaseID: database, zoneName: "Lists", sequence: 6)
                #expect(try await t.liveZone(databaseID: database, zoneName: "Notes") == notes)
                #expect(try await t.liveZones(databaseID: database).map(\.zoneName) == ["Lists", "Notes"])
                try await t.setZoneChangeSequence(rowID: notes.rowID, sequence: 7)
                try await t.deleteZone(rowID: lists.rowID, sequence: 8, at: 1_000)
                #expect(try await t.zone(rowID: lists.rowID)?.deleted == true)
                #expect(try await t.liveZone(databaseID: database, zoneName: "Lists") == nil)
                #expect(try await t.zonesChanged(databaseID: database, after: 0, skippingDeletionsThrough: 0, limit: 10).map(\.zoneName) == ["Notes", "Lists"])
                #expect(try await t.zonesChanged(databaseID: database, after: 0, skippingDeletionsThrough: 8, limit: 10).map(\.zoneName) == ["Notes"])
                // The purge counts a deleted zone's age from the time it was given: a newer zone is
                // made so that this one is not the highest id (which stays, see the purge).
                _ = try await t.insertZone(databaseID: database, zoneName: "Later", sequence: 9)
                #expect(try await t.purgeTombstones(before: 1_000) == 0)
                #expect(try await t.purgeTombstones(before: 1_001) == 1)
                #expect(try await t.zone(rowID: lists.rowID) == nil)
                #expect(try await t.databasePurgedSequence(databaseID: database) == 8)

                let share = StoredShare(zoneRowID: notes.rowID, recordName: "cloudkit.zoneshare", rootRecordName: nil, shortGUID: "guid-\(UUID().uuidString)",
                                        publicPermission: .none, participants: [
                                            StoredParticipant(userRecordName: alice.userRecordName, permission: .readWrite, type: .owner, status: .accepted),
                                            StoredParticipant(userRecordName: bob.userRecordName, permission: .readOnly, type: .user, status: .invited)])
                try await t.saveShare(share)
                #expect(try await t.share(zoneRowID: notes.rowID, recordName: share.recordName) == share)
                #expect(try await t.share(shortGUID: share.shortGUID) == share)
                #expect(try await t.zonesSharedWith(user: bob.userRecordName) == [notes.rowID])
                #expect(try await !t.isAcceptedParticipant(zoneRowID: notes.rowID, user: bob.userRecordName))
                var accepted = share
                accepted.participants[1].status = .accepted
                try await t.saveShare(accepted)
                #expect(try await t.isAcceptedParticipant(zoneRowID: notes.rowID, user: bob.userRecordName))
                #expect(try await t.acceptedShares(zoneRowID: notes.rowID, user: bob.userRecordName) == [accepted])
                #expect(try await t.shares(zoneRowID: notes.rowID).count == 1)
                try await t.setSharedZone(user: bob.userRecordName, zoneRowID: notes.rowID, active: true, sequence: 9)
                #expect(try await t.activeSharedZones(user: bob.userRecordName).map(\.zoneRowID) == [notes.rowID])
                #expect(try await t.sharedZoneMembers(zoneRowID: notes.rowID) == [bob.userRecordName])
                #expect(try await t.sharedZoneChanges(user: bob.userRecordName, after: 0, skippingDeparturesThrough: 0, limit: 10).first?.sequence == 9)
                try await t.setSharedZone(user: bob.userRecordName, zoneRowID: notes.rowID, active: false, sequence: 10)
                #expect(try await t.activeSharedZones(user: bob.userRecordName).isEmpty)
                #expect(try await t.sharedZoneChanges(user: bob.userRecordName, after: 0, skippingDeparturesThrough: 10, limit: 10).isEmpty)
                try await t.deleteShare(zoneRowID: notes.rowID, recordName: share.recordName)
                #expect(try await t.share(shortGUID: share.shortGUID) == nil)

                for (owner, id) in [(alice.userRecordName, "b"), (alice.userRecordName, "a"), (bob.userRecordName, "c")] {
                    try await t.saveSubscription(StoredSubscription(databaseID: database, owner: owner,
                                                                    subscription: CloudSubscription(subscriptionID: id, subscriptionType: .database)))
                }
                #expect(try await t.subscriptions(databaseID: database, owner: alice.userRecordName).map(\.subscription.subscriptionID) == ["a", "b"])
                #expect(try await t.subscriptions(databaseID: database, owner: nil).count == 3)
                #expect(try await t.deleteSubscription(databaseID: database, owner: alice.userRecordName, subscriptionID: "a"))
                #expect(try await !t.deleteSubscription(databaseID: database, owner: bob.userRecordName, subscriptionID: "a"))
            }
        }
    }

    @Test func recordLog() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let alice = Self.user("alice")
                try await t.insertUser(alice)
                #expect(try await t.container(id: Self.container)?.historyDays == nil, "the server's retention")
                try await t.setHistoryDays(containerID: Self.container, days: 0)
                #expect(try await t.container(id: Self.container)?.historyDays == 0)
                let key = DatabaseKey(containerID: Self.container, environment: .development, scope: .private, ownerRecordName: alice.userRecordName)
                let database = try #require(try await t.databaseID(key, create: true))
                let zone = try await t.insertZone(databaseID: database, zoneName: "Log", sequence: 1)
                let stamp = { (time: Int64) in RecordStamp(timestamp: time, userRecordName: alice.userRecordName, deviceID: "phone") }
                func row(_ name: String, _ sequence: Int64, _ text: String, deleted: Bool = false) -> StoredRecord {
                    StoredRecord(zoneRowID: zone.rowID, recordName: name, recordType: "Note", changeTag: StoredRecord.derivedChangeTag(of: sequence),
                                 fieldsJSON: deleted ? Array("{}".utf8) : Array(#"{"t":{"value":"\#(text)","type":"STRING"}}"#.utf8),
                                 created: stamp(10), modified: stamp(10 * sequence), parent: nil, share: nil, sequence: sequence, deleted: deleted)
                }
                // a: created (2), updated (3), deleted (4) with b (5) by a DELETE_SELF cascade.
                try await t.saveRecord(row("a", 4, "", deleted: true), references: [], replacingReferences: true)
                try await t.saveRecord(row("b", 5, "", deleted: true), references: [], replacingReferences: true)
                try await t.saveRecord(row("c", 6, "c1"), references: [], replacingReferences: true)
                try await t.appendRecordLog([
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "a", recordType: "Note", sequence: 2, change: .create, stamp: stamp(20), replaced: nil),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "b", recordType: "Note", sequence: 1, change: .create, stamp: stamp(10), replaced: nil),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "a", recordType: "Note", sequence: 3, change: .update, stamp: stamp(30), replaced: row("a", 2, "a1")),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "a", recordType: "Note", sequence: 4, change: .delete, stamp: stamp(40), replaced: row("a", 3, "a2")),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "b", recordType: "Note", sequence: 5, change: .delete, stamp: stamp(40), cause: "a",
                                   replaced: row("b", 1, "b1")),
                    RecordLogEntry(zoneRowID: zone.rowID, recordName: "c", recordType: "Note", sequence: 6, change: .create, stamp: stamp(60), replaced: nil),
                ])
                // The change feed's positions (no fields), and rows read back by their sequences.
                let positions = try await t.changePositions(zoneRowID: zone.rowID, after: 0, skippingDeletionsThrough: 0, limit: 10, recordTypes: nil)
                #expect(positions == [4, 5, 6].map { ChangePosition(sequence: $0, recordType: "Note", creator: alice.userRecordName) },
                        "a tombstone keeps its type and creator")
                #expect(try await t.changePositions(zoneRowID: zone.rowID, after: 4, skippingDeletionsThrough: 5, limit: 10, recordTypes: nil).map(\.sequence) == [6])
                #expect(try await t.changePositions(zoneRowID: zone.rowID, after: 0, skippingDeletionsThrough: 0, limit: 2, recordTypes: ["Other"]).isEmpty)
                #expect(try await t.records(zoneRowID: zone.rowID, sequences: [4, 6, 6], maxBytes: .max).map(\.recordName) == ["a", "c"])
                #expect(try await t.records(zoneRowID: zone.rowID, sequences: [], maxBytes: .max).isEmpty)
                let versions = try await t.recordVersions(zoneRowID: zone.rowID, recordName: "a", before: nil, limit: 10)
                #expect(versions.map(\.position) == [4, 3], "newest first, creates keep no version")
                #expect(versions.map(\.record.changeTag) == ["3", "2"])
                #expect(versions.first?.record.modified == stamp(30) && versions.first?.record.created == stamp(10), "the actors are named")
                #expect(try await t.recordVersions(zoneRowID: zone.rowID, recordName: "a", before: 4, limit: 10).map(\.position) == [3])
                #expect(try await t.recordVersion(zoneRowID: zone.rowID, recordName: "a", changeTag: "2")?.position == 3)
                #expect(try await t.recordVersion(zoneRowID: zone.rowID, recordName: "a", changeTag: "4") == nil, "the current version is not in the log")
                #expect(try await t.deletedRecords(zoneRowID: zone.rowID, before: nil, limit: 10).map(\.recordName) == ["b", "a"])
                #expect(try await t.deletedRecords(zoneRowID: zone.rowID, before: 5, limit: 10).map(\.recordName) == ["a"])
                #expect(try await t.cascadedDeletions(zoneRowID: zone.rowID, cause: "a", after: 4).map(\.recordName) == ["b"])
                #expect(try await t.cascadedDeletions(zoneRowID: zone.rowID, cause: "a", after: 5).isEmpty)

                // A kept version holds the files the record referred to until its entry goes.
                try await t.replaceAssetReferences(zoneRowID: zone.rowID, recordName: "a", checksums: ["f0"])
                try await t.keepAssetReferences(zoneRowID: zone.rowID, recordName: "a", sequence: 3)
                try await t.replaceAssetReferences(zoneRowID: zone.rowID, recordName: "a", checksums: [])
                try await t.replaceAssetReferences(zoneRowID: zone.rowID, recordName: "c", checksums: ["f1"])
                #expect(try await t.versionPosition(zoneRowID: zone.rowID, recordName: "a", referringTo: "f0") == 3)
                #expect(try await t.versionPosition(zoneRowID: zone.rowID, recordName: "a", referringTo: "f1") == nil)

                // A zone's deletion logs its live records with their versions (and files).
                try await t.logZoneDeletion(zoneRowID: zone.rowID, sequence: 7, stamp: stamp(70))
                #expect(try await t.versionPosition(zoneRowID: zone.rowID, recordName: "c", referringTo: "f1") == 7)
                let deletedC = try await t.recordVersions(zoneRowID: zone.rowID, recordName: "c", before: nil, limit: 10)
                #expect(deletedC.map(\.position) == [7] && deletedC.first?.record.fieldsJSON == row("c", 6, "c1").fieldsJSON)
                #expect(try await t.purgeRecordLog(before: 30, in: .allBut([Self.container]), limit: 10) == 0, "the container has its own retention")
                #expect(try await t.purgeRecordLog(before: 30, in: .only(["iCloud.other"]), limit: 10) == 0, "another container's entries only")
                #expect(try await t.purgeRecordLog(before: 30, in: .only([Self.container]), limit: 1) == 1, "a step at a time, oldest first")
                #expect(try await t.purgeRecordLog(before: 30, in: .allBut([]), limit: 10) == 1)
                #expect(try await t.recordVersions(zoneRowID: zone.rowID, recordName: "a", before: nil, limit: 10).map(\.position) == [4, 3])
                #expect(try await t.purgeRecordHistory(zoneRowID: zone.rowID, recordName: "a") == 2)
                #expect(try await t.versionPosition(zoneRowID: zone.rowID, recordName: "a", referringTo: "f0") == nil)
                #expect(try await t.purgeRecordLog(before: 71, in: .allBut([]), limit: 10) == 4, "c's deletion and the zone's among them")
                #expect(try await t.versionPosition(zoneRowID: zone.rowID, recordName: "c", referringTo: "f1") == nil, "purged by time too")
                try await t.purgeDatabaseHistory(databaseID: database)
                #expect(try await t.recordVersions(zoneRowID: zone.rowID, recordName: "c", before: nil, limit: 10).isEmpty)
            }
        }
    }

    @Test func schemaAndRoles() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let field = FieldSchema(name: "title", type: .scalar(.string), indexes: [.queryable])
                try await t.applySchemaChanges([.addField(recordType: "Note", field: field), .addRole("Reader"),
                                                .setGrants(recordType: "Note", grants: ["Reader": .read])],
                                               containerID: Self.container, environment: .development)
                #expect(try await t.recordTypeSchema(containerID: Self.container, environment: .development, recordType: "Note")?.fields["title"] == field)
                #expect(try await t.recordTypeSchema(containerID: Self.container, environment: .production, recordType: "Note") == nil)
                let schema = try await t.schema(containerID: Self.container, environment: .development)
                #expect(schema.roles == ["Reader"] && schema.grants["Note"]?["Reader"] == .read)
                #expect(try await t.recordTypeGrants(containerID: Self.container, environment: .development, recordType: "Note") == ["Reader": .read])
                try await t.applySchemaChanges([.addField(recordType: "Post", field: field), .setGrants(recordType: "Post", grants: [SecurityRole.world: .read, SecurityRole.creator: .write])],
                                               containerID: Self.container, environment: .development)
                #expect(try await t.recordTypeGrants(containerID: Self.container, environment: .development)
                        == ["Note": ["Reader": .read], "Post": [SecurityRole.world: .read, SecurityRole.creator: .write]])
                #expect(try await t.recordTypeGrants(containerID: Self.container, environment: .production).isEmpty)
                try await t.replaceSchema(Schema(), containerID: Self.container, environment: .development)
                #expect(try await t.schema(containerID: Self.container, environment: .development).recordTypes.isEmpty)

                let alice = Self.user("alice")
                try await t.insertUser(alice)
                #expect(try await t.setUserRole("Reader", granted: true, containerID: Self.container, environment: .development, user: alice.userRecordName))
                #expect(try await !t.setUserRole("Reader", granted: true, containerID: Self.container, environment: .development, user: alice.userRecordName))
                #expect(try await t.userRoles(containerID: Self.container, environment: .development, user: alice.userRecordName) == ["Reader"])
                #expect(try await t.setUserRole("Reader", granted: false, containerID: Self.container, environment: .development, user: alice.userRecordName))
                #expect(try await !t.setUserRole("Reader", granted: false, containerID: Self.container, environment: .development, user: alice.userRecordName))
            }
        }
    }

    @Test func assetsAndMaintenance() async throws {
        try await Self.withStorage { storage in
            try await storage.write { t in
                let key = DatabaseKey(containerID: Self.container, environment: .development, scope: .public, ownerRecordName: "")
                let database = try #require(try await t.databaseID(key, create: true))
                let zone = try await t.insertZone(databaseID: database, zoneName: "Files", sequence: 1)
                for (receipt, checksum, time) in [("r1", "sum-a", Int64(10)), ("r2", "sum-b", 20)] {
                    try await t.insertAssetUpload(StoredAssetUpload(receiptHash: receipt, databaseID: database, zoneName: "Files", recordName: "rec",
                                                                    fieldName: "file", uploadedBy: "_someone", checksum: checksum, size: 3, uploadedAt: time))
                }
                #expect(try await t.assetUpload(receiptHash: "r1")?.checksum == "sum-a")
                #expect(try await t.assetBlobExists(checksum: "sum-b"))
                try await t.replaceAssetReferences(zoneRowID: zone.rowID, recordName: "rec", checksums: ["sum-a", "sum-b"])
                try await t.replaceAssetReferences(zoneRowID: zone.rowID, recordName: "rec", checksums: ["sum-a"])
                #expect(try await t.recordReferencesAsset(zoneRowID: zone.rowID, recordName: "rec", checksum: "sum-a"))
                #expect(try await !t.recordReferencesAsset(zoneRowID: zone.rowID, recordName: "rec", checksum: "sum-b"))
                let references = try #require(try await t.assetReferences(zoneRowID: zone.rowID, fileChecksum: "sum-a", limit: 5))
                #expect(references.size == 3 && references.recordNames == ["rec"])
                #expect(try await t.deleteAssetUploads(before: 15) == 1)
                #expect(try await t.deleteUnreferencedAssetBlobs().isEmpty, "sum-a has a record, sum-b an upload")
                #expect(try await t.deleteAssetUploads(before: 100) == 1)
                #expect(try await t.deleteUnreferencedAssetBlobs() == ["sum-b"])
                #expect(try await t.assetBlobChecksums().contains("sum-a"))

                try await t.holdAssetCollection(holder: "backup", until: 50)
                try await t.holdAssetCollection(holder: "backup", until: 60)
                #expect(try await t.isAssetCollectionHeld(at: 55))
                try await t.releaseAssetCollection(holder: "backup")
                #expect(try await !t.isAssetCollectionHeld(at: 55))
                try await t.setStoreEpoch(77)
            }
            #expect(try await storage.read { try await $0.archiveItemCount(containerID: Self.container, includingSecrets: false, includingHistory: true) } > 0)
        }
    }
}
