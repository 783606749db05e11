import Foundation
import Testing
import StratusCore

@Suite struct DatabaseScopeTests {
    @Test func anotherUsersPrivateZoneIsInvisibleAndUnwritable() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            try await alice.createZone("Diary")
            _ = try await alice.save([.create("secret", ["text": .string("dear diary")])], zone: "Diary")

            let bobsZones = try await bob.get(bob.path(.private, "zones/list")).decode(ZonesResponse.self)
            #expect(bobsZones.zones.compactMap(\.zone?.zoneID.zoneName) == ["_defaultZone"])

            let aliceZone = ZoneID(zoneName: "Diary", ownerRecordName: alice.userRecordName)
            let lookup = try await bob.post(bob.path(.private, "zones/lookup"), ZonesLookupRequest(zones: [aliceZone]))
                .decode(ZonesResponse.self)
            #expect({ if case .failure(let error) = lookup.zones.first { error.serverErrorCode == .zoneNotFound } else { false } }())

            let read = try await bob.post(bob.path(.private, "records/lookup"),
                                          RecordsLookupRequest(records: [.init(recordName: "secret")], zoneID: aliceZone))
            #expect(read.status == 404 && read.errorCode == .zoneNotFound)
            let write = try await bob.post(bob.path(.private, "records/modify"), RecordsModifyRequest(
                operations: [RecordOperation(.forceDelete, Record(recordName: "secret"))], zoneID: aliceZone))
            #expect(write.errorCode == .zoneNotFound)
            let changes = try await bob.post(bob.path(.private, "changes/zone"), ZoneChangesRequest(zones: [.init(zoneID: aliceZone)]))
                .decode(ZoneChangesResponse.self)
            #expect(changes.zones.first?.changes == nil)

            let stillThere = try await alice.lookup(["secret"], zone: "Diary")
            #expect(stillThere.first?.record?.fields["text"] == .string("dear diary"))
        }
    }

    @Test func publicDatabaseRoles() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let saved = try await alice.save([.create("post", type: "Post", ["title": .string("hi")])], database: .public)

            let anonymousRead = try await server.anonymous.lookup(["post"], database: .public)
            #expect(anonymousRead.first?.record?.fields["title"] == .string("hi"))

            let anonymousWrite = try await server.anonymous.post(server.anonymous.path(.public, "records/modify"),
                                                                 RecordsModifyRequest(operations: [.create("p2", type: "Post")]))
            #expect(anonymousWrite.status == 421 && anonymousWrite.errorCode == .authenticationRequired)

            let bobUpdate = try await bob.modify([RecordOperation(.update, Record(recordName: "post", recordChangeTag: saved[0].recordChangeTag,
                                                                                     fields: ["title": .string("mine now")]))], database: .public)
            #expect(bobUpdate.first?.error?.serverErrorCode == .accessDenied)
            let bobDelete = try await bob.modify([RecordOperation(.forceDelete, Record(recordName: "post"))], database: .public)
            #expect(bobDelete.first?.error?.serverErrorCode == .accessDenied)
            let bobCreate = try await bob.save([.create("bobs", type: "Post")], database: .public)
            #expect(bobCreate.first?.created?.userRecordName == bob.userRecordName)

            let customZone = try await alice.post(alice.path(.public, "zones/modify"), ZonesModifyRequest(operations: [.init(.create, ZoneID(zoneName: "Z"))]))
            #expect(customZone.errorCode == .badRequest)
            let feed = try await alice.post(alice.path(.public, "changes/database"), DatabaseChangesRequest())
            #expect(feed.errorCode == .badRequest)
        }
    }

    @Test func sharedDatabaseIsEmptyUntilSharingExists() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let zones = try await alice.get(alice.path(.shared, "zones/list")).decode(ZonesResponse.self)
            #expect(zones.zones.isEmpty)
            let changes = try await alice.databaseChanges(database: .shared)
            #expect(changes.zones.isEmpty && !changes.moreComing)
            let lookup = try await alice.post(alice.path(.shared, "records/lookup"), RecordsLookupRequest(records: [.init(recordName: "x")]))
            #expect(lookup.errorCode == .zoneNotFound)
        }
    }
}
