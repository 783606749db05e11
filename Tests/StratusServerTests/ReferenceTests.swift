import Foundation
import Testing
import StratusCore

@Suite struct ReferenceTests {
    static func reference(_ name: String, _ action: Reference.Action) -> FieldValue {
        .reference(Reference(recordName: name, action: action))
    }

    @Test func deleteSelfCascadesTransitively() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Lists")
            _ = try await alice.save([
                .create("list", type: "List"),
                .create("item1", type: "Item", ["list": Self.reference("list", .deleteSelf)]),
                .create("item2", type: "Item", ["lists": .list(.reference, [Self.reference("list", .deleteSelf)])]),
                .create("sub", type: "Sub", ["item": Self.reference("item1", .deleteSelf)]),
                .create("loose", type: "Item", ["list": Self.reference("list", .none)]),
            ], zone: "Lists")
            let token = try await alice.allZoneChanges("Lists").token
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "list"))], zone: "Lists")

            let lookup = try await alice.lookup(["list", "item1", "item2", "sub", "loose"], zone: "Lists")
            #expect(lookup.map { $0.record != nil } == [false, false, false, false, true])
            let changes = try await alice.allZoneChanges("Lists", from: token)
            #expect(Set(changes.records.compactMap(\.recordName)) == ["list", "item1", "item2", "sub"])
            #expect(changes.records.allSatisfy { $0.deleted == true })
        }
    }

    @Test func cascadeInTheDefaultZoneToo() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("p"), .create("c", ["p": Self.reference("p", .deleteSelf)])])
            _ = try await alice.save([RecordOperation(.forceDelete, Record(recordName: "p"))])
            #expect(try await alice.lookup(["c"])[0].error?.serverErrorCode == .notFound)
        }
    }

    @Test func validateNeedsTargetAndBlocksItsDeletion() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            let missing = try await alice.modify([.create("src", ["t": Self.reference("target", .validate)])], zone: "Z")
            #expect(missing[0].error?.serverErrorCode == .validatingReferenceError)

            _ = try await alice.save([.create("target"), .create("src", ["t": Self.reference("target", .validate)])], zone: "Z")
            let blocked = try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "target"))], zone: "Z")
            #expect(blocked[0].error?.serverErrorCode == .validatingReferenceError)
            #expect(try await alice.lookup(["target"], zone: "Z")[0].record != nil)

            _ = try await alice.save([RecordOperation(.forceUpdate, Record(recordName: "src", fields: ["t": FieldValue?.none]))], zone: "Z")
            let allowed = try await alice.modify([RecordOperation(.forceDelete, Record(recordName: "target"))], zone: "Z")
            #expect(allowed[0].record?.deleted == true)
        }
    }

    @Test func referencesCannotCrossZones() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            let crossing = FieldValue.reference(Reference(recordName: "x", zoneID: ZoneID(zoneName: "Other"), action: Reference.Action.none))
            let result = try await alice.modify([.create("r", ["ref": crossing])], zone: "Z")
            #expect(result[0].error?.serverErrorCode == .badRequest)
        }
    }
}
