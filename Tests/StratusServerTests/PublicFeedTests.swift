import AsyncHTTPClient
import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// The public database's change feed (issue 66) through real HTTP, on the backend the suite runs
/// on: each caller sees only what it may read now, a change of its rights expires its token, pages
/// scan a bounded number of changes, and zone subscriptions hear only of readable changes.
@Suite struct PublicFeedTests {
    typealias Kind = AuthorizationMatrixTests.PublicCaller

    /// The matrix's five types (READ to `_world`, `_icloud`, `_creator`, the `Reader` role, no one),
    /// a record of each by the creator and one of the `_creator` type by another user.
    static func populated(_ server: TestServer) async throws -> [Kind: Caller] {
        try await server.server.importSchema(AuthorizationMatrixTests.publicSchema, container: TestServer.containerID)
        var callers: [Kind: Caller] = [.world: server.anonymous]
        for kind in [Kind.icloud, .creator, .roleHolder] { callers[kind] = try await server.signUp(kind.rawValue) }
        _ = try await server.server.setUserRole("Reader", granted: true, username: callers[.roleHolder]!.username!,
                                                container: TestServer.containerID, environment: .development)
        _ = try await callers[.creator]!.save(AuthorizationMatrixTests.publicTypes.map { .create("of-\($0.type)", type: $0.type) }, database: .public)
        _ = try await callers[.icloud]!.save([.create("theirs", type: "ByCreator")], database: .public)
        return callers
    }

    /// The record names `kind` may read among the populated ones.
    static func readable(by kind: Kind) -> Set<String> {
        var names = Set(AuthorizationMatrixTests.publicTypes.filter { kind.canRead($0.reader) }.map { "of-\($0.type)" })
        if kind == .icloud { names.insert("theirs") }
        return names
    }

    @Test func eachCallerFetchesOnlyWhatItMayRead() async throws {
        try await TestServer.with { server in
            let callers = try await Self.populated(server)
            var tokens: [Kind: String] = [:]
            for (kind, caller) in callers {
                let (records, token) = try await caller.allZoneChanges(ZoneID.defaultZoneName, limit: 2, database: .public)
                #expect(Set(records.map(\.recordName)) == Self.readable(by: kind), "\(kind) fetched \(records.map(\.recordName))")
                tokens[kind] = token
            }
            // records/changes, CloudKit's older feed, answers the same.
            let older = try await callers[.world]!.post(callers[.world]!.path(.public, "records/changes"), RecordsChangesRequest(zoneID: .default))
                .decode(RecordsChangesResponse.self)
            #expect(Set(older.records.map(\.recordName)) == Self.readable(by: .world))

            // Deletions by the same rule: a tombstone keeps its type and creator.
            let creator = callers[.creator]!
            _ = try await creator.save(AuthorizationMatrixTests.publicTypes.map { RecordOperation(.forceDelete, Record(recordName: "of-\($0.type)")) },
                                       database: .public)
            _ = try await callers[.icloud]!.save([RecordOperation(.forceDelete, Record(recordName: "theirs"))], database: .public)
            for (kind, caller) in callers {
                let (records, _) = try await caller.allZoneChanges(ZoneID.defaultZoneName, from: tokens[kind], database: .public)
                #expect(Set(records.map(\.recordName)) == Self.readable(by: kind), "\(kind) fetched deletions of \(records.map(\.recordName))")
                #expect(records.allSatisfy { $0.deleted == true })
            }
            // A first sync leaves out what was deleted before it began.
            #expect(try await callers[.creator]!.allZoneChanges(ZoneID.defaultZoneName, database: .public).records.isEmpty)
        }
    }

    @Test func aChangeOfRightsExpiresTheToken() async throws {
        try await TestServer.with { server in
            let callers = try await Self.populated(server)
            let holder = callers[.roleHolder]!
            let first = try await holder.allZoneChanges(ZoneID.defaultZoneName, database: .public)
            #expect(Set(first.records.map(\.recordName)) == Self.readable(by: .roleHolder))
            // Rights unchanged: the token goes on, and hears of a new readable record.
            _ = try await callers[.creator]!.save([.create("later", type: "ByWorld")], database: .public)
            let next = try await holder.allZoneChanges(ZoneID.defaultZoneName, from: first.token, database: .public)
            #expect(next.records.map(\.recordName) == ["later"])

            _ = try await server.server.setUserRole("Reader", granted: false, username: holder.username!,
                                                    container: TestServer.containerID, environment: .development)
            let revoked = try await holder.zoneChanges(ZoneID.defaultZoneName, token: next.token, database: .public)
            #expect(revoked.error?.serverErrorCode == .changeTokenExpired, "\(revoked)")
            let again = try await holder.allZoneChanges(ZoneID.defaultZoneName, database: .public)
            #expect(Set(again.records.map(\.recordName)) == Self.readable(by: .icloud).subtracting(["theirs"]).union(["later"]))

            _ = try await server.server.setUserRole("Reader", granted: true, username: holder.username!,
                                                    container: TestServer.containerID, environment: .development)
            #expect(try await holder.zoneChanges(ZoneID.defaultZoneName, token: again.token, database: .public).error?.serverErrorCode
                    == .changeTokenExpired)
            // A token of another caller's rights does not pass either; one of a private zone is no public token.
            let worldToken = try await callers[.world]!.allZoneChanges(ZoneID.defaultZoneName, database: .public).token
            #expect(try await callers[.icloud]!.zoneChanges(ZoneID.defaultZoneName, token: worldToken, database: .public).error?.serverErrorCode
                    == .changeTokenExpired)
            let privateToken = try await holder.allZoneChanges(ZoneID.defaultZoneName).token
            #expect(try await holder.zoneChanges(ZoneID.defaultZoneName, token: privateToken, database: .public).error?.serverErrorCode
                    == .badRequest)
            // The public database has zone feeds only.
            #expect(try await holder.post(holder.path(.public, "changes/database"), DatabaseChangesRequest()).error?.serverErrorCode == .badRequest)
        }
    }

    @Test func aPageScansABoundedNumberOfChanges() async throws {
        try await TestServer.with(configure: { $0.maxPublicFeedScan = 10 }) { server in
            let callers = try await Self.populated(server)
            let creator = callers[.creator]!
            // 35 changes the world may not read, then 12 it may.
            for batch in 0..<5 {
                _ = try await creator.save((0..<7).map { .create("hidden-\(batch)-\($0)", type: "ByNone") }, database: .public)
            }
            _ = try await creator.save((0..<12).map { .create("shown-\($0)", type: "ByWorld") }, database: .public)
            let world = callers[.world]!
            var token: String?
            var pages: [ZoneChanges] = []
            repeat {
                let page = try #require(try await world.zoneChanges(ZoneID.defaultZoneName, token: token, limit: 5, database: .public).changes)
                pages.append(page)
                token = page.syncToken
            } while pages.last!.moreComing && pages.count < 20
            // 53 changes, at most 10 scanned a page: at least 6 pages, some empty with moreComing,
            // and where readable changes follow each other, full ones.
            let counts = pages.map(\.records.count)
            #expect(pages.count >= 6, "\(counts)")
            #expect(pages.dropLast().allSatisfy(\.moreComing) && !pages.last!.moreComing)
            #expect(pages.contains { $0.records.isEmpty && $0.moreComing }, "\(counts)")
            #expect(counts.max() == 5, "\(counts)")
            #expect(Set(pages.flatMap(\.records).map(\.recordName)) == Set(["of-ByWorld"] + (0..<12).map { "shown-\($0)" }))
        }
    }

    @Test func aZoneSubscriptionHearsOnlyOfReadableChanges() async throws {
        try await TestServer.with(configure: { $0.courierWait = .milliseconds(300) }) { server in
            let callers = try await Self.populated(server)
            let listener = callers[.icloud]!
            let subscription = CloudSubscription(subscriptionID: "catalogue", subscriptionType: .zone, zoneID: .default,
                                                 notificationInfo: NotificationInfo(shouldSendContentAvailable: true))
            let saved = try await listener.post(listener.path(.public, "subscriptions/modify"),
                                                SubscriptionsModifyRequest(operations: [.init(.create, subscription)])).decode(SubscriptionsResponse.self)
            #expect(saved.subscriptions.first?.value != nil, "\(saved)")
            // Only the public database's default zone: it has no other.
            let elsewhere = CloudSubscription(subscriptionID: "other", subscriptionType: .zone, zoneID: ZoneID(zoneName: "Elsewhere"))
            #expect(try await listener.post(listener.path(.public, "subscriptions/modify"), SubscriptionsModifyRequest(operations: [.init(.create, elsewhere)]))
                .decode(SubscriptionsResponse.self).subscriptions.first?.error?.serverErrorCode == .zoneNotFound)

            let courier = try await listener.post("/database/1/\(TestServer.containerID)/development/tokens/create", TokenCreateRequest())
                .decode(TokenCreateResponse.self).webcourierURL
            _ = try await AuthorizationMatrixTests.drain(courier, until: "\"met\"")
            // A change the listener may not read posts nothing (the hub has published when the save answers).
            _ = try await callers[.creator]!.save([.create("secret", type: "ByNone"), .create("mine", type: "ByCreator")], database: .public)
            let quiet = try await HTTPClient.shared.execute(HTTPClientRequest(url: courier), timeout: .seconds(30))
            #expect(quiet.status.code != 200, "the listener heard of a change it may not read")
            _ = try await callers[.creator]!.save([.create("news", type: "ByICloud")], database: .public)
            let heard = try await AuthorizationMatrixTests.drain(courier, until: "\"fet\"")
            #expect(heard.last?.contains("\"_defaultZone\"") == true, "\(heard)")
        }
    }
}
