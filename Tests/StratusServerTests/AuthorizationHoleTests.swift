import Foundation
import Testing
import StratusCore

/// Holes found by reading the code: what a participant or another user of the public database
/// could reach through references, markers and errors.
@Suite struct AuthorizationHoleTests {
    static func item(_ name: String, parent: String? = nil, _ fields: [String: FieldValue] = [:]) -> RecordOperation {
        RecordOperation(.create, Record(recordName: name, recordType: "Item", fields: fields, parent: parent.map(RecordPointer.init)))
    }

    static func reference(_ target: String, _ action: Reference.Action) -> FieldValue {
        .reference(Reference(recordName: target, action: action))
    }

    /// Alice shares "list" (with "item") read-write with Bob, who accepts; "outside" is not shared.
    static func sharedWithBob(_ server: TestServer, outside: [RecordOperation]) async throws -> (alice: Caller, bob: Caller) {
        let bob = try await server.signUp("bob")
        let alice = try await server.signUp("alice")
        try await alice.createZone("Lists")
        _ = try await alice.save([item("list"), item("item", parent: "list")] + outside, zone: "Lists")
        let share = try await alice.share("list", zone: "Lists", participants: [(bob.username!, .readWrite)])
        _ = try await bob.shareMetadata(try #require(share.shareKeys?.shortGUID), accept: true)
        return (alice, bob)
    }

    /// CloudKit's rule: a `DELETE_SELF` source goes with its target whoever may write it, so a
    /// participant's deletion reaches the owner's record outside the share; the participant hears
    /// only of what they may read.
    @Test func aParticipantsDeleteCascadesAsCloudKitsAndReportsOnlyWhatTheyMayRead() async throws {
        try await TestServer.with { server in
            // Alice's unshared record deletes itself with "item" (DELETE_SELF).
            let (alice, bob) = try await Self.sharedWithBob(server, outside: [Self.item("outside", ["of": Self.reference("item", .deleteSelf)])])
            let zone = ZoneID(zoneName: "Lists", ownerRecordName: alice.userRecordName)
            let before = try await bob.post(bob.path(.shared, "changes/zone"), ZoneChangesRequest(zones: [.init(zoneID: zone)]))
                .decode(ZoneChangesResponse.self).zones.first?.changes?.syncToken
            let deleted = try await bob.modify([RecordOperation(.forceDelete, Record(recordName: "item"))], zone: "Lists", owner: alice.userRecordName)
            #expect(deleted.first?.error == nil)
            #expect(try await alice.lookup(["outside"], zone: "Lists", owner: nil).first?.error?.serverErrorCode == .notFound,
                    "the referencing record goes with its target, as in CloudKit")
            let after = try await bob.post(bob.path(.shared, "changes/zone"), ZoneChangesRequest(zones: [.init(zoneID: zone, syncToken: before)]))
            #expect(after.text.contains("\"item\"") && !after.text.contains("outside"), "Bob's feed: \(after.text)")
        }
    }

    /// A record is the target of at most 750 `DELETE_SELF` references (CloudKit's limit): the next
    /// save that would add one gets `LIMIT_EXCEEDED`; saving one of the 750 again is fine.
    @Test func aRecordIsTheTargetOfAtMost750DeleteSelfReferences() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            try await alice.createZone("Lists")
            _ = try await alice.save([Self.item("target")], zone: "Lists")
            for start in stride(from: 0, to: 750, by: 250) {
                _ = try await alice.save((start..<start + 250).map { Self.item("r\($0)", ["of": Self.reference("target", .deleteSelf)]) }, zone: "Lists")
            }
            let refused = try await alice.modify([Self.item("r750", ["of": Self.reference("target", .deleteSelf)])], zone: "Lists", owner: nil)
            #expect(refused.first?.error?.serverErrorCode == .limitExceeded, "\(String(describing: refused.first?.error))")
            let again = try await alice.modify([RecordOperation(.forceUpdate, Record(recordName: "r0", recordType: "Item",
                                                                                    fields: ["of": Self.reference("target", .deleteSelf), "n": .int64(1)]))],
                                               zone: "Lists", owner: nil)
            #expect(again.first?.error == nil, "\(String(describing: again.first?.error))")
            #expect(try await alice.modify([Self.item("plain", ["of": Self.reference("target", .none)])], zone: "Lists", owner: nil).first?.error == nil,
                    "a reference without an action does not count")
        }
    }

    @Test func validateErrorsNeverNameRecordsTheCallerCannotSee() async throws {
        try await TestServer.with { server in
            let (alice, bob) = try await Self.sharedWithBob(server, outside: [Self.item("secret-name", ["of": Self.reference("item", .validate)])])
            let refused = try await bob.modify([RecordOperation(.forceDelete, Record(recordName: "item"))], zone: "Lists", owner: alice.userRecordName)
            let error = try #require(refused.first?.error)
            #expect(error.serverErrorCode == .validatingReferenceError)
            #expect(!error.reason.contains("secret-name"), "\(error.reason)")
            // Nor can Bob probe for records outside the share by pointing a VALIDATE reference at them.
            let probe = try await bob.modify([Self.item("probe", parent: "list", ["to": Self.reference("secret-name", .validate)])],
                                             zone: "Lists", owner: alice.userRecordName)
            #expect(probe.first?.error?.serverErrorCode == .validatingReferenceError)
        }
    }

    @Test func anotherUsersValidateReferenceCannotPinAPublicRecordButTheirDeleteSelfOneFollowsIt() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let mallory = try await server.signUp("mallory")
            _ = try await alice.save([Self.item("mine")], database: .public)
            _ = try await mallory.save([Self.item("pin", ["to": Self.reference("mine", .validate)]),
                                        Self.item("doomed", ["to": Self.reference("mine", .deleteSelf)])], database: .public)
            let deleted = try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "mine"))], database: .public)
            #expect(deleted.first?.error == nil, "\(String(describing: deleted.first?.error))")
            #expect(try await alice.lookup(["mine"], database: .public).first?.error?.serverErrorCode == .notFound)
            #expect(try await mallory.lookup(["doomed"], database: .public).first?.error?.serverErrorCode == .notFound,
                    "Mallory's DELETE_SELF record goes with Alice's, as in CloudKit")
        }
    }

    @Test func aParticipantsQueryMarkersCarryOnlyTheShare() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema("""
                DEFINE SCHEMA
                    RECORD TYPE Item (name STRING QUERYABLE SORTABLE);
                """, container: TestServer.containerID)
            // Unshared records sort between the shared ones.
            let outside = (0..<6).map { Self.item("hidden-\($0)", ["name": .string("b\($0)")]) }
            let (alice, bob) = try await Self.sharedWithBob(server, outside: outside)
            _ = try await alice.save([Self.item("z-last", parent: "list", ["name": .string("c")])], zone: "Lists")
            _ = try await alice.modify([RecordOperation(.forceUpdate, Record(recordName: "list", recordType: "Item", fields: ["name": .string("a")]))],
                                       zone: "Lists", owner: nil)
            var names: [String] = []
            var marker: String?
            repeat {
                let request = RecordsQueryRequest(query: CloudQuery(recordType: "Item", sortBy: [QuerySort(fieldName: "name")]),
                                                  zoneID: ZoneID(zoneName: "Lists", ownerRecordName: alice.userRecordName),
                                                  resultsLimit: 1, continuationMarker: marker)
                let page = try await bob.post(bob.path(.shared, "records/query"), request).decode(RecordsQueryResponse.self)
                names += page.records.compactMap(\.recordName)
                marker = page.continuationMarker
                if let marker {
                    let bytes = Data(base64Encoded: marker.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                        .padding(toLength: (marker.count + 3) / 4 * 4, withPad: "=", startingAt: 0)) ?? Data()
                    #expect(!String(decoding: bytes, as: UTF8.self).contains("hidden"))
                }
            } while marker != nil
            #expect(!names.contains { $0.hasPrefix("hidden") })
            #expect(names.filter { $0 != "item" } == ["list", "z-last"], "Bob pages through the shared records only: \(names)")
        }
    }

    /// Bob's shared-database subscription fires once (and is then removed) on the first change
    /// he may see: a change to Alice's records outside his share must not fire it.
    @Test func participantsHearOnlyOfChangesInTheirShare() async throws {
        try await TestServer.with { server in
            let (alice, bob) = try await Self.sharedWithBob(server, outside: [Self.item("outside")])
            let subscription = CloudSubscription(subscriptionID: "shared", subscriptionType: .database, firesOnce: true)
            _ = try await bob.post(bob.path(.shared, "subscriptions/modify"),
                                   SubscriptionsModifyRequest(operations: [.init(.create, subscription)])).decode(SubscriptionsResponse.self)
            _ = try await PushBoundsTests.connect(PushBoundsTests.webSocketURL(bob), messages: 1) {
                // Connected (the catch-up notification came): Alice changes a record Bob cannot see.
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "outside", recordType: "Item", fields: ["v": .int64(1)]))],
                                         zone: "Lists")
                let afterOutside = try await bob.get(bob.path(.shared, "subscriptions/list")).decode(SubscriptionsResponse.self)
                #expect(afterOutside.subscriptions.count == 1, "a change outside Bob's share must not notify him")
                _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "item", recordType: "Item", fields: ["v": .int64(1)]))],
                                         zone: "Lists")
                // The notification goes out after the save is answered, and the fired subscription
                // is removed after that: wait for it (a loaded machine took longer than one read).
                var remaining = 1
                let deadline = ContinuousClock.now + .seconds(30)
                while remaining > 0 && ContinuousClock.now < deadline {
                    remaining = try await bob.get(bob.path(.shared, "subscriptions/list")).decode(SubscriptionsResponse.self).subscriptions.count
                    if remaining > 0 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(remaining == 0, "a change inside the share notifies him (and the fire-once subscription goes)")
            }
        }
    }
}
