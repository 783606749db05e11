import Foundation
import Testing
import StratusCore

@Suite struct RecordOperationTests {
    @Test func createThenCreateAgainIsExists() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let saved = try await alice.save([.create("n1", ["title": .string("a"), "count": .int64(1)])])
            #expect(saved[0].recordType == "Note" && saved[0].recordChangeTag?.isEmpty == false)
            #expect(saved[0].created?.userRecordName == alice.userRecordName)
            #expect(saved[0].created == saved[0].modified)
            let again = try await alice.modify([.create("n1")])
            #expect(again[0].error?.serverErrorCode == .exists)
        }
    }

    @Test func aCreateSentAgainAfterItsRecordWasDeletedIsNotFound() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            func create(key: String) -> RecordOperation {
                var operation = RecordOperation.create("n1", ["title": .string("a")])
                operation.createKey = key
                return operation
            }
            _ = try await alice.save([create(key: "device.1")])
            // Sent again while the record lives: EXISTS, with the record to compare.
            #expect(try await alice.modify([create(key: "device.1")])[0].error?.serverErrorCode == .exists)
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "n1"))])
            // Sent again once it is deleted: not applied twice.
            let replayed = try await alice.modify([create(key: "device.1")])
            #expect(replayed[0].error?.serverErrorCode == .notFound)
            // Another create of the name (another key, or none) makes the record anew.
            #expect(try await alice.save([create(key: "device.2")])[0].fields["title"] == .string("a"))
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "n1"))])
            #expect(try await alice.save([.create("n1")])[0].recordName == "n1")

            // One character more is BAD_REQUEST (ErrorAndLimitTests).
            var longest = RecordOperation.create("n2")
            longest.createKey = String(repeating: "k", count: RecordOperation.maxCreateKeyLength)
            #expect(try await alice.modify([longest])[0].error == nil)
        }
    }

    /// CloudKit documents `type` as optional: an untyped value takes the type the schema declares
    /// for its field where it fits, and one that does not fit fails its own record.
    @Test func untypedValuesTakeTheSchemasType() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let path = alice.path(.private, "records/modify")
            let typed = try await alice.post(path, json: """
                {"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"Doc","fields":{
                  "data":{"value":"aGVsbG8=","type":"BYTES"},"when":{"value":1700000000000,"type":"TIMESTAMP"},
                  "ratio":{"value":0.5,"type":"DOUBLE"},"tags":{"value":["x"],"type":"STRING_LIST"}}}}]}
                """)
            #expect(typed.status == 200 && typed.text.contains("\"error\"") == false, "\(typed.text)")

            let untyped = try await alice.post(path, json: """
                {"operations":[
                  {"operationType":"create","record":{"recordName":"b","recordType":"Doc","fields":{
                    "data":{"value":"d29ybGQ="},"when":{"value":1700000000000.6},"ratio":{"value":2},"tags":{"value":[]}}}},
                  {"operationType":"create","record":{"recordName":"c","recordType":"Doc","fields":{"data":{"value":12}}}},
                  {"operationType":"create","record":{"recordName":"d","recordType":"Doc","fields":{"data":{"value":"not base64!"}}}},
                  {"operationType":"create","record":{"recordName":"e","recordType":"Doc","fields":{"when":{"value":"soon"}}}}
                ]}
                """)
            #expect(untyped.status == 200, "\(untyped.text)")
            let results = try untyped.decode(RecordsResponse.self).records
            let saved = try #require(results.first?.record, "\(untyped.text)")
            #expect(saved.fields["data"] == .bytes(Data("world".utf8)))
            #expect(saved.fields["when"] == .timestamp(1_700_000_000_001))
            #expect(saved.fields["ratio"] == .double(2))
            #expect(saved.fields["tags"] == .list(.string, []))
            for failed in results.dropFirst() {
                #expect(failed.error?.serverErrorCode == .badRequest, "\(failed)")
            }
        }
    }

    @Test func createWithoutNameGetsOne() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let saved = try await alice.save([RecordOperation(.create, Record(recordType: "Note"))])
            #expect(UUID(uuidString: saved[0].recordName ?? "") != nil)
        }
    }

    @Test func updateChangesOnlyGivenFieldsAndNeedsTheTag() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let created = try await alice.save([.create("n1", ["title": .string("a"), "body": .string("b"), "gone": .int64(1)])])[0]
            let updated = try await alice.save([RecordOperation(.update, Record(
                recordName: "n1", recordChangeTag: created.recordChangeTag, fields: ["title": .string("A"), "gone": FieldValue?.none]))])[0]
            #expect(updated.fields == ["title": .string("A"), "body": .string("b")])
            #expect(updated.recordChangeTag != created.recordChangeTag)
            #expect(updated.created == created.created)

            let withoutTag = try await alice.modify([RecordOperation(.update, Record(recordName: "n1", fields: ["title": .string("x")]))])
            #expect(withoutTag[0].error?.serverErrorCode == .badRequest)
            let missing = try await alice.modify([RecordOperation(.update, Record(recordName: "nope", recordChangeTag: "1"))])
            #expect(missing[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func staleTagIsConflictCarryingTheServerRecord() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let created = try await alice.save([.create("n1", ["title": .string("v1")])])[0]
            let second = try await alice.save([RecordOperation(.update, Record(
                recordName: "n1", recordChangeTag: created.recordChangeTag, fields: ["title": .string("v2")]))])[0]
            for type in [RecordOperationType.update, .replace, .delete] {
                let stale = try await alice.modify([RecordOperation(type, Record(
                    recordName: "n1", recordChangeTag: created.recordChangeTag, fields: type == .delete ? [:] : ["title": .string("stale")]))])
                let error = try #require(stale[0].error)
                #expect(error.serverErrorCode == .conflict)
                #expect(error.serverRecord?.recordChangeTag == second.recordChangeTag)
                #expect(error.serverRecord?.fields["title"] == .string("v2"))
            }
            // The client merges into serverRecord and retries with its tag.
            let merged = try await alice.save([RecordOperation(.update, Record(
                recordName: "n1", recordChangeTag: second.recordChangeTag, fields: ["title": .string("merged")]))])
            #expect(merged[0].fields["title"] == .string("merged"))
        }
    }

    @Test func forceUpdateIgnoresTagsAndCreatesMissingRecords() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("n1", ["a": .int64(1), "b": .int64(2)])])
            let forced = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n1", recordChangeTag: "stale", fields: ["a": .int64(9)]))])[0]
            #expect(forced.fields == ["a": .int64(9), "b": .int64(2)])
            let createdByForce = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "n2", recordType: "Note", fields: ["a": .int64(1)]))])[0]
            #expect(createdByForce.fields == ["a": .int64(1)])
            let noType = try await alice.modify([RecordOperation(.forceUpdate, Record(recordName: "n3"))])
            #expect(noType[0].error?.serverErrorCode == .badRequest)
        }
    }

    @Test func replaceAndForceReplaceDropOmittedFields() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let created = try await alice.save([.create("n1", ["a": .int64(1), "b": .int64(2)])])[0]
            let replaced = try await alice.save([RecordOperation(.replace, Record(recordName: "n1", recordChangeTag: created.recordChangeTag, fields: ["a": .int64(5)]))])[0]
            #expect(replaced.fields == ["a": .int64(5)])
            let forced = try await alice.save([RecordOperation(.forceReplace, Record(recordName: "n1", fields: ["c": .string("only")]))])[0]
            #expect(forced.fields == ["c": .string("only")])
            let fresh = try await alice.save([RecordOperation(.forceReplace, Record(recordName: "n9", recordType: "Note", fields: ["z": .int64(0)]))])[0]
            #expect(fresh.recordType == "Note")
            let lookedUp = try await alice.lookup(["n1"])
            #expect(lookedUp[0].record?.fields == ["c": .string("only")])
        }
    }

    @Test func deleteAndForceDelete() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let saved = try await alice.save([.create("n1"), .create("n2")])
            let deleted = try await alice.save([RecordOperation(.delete, Record(recordName: "n1", recordChangeTag: saved[0].recordChangeTag))])
            #expect(deleted[0].deleted == true && deleted[0].recordName == "n1")
            let forced = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "n2", recordType: "Note", fields: [:]))])
            #expect(forced[0].deleted == true)
            let lookup = try await alice.lookup(["n1", "n2"])
            #expect(lookup.map { $0.error?.serverErrorCode } == [.notFound, .notFound])
            let again = try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "n1"))])
            #expect(again[0].error?.serverErrorCode == .notFound)
            let recreated = try await alice.save([.create("n1", ["v": .int64(2)])])
            #expect(recreated[0].fields["v"] == .int64(2))
        }
    }

    @Test func lookupHonoursDesiredKeys() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("n1", ["a": .int64(1), "b": .int64(2)]), .create("n2", ["a": .int64(1), "b": .int64(2)])])
            let request = RecordsLookupRequest(records: [.init(recordName: "n1"), .init(recordName: "n2", desiredKeys: [])], desiredKeys: ["b"])
            let records = try await alice.post(alice.path(.private, "records/lookup"), request).decode(RecordsResponse.self).records
            #expect(records[0].record?.fields == ["b": .int64(2)])
            #expect(records[1].record?.fields == [:])
            #expect(records[1].record?.recordChangeTag != nil)
        }
    }

    @Test func parentIsStoredAndReturned() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Lists")
            var child = Record(recordName: "item", recordType: "Item")
            child.parent = RecordPointer(recordName: "list")
            let saved = try await alice.save([.create("list", type: "List"), RecordOperation(.create, child)], zone: "Lists")
            #expect(saved[1].parent?.recordName == "list")
            let fetched = try await alice.lookup(["item"], zone: "Lists")
            #expect(fetched[0].record?.parent?.recordName == "list")
        }
    }

    @Test func atomicBatchInCustomZoneFailsWhole() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Notes")
            _ = try await alice.save([.create("existing")], zone: "Notes")
            let results = try await alice.modify([.create("a"), .create("existing"), .create("b")], zone: "Notes")
            #expect(results.map { $0.error?.serverErrorCode } == [.atomicError, .exists, .atomicError])
            let lookup = try await alice.lookup(["a", "b"], zone: "Notes")
            #expect(lookup.allSatisfy { $0.error?.serverErrorCode == .notFound }, "nothing of a failed atomic batch is written")
            let changes = try await alice.allZoneChanges("Notes")
            #expect(changes.records.map(\.recordName) == ["existing"])
        }
    }

    @Test func nonAtomicBatchReportsPerRecord() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Notes")
            _ = try await alice.save([.create("existing")], zone: "Notes")
            let badName = RecordOperation.create("_bad")
            let results = try await alice.modify([.create("a"), .create("existing"), badName, .create("b")], zone: "Notes", atomic: false)
            #expect(results.map { $0.error?.serverErrorCode } == [nil, .exists, .badRequest, nil])
            let lookup = try await alice.lookup(["a", "b"], zone: "Notes")
            #expect(lookup.allSatisfy { $0.record != nil })
        }
    }

    /// A deletion that cascades, then fails deep down (a `VALIDATE` reference), in a batch with
    /// creates around it: the creates stay, the deletion leaves nothing behind. (On PostgreSQL
    /// saves are held back and sent together, and a savepoint is sent only when a statement must
    /// run inside it: this is its hardest case.)
    @Test func aCascadeFailingDeepDownUndoesOnlyItsOwnOperation() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            func reference(_ name: String, _ action: Reference.Action) -> FieldValue {
                .reference(Reference(recordName: name, action: action))
            }
            _ = try await alice.save([
                .create("list"), .create("item", ["list": reference("list", .deleteSelf)]),
                .create("sub", ["item": reference("item", .deleteSelf)]), .create("guard", ["sub": reference("sub", .validate)]),
            ], zone: "Z")
            let token = try await alice.allZoneChanges("Z").token
            let results = try await alice.modify([
                .create("a"), RecordOperation(.forceDelete, Record(recordName: "list")), .create("b"),
                .create("c", ["list": reference("list", .deleteSelf)]),
            ], zone: "Z", atomic: false)
            #expect(results.map { $0.error?.serverErrorCode } == [nil, .validatingReferenceError, nil, nil])
            let lookup = try await alice.lookup(["list", "item", "sub", "guard", "a", "b", "c"], zone: "Z")
            #expect(lookup.allSatisfy { $0.record != nil }, "\(lookup.map { $0.error?.serverErrorCode })")
            let changes = try await alice.allZoneChanges("Z", from: token)
            #expect(changes.records.compactMap(\.recordName).sorted() == ["a", "b", "c"])

            // Created and cascaded over in one batch: the new child goes with its parent.
            let cascade = try await alice.modify([
                .create("d", ["c": reference("c", .deleteSelf)]), RecordOperation(.forceDelete, Record(recordName: "c")),
            ], zone: "Z", atomic: false)
            #expect(cascade.map { $0.error?.serverErrorCode } == [nil, nil])
            let gone = try await alice.lookup(["c", "d"], zone: "Z")
            #expect(gone.map { $0.error?.serverErrorCode } == [.notFound, .notFound])
        }
    }

    @Test func defaultZoneIsNeverAtomic() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("existing")])
            let results = try await alice.modify([.create("a"), .create("existing")], atomic: true)
            #expect(results.map { $0.error?.serverErrorCode } == [nil, .exists])
        }
    }

    @Test func zonesCreateListLookupDelete() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("A")
            try await alice.createZone("A")
            try await alice.createZone("B")
            let list = try await alice.get(alice.path(.private, "zones/list")).decode(ZonesResponse.self)
            #expect(list.zones.compactMap(\.zone?.zoneID.zoneName) == ["A", "B", "_defaultZone"])
            #expect(list.zones.compactMap(\.zone).allSatisfy { $0.zoneID.ownerRecordName == alice.userRecordName && $0.syncToken != nil })
            #expect(list.zones.first { $0.zone?.zoneID.zoneName == "A" }?.zone?.atomic == true)

            let operations = ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "B")), .init(.delete, ZoneID(zoneName: "missing")),
                                                             .init(.delete, .default), .init(.create, ZoneID(zoneName: "_reserved"))])
            let results = try await alice.post(alice.path(.private, "zones/modify"), operations).decode(ZonesResponse.self).zones
            #expect(results[0].zone?.deleted == true)
            let codes = results.dropFirst().map { result -> ServerErrorCode? in if case .failure(let error) = result { error.serverErrorCode } else { nil } }
            #expect(codes == [.zoneNotFound, .badRequest, .badRequest])
            let lookup = try await alice.post(alice.path(.private, "zones/lookup"), ZonesLookupRequest(zones: [ZoneID(zoneName: "A"), ZoneID(zoneName: "B")]))
                .decode(ZonesResponse.self).zones
            #expect(lookup[0].zone != nil && lookup[1].zone == nil)
        }
    }

    @Test func deletingAZoneDeletesItsRecords() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Temp")
            _ = try await alice.save([.create("r1")], zone: "Temp")
            _ = try await alice.post(alice.path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.delete, ZoneID(zoneName: "Temp"))]))
            try await alice.createZone("Temp")
            let lookup = try await alice.lookup(["r1"], zone: "Temp")
            #expect(lookup[0].error?.serverErrorCode == .notFound)
        }
    }
}
