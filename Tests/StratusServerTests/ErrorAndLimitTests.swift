import Foundation
import Testing
import StratusCore
@testable import StratusServer

@Suite struct ErrorAndLimitTests {
    @Test func tooManyOperationsIsLimitExceeded() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let operations = (0...400).map { RecordOperation.create("r\($0)") }
            let response = try await alice.post(alice.path(.private, "records/modify"), RecordsModifyRequest(operations: operations))
            #expect(response.status == 413 && response.errorCode == .limitExceeded)
            let exactly = try await alice.save(Array(operations.prefix(400)))
            #expect(exactly.count == 400)
        }
    }

    @Test func oversizedBodyAndRecordAreLimitExceeded() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let huge = String(repeating: "x", count: 2 * 1024 * 1024 + 10)
            let body = try await alice.post(alice.path(.private, "records/modify"),
                                            RecordsModifyRequest(operations: [.create("big", ["text": .string(huge)])]))
            #expect(body.status == 413 && body.errorCode == .limitExceeded)

            let large = String(repeating: "y", count: 1024 * 1024 + 10)
            let record = try await alice.modify([.create("large", ["text": .string(large)]), .create("small")])
            #expect(record[0].error?.serverErrorCode == .limitExceeded)
            let grown = try await alice.save([.create("grows", ["a": .string(String(repeating: "a", count: 700_000))])])
            let update = try await alice.modify([RecordOperation(.update, Record(recordName: "grows", recordChangeTag: grown[0].recordChangeTag,
                                                                                 fields: ["b": .string(String(repeating: "b", count: 700_000))]))])
            #expect(update[0].error?.serverErrorCode == .limitExceeded, "the limit applies to the merged record")
        }
    }

    @Test(arguments: [
        ("{bad json", "not valid JSON"),
        ("[]", "unexpected value"),
        ("{}", "operations"),
        (#"{"operations":[{"operationType":"upsert","record":{"recordName":"a"}}]}"#, "operationType"),
        (#"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"T"}},{"operationType":"create","record":{"recordName":"a","recordType":"T"}}]}"#, "more than one operation"),
        (#"{"operations":[{"operationType":"create","createKey":"","record":{"recordName":"a","recordType":"T"}}]}"#, "createKey"),
        (#"{"operations":[{"operationType":"create","createKey":"\#(String(repeating: "k", count: 129))","record":{"recordName":"a","recordType":"T"}}]}"#, "createKey"),
    ])
    func malformedRequestsAreBadRequest(_ body: String, _ reasonFragment: String) async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let response = try await alice.post(alice.path(.private, "records/modify"), json: body)
            #expect(response.status == 400)
            #expect(response.errorCode == .badRequest)
            #expect(response.error?.reason.contains(reasonFragment) == true, "\(response.text)")
        }
    }

    /// A batch is read beside its writer, chunk by chunk (`PreparedBatch`): a request-level mistake
    /// in a late chunk still fails the whole request, and what the earlier chunks wrote is undone,
    /// in an atomic zone and in the default zone (where operations fail alone) alike.
    @Test(arguments: ["Atomic", ZoneID.defaultZoneName])
    func aMistakeInALateChunkFailsTheWholeRequest(_ zone: String) async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            if zone != ZoneID.defaultZoneName { try await alice.createZone(zone) }
            func operations(_ last: String) -> String {
                let early = (0..<(PreparedBatch.chunkSize * 3)).map { #"{"operationType":"create","record":{"recordName":"r\#($0)","recordType":"T"}}"# }
                return #"{"zoneID":{"zoneName":"\#(zone)"},"operations":["# + (early + [last]).joined(separator: ",") + "]}"
            }
            for (last, reason) in [(#"{"operationType":"create","record":{"recordName":"r7","recordType":"T"}}"#, "more than one operation"),
                                   (#"{"operationType":"upsert","record":{"recordName":"late","recordType":"T"}}"#, "operationType"),
                                   (#"{"operationType":"create"}"#, "record")] {
                let response = try await alice.post(alice.path(.private, "records/modify"), json: operations(last))
                #expect(response.status == 400 && response.errorCode == .badRequest, "\(response.text)")
                #expect(response.error?.reason.contains(reason) == true, "\(response.text)")
                let looked = try await alice.lookup(["r0", "r149"], zone: zone)
                #expect(looked.allSatisfy { $0.error?.serverErrorCode == .notFound }, "nothing of the batch is written")
            }
            // A bad operation in a late chunk fails alone in the default zone, the whole batch in an atomic one.
            let results = try await alice.modify((0..<(PreparedBatch.chunkSize * 3)).map { RecordOperation.create("s\($0)") }
                                                 + [.create("_reserved")], zone: zone)
            #expect(results.last?.error?.serverErrorCode == .badRequest)
            let others = Set(results.dropLast().map { $0.error?.serverErrorCode })
            #expect(others == (zone == ZoneID.defaultZoneName ? [nil] : [.atomicError]), "\(others)")
        }
    }

    /// A field value that does not read fails its own record with `BAD_REQUEST`; the request goes on.
    @Test(arguments: [
        (#"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"T","fields":{"f":{"value":1,"type":"DECIMAL"}}}}]}"#, "unknown field type"),
        // Found by schemathesis: a removal (null value) with an unknown type was accepted.
        (#"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"T","fields":{"f":{"value":null,"type":"AAA"}}}}]}"#, "unknown field type"),
        (#"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"T","fields":{"f":{"value":"one","type":"INT64"}}}}]}"#, "field 'f'"),
    ])
    func aFieldThatDoesNotReadFailsItsRecord(_ body: String, _ reasonFragment: String) async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let response = try await alice.post(alice.path(.private, "records/modify"), json: body)
            #expect(response.status == 200, "\(response.text)")
            let error = try response.decode(RecordsResponse.self).records.first?.error
            #expect(error?.serverErrorCode == .badRequest && error?.recordName == "a", "\(response.text)")
            #expect(error?.reason.contains(reasonFragment) == true, "\(response.text)")
        }
    }

    @Test(arguments: [
        Record(recordName: String(repeating: "n", count: 256), recordType: "T"),
        Record(recordName: "naïve", recordType: "T"),
        Record(recordName: "_system", recordType: "T"),
        Record(recordName: "ok", recordType: String(repeating: "T", count: 256)),
        Record(recordName: "ok", recordType: "T", fields: ["fïeld": .int64(1)]),
        Record(recordName: "ok"),
    ])
    func badNamesFailTheirOperation(_ record: Record) async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let results = try await alice.modify([RecordOperation(.create, record)])
            #expect(results[0].error?.serverErrorCode == .badRequest)
        }
    }

    @Test func notFoundAndZoneNotFound() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            #expect(try await alice.lookup(["nothing"])[0].error?.serverErrorCode == .notFound)
            let zone = try await alice.post(alice.path(.private, "records/modify"),
                                            RecordsModifyRequest(operations: [.create("a")], zoneID: ZoneID(zoneName: "NoSuchZone")))
            #expect(zone.status == 404 && zone.errorCode == .zoneNotFound)
            let endpoint = try await alice.post(alice.path(.private, "records/frobnicate"), json: "{}")
            #expect(endpoint.status == 404 && endpoint.errorCode == .notFound)
            let database = try await alice.post("/database/1/\(TestServer.containerID)/development/secret/records/lookup", json: "{}")
            #expect(database.status == 400 && database.errorCode == .badRequest)
            let environment = try await alice.post("/database/1/\(TestServer.containerID)/staging/private/records/lookup", json: "{}")
            #expect(environment.errorCode == .badRequest)
            let negative = try await alice.post(alice.path(.private, "changes/database"), DatabaseChangesRequest(resultsLimit: -1))
            #expect(negative.errorCode == .badRequest)
        }
    }

    /// Garbage of every shape at every endpoint: a CloudKit error or a success, never a crash or a 500.
    @Test func garbageNeverGetsAnInternalError() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            let endpoints = ["records/modify", "records/lookup", "records/changes", "changes/zone", "changes/database",
                             "zones/lookup", "zones/modify"]
            let bodies = ["", "null", "0", "\"x\"", "[[[[", "{\"operations\":null}", "{\"operations\":[{}]}",
                          "{\"records\":[{\"recordName\":7}]}", "{\"zones\":[{\"zoneID\":{\"zoneName\":\"\"}}]}",
                          "{\"zones\":[{\"zoneID\":{}, \"syncToken\":\"\\u0000\"}]}", "{\"syncToken\":\"////\"}",
                          "{\"operations\":[{\"operationType\":\"create\",\"zone\":{\"zoneID\":{\"zoneName\":\"\(String(repeating: "z", count: 300))\"}}}]}",
                          "{\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordType\":\"T\",\"fields\":{\"f\":{\"value\":1e400}}}}]}",
                          "{\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordType\":\"T\",\"fields\":{\"f\":{\"value\":[[1]]}}}}]}"]
            for endpoint in endpoints {
                for body in bodies {
                    let response = try await alice.post(alice.path(.private, endpoint), json: body)
                    #expect(response.status != 500, "\(endpoint) \(body): \(response.text)")
                    if response.status != 200 {
                        #expect(response.error?.uuid.isEmpty == false, "\(endpoint) \(body): \(response.text)")
                        #expect(response.headers.first(name: "X-Apple-Request-UUID") == response.error?.uuid)
                    }
                }
            }
        }
    }
}
