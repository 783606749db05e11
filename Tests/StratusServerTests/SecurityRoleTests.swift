import Foundation
import Testing
import StratusCore
import StratusServer
import StratusTesting

/// The public database's security roles, as CloudKit's: `_world`, `_icloud`, `_creator` and the
/// schema's own roles given to users, with READ, CREATE and WRITE per record type.
@Suite struct SecurityRoleTests {
    static let schema = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;

            RECORD TYPE Post (
                body STRING QUERYABLE,
                GRANT READ TO "_icloud",
                GRANT CREATE TO "_icloud",
                GRANT WRITE TO "_creator",
                GRANT WRITE TO Moderator
            );
            RECORD TYPE Diary (
                text STRING QUERYABLE,
                GRANT CREATE TO "_icloud",
                GRANT READ, WRITE TO "_creator"
            );
            RECORD TYPE Notice (
                text STRING QUERYABLE,
                GRANT READ TO "_world",
                GRANT CREATE, WRITE TO Moderator
            );
        """

    static func create(_ name: String, _ type: String) -> RecordOperation {
        .create(name, type: type, [type == "Post" ? "body" : "text": .string(name)])
    }

    static func update(_ record: Record) -> RecordOperation {
        RecordOperation(.update, Record(recordName: record.recordName, recordType: record.recordType,
                                        recordChangeTag: record.recordChangeTag, fields: ["body": .string("edited")]))
    }

    @Test func withoutGrantsEveryoneReadsSignedInUsersCreateAndCreatorsWrite() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let post = try #require(try await alice.save([.create("p", type: "Thing")], database: .public).first)
            #expect(try await server.anonymous.lookup(["p"], database: .public).first?.record?.recordName == "p")
            let anonymous = try await server.anonymous.post(server.anonymous.path(.public, "records/modify"),
                                                            RecordsModifyRequest(operations: [.create("q", type: "Thing")]))
            #expect(anonymous.errorCode == .authenticationRequired)
            let bobs = try await bob.modify([Self.update(post)], database: .public)
            #expect(bobs.first?.error?.serverErrorCode == .accessDenied)
            #expect(try await alice.modify([Self.update(post)], database: .public).first?.record != nil)
        }
    }

    @Test func grantsDecideWhoReadsCreatesAndWrites() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            let anonymous = server.anonymous

            // Post: signed-in users read and create; the creator and moderators write.
            let post = try #require(try await alice.save([Self.create("post", "Post")], database: .public).first)
            #expect(try await anonymous.lookup(["post"], database: .public).first?.error?.serverErrorCode == .authenticationRequired)
            let anonymousQuery = try await anonymous.post(anonymous.path(.public, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Post")))
            #expect(anonymousQuery.errorCode == .authenticationRequired)
            #expect(try await bob.lookup(["post"], database: .public).first?.record?.recordName == "post")
            #expect(try await bob.modify([Self.update(post)], database: .public).first?.error?.serverErrorCode == .accessDenied)
            #expect(try await server.server.setUserRole("Moderator", granted: true, username: bob.username!,
                                                        container: TestServer.containerID, environment: .development))
            #expect(try await bob.modify([Self.update(post)], database: .public).first?.record != nil, "a moderator writes")

            // Diary: each creator reads their own; a query returns only them.
            _ = try await alice.save([Self.create("a1", "Diary"), Self.create("a2", "Diary")], database: .public)
            _ = try await bob.save([Self.create("b1", "Diary")], database: .public)
            #expect(try await bob.query(CloudQuery(recordType: "Diary"), database: .public).records.compactMap(\.recordName) == ["b1"])
            #expect(try await alice.query(CloudQuery(recordType: "Diary"), database: .public).records.compactMap(\.recordName) == ["a1", "a2"])
            #expect(try await bob.lookup(["a1", "b1"], database: .public).map { $0.error?.serverErrorCode } == [.accessDenied, nil])
            let diaryQuery = try await anonymous.post(anonymous.path(.public, "records/query"), RecordsQueryRequest(query: CloudQuery(recordType: "Diary")))
            #expect(diaryQuery.errorCode == .authenticationRequired)
            // Notifications would name others' diaries: no subscription without READ on all of them.
            let subscription = CloudSubscription(subscriptionID: "diaries", subscriptionType: .query, query: CloudQuery(recordType: "Diary"),
                                            firesOn: [.create])
            let subscribed = try await bob.post(bob.path(.public, "subscriptions/modify"),
                                                SubscriptionsModifyRequest(operations: [.init(.create, subscription)]))
                .decode(SubscriptionsResponse.self)
            #expect(subscribed.subscriptions.first?.error?.serverErrorCode == .accessDenied)

            // Notice: everyone reads, only moderators create.
            #expect(try await alice.modify([Self.create("n1", "Notice")], database: .public).first?.error?.serverErrorCode == .accessDenied)
            _ = try await bob.save([Self.create("n1", "Notice")], database: .public)
            #expect(try await anonymous.query(CloudQuery(recordType: "Notice"), database: .public).records.compactMap(\.recordName) == ["n1"])

            // A role taken away no longer counts; roles are per environment.
            #expect(try await server.server.setUserRole("Moderator", granted: false, username: bob.username!,
                                                        container: TestServer.containerID, environment: .development))
            #expect(try await bob.modify([Self.create("n2", "Notice")], database: .public).first?.error?.serverErrorCode == .accessDenied)
            await #expect(throws: CloudKitError.self) {
                try await server.server.setUserRole("Moderator", granted: true, username: bob.username!,
                                                    container: TestServer.containerID, environment: .production)
            }
        }
    }

    @Test func productionEnforcesTheDeployedGrants() async throws {
        try await TestServer.with { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            let changes = try await server.server.deploySchema(container: TestServer.containerID)
            #expect(changes.contains(.addRole("Moderator")))
            let alice = try await server.signUp("alice", environment: "production")
            let bob = try await server.signUp("bob", environment: "production")
            _ = try await alice.save([Self.create("a1", "Diary")], database: .public)
            _ = try await bob.save([Self.create("b1", "Diary")], database: .public)
            #expect(try await bob.query(CloudQuery(recordType: "Diary"), database: .public).records.compactMap(\.recordName) == ["b1"])
            let export = try await server.server.exportSchema(container: TestServer.containerID, environment: .production)
            #expect(export.contains("CREATE ROLE Moderator;") && export.contains("GRANT READ, WRITE TO \"_creator\""))
            #expect(try SchemaText.parse(export) == SchemaText.parse(Self.schema), "the deployed schema exports as it was imported")
        }
    }

    /// `stratus user role add|list|remove`.
    @Test func roleCommands() async throws {
        let directory = TestServer.temporaryDirectory()
        let username = try await TestServer.with(dataDirectory: directory) { server in
            try await server.server.importSchema(Self.schema, container: TestServer.containerID)
            return try await server.signUp("carol").username!
        }
        let location = ["--data", directory.path, "--container", TestServer.containerID]
        let added = try await ServerProcess.run(["user", "role", "add", username, "Moderator"] + location)
        #expect(added.status == 0 && added.output.contains("\(username) now holds Moderator"), "\(added.output)")
        await #expect(try ServerProcess.run(["user", "role", "list", username] + location).output.split(separator: "\n").last == "Moderator")
        await #expect(try ServerProcess.run(["user", "role", "list", username, "--environment", "production"] + location)
            .output.split(separator: "\n").contains("Moderator") == false)
        for refused in [["add", username, "Nobody"], ["add", username, "_icloud"], ["add", "no-such-user", "Moderator"],
                        ["add", username, "Moderator", "--environment", "staging"]] {
            await #expect(try ServerProcess.run(["user", "role"] + refused + location).status != 0, "\(refused)")
        }
        await #expect(try ServerProcess.run(["user", "role", "remove", username, "Moderator"] + location).output.contains("no longer holds"))
    }
}
