import Foundation
import Testing
import StratusCore
import StratusServer
import StratusTesting

@Suite struct SchemaTests {
    @Test func developmentSchemaGrowsAsRecordsAreSaved() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("n1", ["title": .string("a"), "count": .int64(1)]),
                                      .create("t1", type: "Tag", ["names": .list(.string, [.string("x")])])])
            let schema = try SchemaText.parse(try await server.server.exportSchema(container: TestServer.containerID, environment: .development))
            #expect(schema.recordTypes["Note"]?.fields["title"]?.type == .scalar(.string))
            #expect(schema.recordTypes["Note"]?.fields["count"]?.type == .scalar(.int64))
            #expect(schema.recordTypes["Tag"]?.fields["names"]?.type == .list(.string))
            #expect(try await server.server.exportSchema(container: TestServer.containerID, environment: .production) == "DEFINE SCHEMA\n")
        }
    }

    @Test func fieldTypesAreFixedOnceSetButUntypedValuesFollowTheSchema() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            _ = try await alice.save([.create("n1", ["price": .double(1.5), "at": .timestamp(5), "scores": .list(.double, [.double(1)])])])
            let mismatch = try await alice.modify([.create("n2", ["price": .string("cheap")])])
            #expect(mismatch[0].error?.serverErrorCode == .badRequest)
            #expect(mismatch[0].error?.reason.contains("field 'Note.price' is DOUBLE, not STRING") == true)
            // JSON without types: 2 reads as INT64, [] as an empty STRING_LIST; the schema types them.
            let untyped = #"{"operations":[{"operationType":"create","record":{"recordName":"n3","recordType":"Note","fields":{"price":{"value":2},"at":{"value":7},"scores":{"value":[]}}}}]}"#
            let records = try await alice.post(alice.path(.private, "records/modify"), json: untyped).decode(RecordsResponse.self).records
            #expect(records[0].record?.fields == ["price": .double(2), "at": .timestamp(7), "scores": .list(.double, [])])
        }
    }

    @Test func productionAcceptsOnlyWhatWasDeployed() async throws {
        try await TestServer.with { server in
            let developer = try await server.signUp()
            let user = try await server.signUp("user", environment: "production")
            let unknownType = try await user.modify([.create("n1", ["title": .string("a")])])
            #expect(unknownType[0].error?.serverErrorCode == .badRequest)
            #expect(unknownType[0].error?.reason.contains("record type 'Note' is not in the production schema") == true)

            _ = try await developer.save([.create("n1", ["title": .string("a")])])
            let changes = try await server.server.deploySchema(container: TestServer.containerID)
            #expect(changes.contains(.addField(recordType: "Note", field: FieldSchema(name: "title", type: .scalar(.string)))))

            #expect(try await user.save([.create("n1", ["title": .string("a")])]).count == 1)
            let unknownField = try await user.modify([.create("n2", ["title": .string("b"), "body": .string("c")])])
            #expect(unknownField[0].error?.reason.contains("record type 'Note' has no field 'body' in the production schema") == true)
            let wrongType = try await user.modify([.create("n3", ["title": .int64(3)])])
            #expect(wrongType[0].error?.reason.contains("field 'Note.title' is STRING, not INT64") == true)
            #expect(try await user.lookup(["n2", "n3"]).allSatisfy { $0.error?.serverErrorCode == .notFound })
        }
    }

    @Test func schemaGrowthOfAFailedAtomicBatchIsUndone() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp()
            try await alice.createZone("Z")
            _ = try await alice.save([.create("taken")], zone: "Z")
            let results = try await alice.modify([.create("a", type: "Fresh", ["novel": .int64(1)]), .create("taken")], zone: "Z")
            #expect(results[0].error?.serverErrorCode == .atomicError)
            let schema = try SchemaText.parse(try await server.server.exportSchema(container: TestServer.containerID, environment: .development))
            #expect(schema.recordTypes["Fresh"] == nil)
        }
    }

    @Test func deployIsAdditiveOnly() async throws {
        try await TestServer.with { server in
            let stratus = server.server
            try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE A (x STRING QUERYABLE, y INT64);", container: TestServer.containerID)
            #expect(try await stratus.deploySchema(container: TestServer.containerID).count == 2)
            #expect(try await stratus.deploySchema(container: TestServer.containerID).isEmpty)

            try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE A (x STRING QUERYABLE SORTABLE);", container: TestServer.containerID)
            await #expect {
                try await stratus.deploySchema(container: TestServer.containerID)
            } throws: { ($0 as? SchemaConflict)?.problems == ["field 'A.y' would be removed"] }
            let production = try SchemaText.parse(try await stratus.exportSchema(container: TestServer.containerID, environment: .production))
            #expect(production.recordTypes["A"]?.fields["y"] != nil, "a refused deploy changes nothing")
            #expect(production.recordTypes["A"]?.fields["x"]?.indexes == [.queryable])

            await #expect(throws: SchemaTextError.self) {
                try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE A (x FLOAT);", container: TestServer.containerID)
            }
        }
    }

    /// An encrypted field in the schema (issue 68, its first part): kept as declared through
    /// import, export and deploy, never converted from or to plain, refused in filters and sorts
    /// (how their values are sealed is EncryptedFieldTests').
    @Test func encryptedFieldsAreKeptAndRefusedInQueries() async throws {
        try await TestServer.with { server in
            let stratus = server.server
            let container = TestServer.containerID
            try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE, secret ENCRYPTED STRING, readings LIST<ENCRYPTED DOUBLE>);",
                                           container: container)
            #expect(try await stratus.deploySchema(container: container).map(\.description).contains("+ field Note.secret ENCRYPTED_STRING"))
            for environment in [ContainerEnvironment.development, .production] {
                let exported = try await stratus.exportSchema(container: container, environment: environment)
                #expect(exported.contains("secret    ENCRYPTED STRING") && exported.contains("LIST<ENCRYPTED DOUBLE>"), "\(exported)")
            }
            await #expect {
                try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE, secret STRING, readings LIST<ENCRYPTED DOUBLE>);",
                                               container: container)
            } throws: { "\($0)".contains("field 'Note.secret' is ENCRYPTED_STRING and cannot become STRING") }
            await #expect {
                try await stratus.importSchema("DEFINE SCHEMA RECORD TYPE Note (title ENCRYPTED STRING, secret ENCRYPTED STRING, readings LIST<ENCRYPTED DOUBLE>);",
                                               container: container)
            } throws: { "\($0)".contains("field 'Note.title' is STRING and cannot become ENCRYPTED_STRING") }

            let alice = try await server.signUp()
            _ = try await alice.save([.create("n2", ["title": .string("plain"), "secret": .string("my secret")])])
            for (filter, sort) in [(#"[{"fieldName":"secret","comparator":"EQUALS","fieldValue":{"value":"x"}}]"#, "[]"),
                                   ("[]", #"[{"fieldName":"secret"}]"#)] {
                let query = #"{"query":{"recordType":"Note","filterBy":\#(filter),"sortBy":\#(sort)}}"#
                let answer = try await alice.post(alice.path(.private, "records/query"), json: query)
                #expect(answer.status == 400 && answer.errorCode == .badRequest)
                #expect(answer.text.contains("an encrypted field cannot be filtered or sorted"), "\(answer.text)")
            }
        }
    }

    /// `stratus schema import`, `export` and `deploy`, run as a user runs them.
    @Test func schemaCommands() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { _ in }
        let file = directory.appendingPathComponent("schema.ckdb")
        try "DEFINE SCHEMA\n RECORD TYPE Item (name STRING QUERYABLE, qty INT64);\n".write(to: file, atomically: true, encoding: .utf8)
        let location = ["--data", directory.path, "--container", TestServer.containerID]

        await #expect(try ServerProcess.run(["schema", "import", file.path] + location).status == 0)
        let export = try await ServerProcess.run(["schema", "export"] + location)
        #expect(export.output.contains("name  STRING QUERYABLE"))
        let deploy = try await ServerProcess.run(["schema", "deploy"] + location)
        #expect(deploy.status == 0 && deploy.output.contains("+ field Item.name STRING"))
        await #expect(try ServerProcess.run(["schema", "deploy"] + location).output.contains("production is up to date"))

        try "DEFINE SCHEMA\n RECORD TYPE Item (name INT64);\n".write(to: file, atomically: true, encoding: .utf8)
        await #expect(try ServerProcess.run(["schema", "import", file.path] + location).status == 0)
        let refused = try await ServerProcess.run(["schema", "deploy"] + location)
        #expect(refused.status != 0)
        #expect(refused.output.contains("'Item.name' would change type from STRING to INT64"))
        #expect(refused.output.contains("'Item.qty' would be removed"))
    }
}
