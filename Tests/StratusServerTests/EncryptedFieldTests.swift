import Foundation
import StratusCore
import Testing
@testable import StratusServer

/// CloudKit's encrypted fields (issue 68), on the backend the suite runs on: `isEncrypted` on the
/// wire as iCloud answers it (reference, Part 1), each refusal of Part 1.4, and the values sealed
/// at rest under the zone owner's data key, in no file in plain text.
@Suite struct EncryptedFieldTests {
    static let schema = """
        DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE, secret ENCRYPTED STRING, readings LIST<ENCRYPTED DOUBLE>, \
        photo ENCRYPTED BYTES);
        """

    /// A record's fields as the answer carried them, from `records[index]`.
    static func answeredFields(_ answer: HTTPResult, record index: Int = 0) throws -> [String: [String: Any]] {
        let body = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], "\(answer.text)")
        let records = try #require(body["records"] as? [[String: Any]], "\(answer.text)")
        return try #require(records[index]["fields"] as? [String: [String: Any]], "\(answer.text)")
    }

    /// The stored row of a record in a zone of `owner`'s private database, as the storage seam reads it.
    static func storedRow(_ server: TestServer, owner: String, zone: String = ZoneID.defaultZoneName, _ name: String) async throws -> StoredRecord {
        let row = try await server.server.services.storage.read { transaction -> StoredRecord? in
            let key = DatabaseKey(containerID: TestServer.containerID, environment: .development, scope: .private, ownerRecordName: owner)
            guard let database = try await transaction.databaseID(key, create: false),
                  let zone = try await transaction.liveZone(databaseID: database, zoneName: zone) else { return nil }
            return try await transaction.record(zoneRowID: zone.rowID, recordName: name)
        }
        return try #require(row)
    }

    /// The stored fields of a record of the caller's, as text.
    static func storedFields(_ server: TestServer, of caller: Caller, zone: String = ZoneID.defaultZoneName, _ name: String) async throws -> String {
        String(decoding: try await storedRow(server, owner: caller.userRecordName!, zone: zone, name).fieldsJSON, as: UTF8.self)
    }

    /// The request MistKit's encrypted-field probe sends (Part 1.2): without a type it fails alone
    /// with iCloud's reason; with its plain type it is saved, and every read answers it as iCloud
    /// does — the plain value, its type, `isEncrypted: true` — while the row holds it sealed.
    @Test func theMistKitProbeIsAnsweredAsICloudAnswersIt() async throws {
        let (directory, export, backup) = (TestServer.temporaryDirectory(), TestServer.temporaryDirectory(), TestServer.temporaryDirectory())
        try await TestServer.with(dataDirectory: directory) { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp("alice")
            let modify = alice.path(.private, "records/modify")
            let untyped = try await alice.post(modify, json: """
                {"operations":[{"operationType":"create","record":{"recordType":"Note","recordName":"n0",\
                "fields":{"secret":{"value":"mistkit-encrypted-probe","isEncrypted":true}}}}]}
                """)
            #expect(untyped.status == 200, "\(untyped.text)")
            let refused = try untyped.decode(RecordsResponse.self).records
            #expect(refused.first?.error?.serverErrorCode == .badRequest)
            #expect(refused.first?.error?.reason
                    == "invalid attempt to set value type ENCRYPTED_BYTES for field 'secret' for type 'Note', defined to be: ENCRYPTED_STRING")
            #expect(refused.first?.error?.recordName == "n0")

            let saved = try await alice.post(modify, json: """
                {"operations":[{"operationType":"create","record":{"recordType":"Note","recordName":"n1",\
                "fields":{"title":{"value":"visible title"},"secret":{"value":"mistkit-encrypted-probe","type":"STRING","isEncrypted":true},\
                "readings":{"value":[1.5,2.25],"type":"DOUBLE_LIST","isEncrypted":true}}}}]}
                """)
            let echoed = try Self.answeredFields(saved)
            #expect(echoed["secret"]?["value"] as? String == "mistkit-encrypted-probe")
            #expect(echoed["secret"]?["type"] as? String == "STRING" && echoed["secret"]?["isEncrypted"] as? Bool == true)
            #expect(echoed["readings"]?["value"] as? [Double] == [1.5, 2.25] && echoed["readings"]?["isEncrypted"] as? Bool == true)
            #expect(echoed["title"]?["isEncrypted"] == nil)

            let lookup = try await alice.post(alice.path(.private, "records/lookup"), json: #"{"records":[{"recordName":"n1"}]}"#)
            let query = try await alice.post(alice.path(.private, "records/query"), json: """
                {"query":{"recordType":"Note","filterBy":[{"fieldName":"title","comparator":"EQUALS","fieldValue":{"value":"visible title"}}]}}
                """)
            let changes = try await alice.post(alice.path(.private, "changes/zone"), json: #"{"zones":[{"zoneID":{"zoneName":"_defaultZone"}}]}"#)
            let changed = try #require(try JSONSerialization.jsonObject(with: changes.body) as? [String: Any])
            let zone = try #require((changed["zones"] as? [[String: Any]])?.first)
            let changedFields = (zone["records"] as? [[String: Any]])?.first?["fields"] as? [String: [String: Any]]
            for (read, fields) in [("lookup", try Self.answeredFields(lookup)), ("query", try Self.answeredFields(query)), ("changes/zone", changedFields ?? [:])] {
                #expect(fields["secret"]?["value"] as? String == "mistkit-encrypted-probe", "\(read)")
                #expect(fields["secret"]?["type"] as? String == "STRING" && fields["secret"]?["isEncrypted"] as? Bool == true, "\(read)")
            }
            // The SDK's decoding keeps the flag.
            #expect(try lookup.decode(RecordsResponse.self).records.first?.record?.encryptedFields == ["secret", "readings"])

            let stored = try await Self.storedFields(server, of: alice, "n1")
            #expect(stored.contains("visible title"), "plain fields stay plain: \(stored)")
            #expect(!stored.contains("mistkit-encrypted-probe") && !stored.contains("2.25"), "\(stored)")
            #expect(stored.contains(#"{"sealed":"sk1."#) && stored.contains(#""secret":{"sealed":"#), "one seal for the record: \(stored)")
            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: export, includingSecrets: true, includingHistory: false) { _ in }
            if !TestServer.runsOnPostgres { _ = try await server.server.backup(to: backup) }
        }
        // No file holds the value: an export, and on SQLite the data directory (its database and
        // WAL) and a backup.
        let exported = try KeyVaultTests.files(under: export)
        #expect(exported.contains { (try? Data(contentsOf: $0).range(of: Data("visible title".utf8))) != nil }, "the export has the record")
        for file in exported {
            #expect(try Data(contentsOf: file).range(of: Data("mistkit-encrypted-probe".utf8)) == nil, "\(file.path) holds it in plain text")
        }
        if !TestServer.runsOnPostgres {
            let files = try KeyVaultTests.files(under: directory) + KeyVaultTests.files(under: backup)
            #expect(files.contains { (try? Data(contentsOf: $0).range(of: Data("visible title".utf8))) != nil }, "the search finds what is there")
            for file in files {
                #expect(try Data(contentsOf: file).range(of: Data("mistkit-encrypted-probe".utf8)) == nil, "\(file.path) holds it in plain text")
            }
        }
    }

    /// The schema is the rule: a plain write to an encrypted field is sealed too; an update that
    /// leaves it keeps it; a conflict's server record carries it opened. And each refusal of
    /// Part 1.4 answers its record alone.
    @Test func theSchemaIsTheRuleAndEachRefusalIsClear() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp("alice")
            let created = try await alice.modify([.create("n1", ["title": .string("t"), "secret": .string("quiet words")])])
            let tag = try #require(created.first?.record?.recordChangeTag, "\(created)")
            #expect(created.first?.record?.encryptedFields == ["secret"])
            #expect(try await !Self.storedFields(server, of: alice, "n1").contains("quiet words"))

            var update = Record(recordName: "n1", recordType: "Note", recordChangeTag: tag, fields: ["title": .string("t2")])
            let updated = try await alice.modify([RecordOperation(.update, update)])
            #expect(updated.first?.record?.fields["secret"] == .string("quiet words"), "\(updated)")
            #expect(try await !Self.storedFields(server, of: alice, "n1").contains("quiet words"))
            update.fields = ["title": .string("stale")]
            let conflict = try await alice.modify([RecordOperation(.update, update)])
            #expect(conflict.first?.error?.serverErrorCode == .conflict)
            #expect(conflict.first?.error?.serverRecord?.fields["secret"] == .string("quiet words"))
            #expect(conflict.first?.error?.serverRecord?.encryptedFields == ["secret"])

            func refusal(_ fields: String, type: String = "Note", database: DatabaseScope = .private) async throws -> RecordError? {
                let answer = try await alice.post(alice.path(database, "records/modify"), json: """
                    {"operations":[{"operationType":"create","record":{"recordType":"\(type)","recordName":"r-\(UUID().uuidString)","fields":\(fields)}}]}
                    """)
                #expect(answer.status == 200, "\(answer.text)")
                return try answer.decode(RecordsResponse.self).records.first?.error
            }
            let wrongType = try await refusal(#"{"secret":{"value":5,"type":"INT64","isEncrypted":true}}"#)
            #expect(wrongType?.reason == "invalid attempt to set value type ENCRYPTED_INT64 for field 'secret' for type 'Note', defined to be: ENCRYPTED_STRING")
            let plainField = try await refusal(#"{"title":{"value":"x","type":"STRING","isEncrypted":true}}"#)
            #expect(plainField?.serverErrorCode == .badRequest && plainField?.reason.contains("cannot become encrypted") == true, "\(String(describing: plainField))")
            let reference = try await refusal(#"{"link":{"value":{"recordName":"n1"},"type":"REFERENCE","isEncrypted":true}}"#)
            #expect(reference?.serverErrorCode == .badRequest && reference?.reason.contains("a REFERENCE value cannot be encrypted") == true,
                    "\(String(describing: reference))")
            let asset = try await refusal(#"{"file":{"value":{"fileChecksum":"x"},"type":"ASSETID","isEncrypted":true}}"#)
            #expect(asset?.serverErrorCode == .badRequest && asset?.reason.contains("cannot be encrypted") == true, "\(String(describing: asset))")
            let untypedBytes = try await refusal(#"{"photo":{"value":"not base64!","isEncrypted":true}}"#)
            #expect(untypedBytes?.serverErrorCode == .badRequest && untypedBytes?.reason.contains("not base64") == true, "\(String(describing: untypedBytes))")
            let inPublic = try await refusal(#"{"secret":{"value":"x","type":"STRING","isEncrypted":true}}"#, type: "Poster", database: .public)
            #expect(inPublic?.serverErrorCode == .badRequest && inPublic?.reason.contains("public database") == true, "\(String(describing: inPublic))")
            let declaredInPublic = try await refusal(#"{"secret":{"value":"x","type":"STRING"}}"#, database: .public)
            #expect(declaredInPublic?.serverErrorCode == .badRequest && declaredInPublic?.reason.contains("public database") == true)

            // A first write with `isEncrypted` makes the field encrypted (development), and an
            // untyped encrypted value that is base64 is ENCRYPTED_BYTES.
            let diary = try await alice.post(alice.path(.private, "records/modify"), json: """
                {"operations":[{"operationType":"create","record":{"recordType":"Diary","recordName":"d1",\
                "fields":{"mood":{"value":"calm","type":"STRING","isEncrypted":true},"blob":{"value":"AAEC","isEncrypted":true}}}}]}
                """)
            let diaryFields = try Self.answeredFields(diary)
            #expect(diaryFields["mood"]?["isEncrypted"] as? Bool == true && diaryFields["blob"]?["type"] as? String == "BYTES", "\(diary.text)")
            let exported = try await server.server.exportSchema(container: TestServer.containerID, environment: .development)
            #expect(exported.contains("ENCRYPTED STRING") && exported.contains("ENCRYPTED BYTES"), "\(exported)")
            // Field names that JSON escapes are bound to the seal as stored.
            let odd = try await alice.post(alice.path(.private, "records/modify"), json: #"""
                {"operations":[{"operationType":"create","record":{"recordType":"Diary","recordName":"d2",
                "fields":{"mood":{"value":"odd","type":"STRING","isEncrypted":true},"a\"b\\c,d":{"value":7,"type":"INT64","isEncrypted":true}}}}]}
                """#)
            #expect(odd.status == 200, "\(odd.text)")
            let oddFields = try Self.answeredFields(try await alice.post(alice.path(.private, "records/lookup"), json: #"{"records":[{"recordName":"d2"}]}"#))
            #expect(oddFields[#"a"b\c,d"#]?["value"] as? Int == 7 && oddFields["mood"]?["value"] as? String == "odd", "\(oddFields)")
        }
    }

    /// Deleting an account destroys its key: a backup taken before still holds the account's
    /// records, and their encrypted fields stay sealed for good (SQLite: a backup is its files).
    @Test(.enabled(if: !TestServer.runsOnPostgres, "a backup of the SQLite store")) func anAccountsDeletionLeavesItsFieldsSealedInOlderBackups() async throws {
        let directory = TestServer.temporaryDirectory()
        let backup = TestServer.temporaryDirectory()
        let user = try await TestServer.with(dataDirectory: directory) { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp("alice")
            _ = try await alice.save([.create("n1", ["title": .string("t"), "secret": .string("before the deletion")])])
            _ = try await server.server.backup(to: backup)
            try await server.server.services.admin.deleteAccount(user: alice.userRecordName!, containerID: TestServer.containerID)
            return alice.userRecordName!
        }
        try await KeyVaultTests.withRestored(backup, keysOf: directory) { server in
            var row = try await Self.storedRow(server, owner: user, "n1")
            #expect(!String(decoding: row.fieldsJSON, as: UTF8.self).contains("before the deletion"))
            do {
                var openers = FieldOpeners(server.server.services.keys)
                try await openers.open(&row, owner: user)
                Issue.record("the deleted account's fields were opened")
            } catch let error as CloudKitError {
                #expect(error.code == .zoneNotFound)
            }
        }
    }

    /// In a shared zone the owner's key seals what a participant writes, and opens it for both.
    @Test func aParticipantReadsAndWritesEncryptedFieldsUnderTheOwnersKey() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let bob = try await server.signUp("bob")
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            _ = try await alice.save([.create("a1", ["secret": .string("alice's secret")])], zone: "Lists")
            let share = try await alice.share("a1", zone: "Lists", participants: [(bob.username!, .readWrite)])
            // The share's root record, as resolving and accepting show it, with its encrypted field
            // (the server's key cache is cold: the request runs again with the owner's key).
            server.server.services.keys.forgetCachedKeys()
            let guid = try #require(share.shareKeys?.shortGUID)
            let accepted = try #require(try await bob.shareMetadata(guid, accept: true).value)
            #expect(accepted.rootRecord?.fields["secret"] == .string("alice's secret") && accepted.rootRecord?.encryptedFields == ["secret"])
            #expect(try await bob.lookup(["a1"], zone: "Lists", owner: alice.userRecordName).first?.record?.fields["secret"] == .string("alice's secret"))
            var written = Record(recordName: "b1", recordType: "Note", fields: ["secret": .string("bob's secret")], parent: RecordPointer(recordName: "a1"))
            written.encryptedFields = ["secret"]
            let saved = try await bob.modify([RecordOperation(.create, written)], zone: "Lists", owner: alice.userRecordName)
            #expect(saved.first?.record?.fields["secret"] == .string("bob's secret"), "\(saved)")
            #expect(try await alice.lookup(["b1"], zone: "Lists", owner: nil).first?.record?.fields["secret"] == .string("bob's secret"))
            let stored = try await Self.storedFields(server, of: alice, zone: "Lists", "b1")
            #expect(!stored.contains("bob's secret") && stored.contains("sk1."), "\(stored)")
        }
    }
}
