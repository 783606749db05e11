import Foundation
import Testing
@testable import StratusCore

@Suite struct SchemaTextTests {
    static let cktoolExport = """
        DEFINE SCHEMA

            CREATE ROLE Editors;

            RECORD TYPE Note (
                "___createTime" TIMESTAMP,
                "___recordID"   REFERENCE QUERYABLE,
                modified        TIMESTAMP QUERYABLE SORTABLE,  // used for conflicts
                tags            LIST<STRING> QUERYABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                "text.body"     ASSET,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Users (
                "___createTime" TIMESTAMP,
                roles           LIST<INT64>,
                GRANT READ, CREATE, WRITE TO "_creator",
                GRANT READ TO "_world"
            );

            -- an empty type
            RECORD TYPE Empty ();
        """

    @Test func readsWhatCKToolExports() throws {
        let schema = try SchemaText.parse(Self.cktoolExport)
        #expect(schema.recordTypes.keys.sorted() == ["Empty", "Note", "Users"])
        // A grant of several permissions, as cktool writes them.
        #expect(schema.recordTypes["Users"]?.fields.keys.sorted() == ["roles"])
        let note = try #require(schema.recordTypes["Note"])
        #expect(note.fields.keys.sorted() == ["modified", "tags", "text.body", "title"])
        #expect(note.fields["modified"] == FieldSchema(name: "modified", type: .scalar(.timestamp), indexes: [.queryable, .sortable]))
        #expect(note.fields["tags"]?.type == .list(.string))
        #expect(note.fields["title"]?.indexes == [.queryable, .sortable, .searchable])
        #expect(note.fields["text.body"]?.type == .scalar(.asset))
    }

    /// CloudKit's grammar: `[ ENCRYPTED ] type`, in a list too; never indexed, never a
    /// reference or an asset; written back as read.
    @Test func encryptedFieldsReadAndWriteBack() throws {
        let schema = try SchemaText.parse("""
            DEFINE SCHEMA
                RECORD TYPE Note (
                    title    STRING QUERYABLE,
                    secret   ENCRYPTED STRING,
                    readings LIST<ENCRYPTED DOUBLE>,
                    "encrypted" encrypted bytes
                );
            """)
        let note = try #require(schema.recordTypes["Note"])
        #expect(note.fields["secret"] == FieldSchema(name: "secret", type: .scalar(.string), isEncrypted: true))
        #expect(note.fields["readings"] == FieldSchema(name: "readings", type: .list(.double), isEncrypted: true))
        #expect(note.fields["encrypted"]?.typeName == "ENCRYPTED_BYTES")
        #expect(note.fields["title"]?.isEncrypted == false)
        #expect(note.fields["readings"]?.typeName == "ENCRYPTED_DOUBLE_LIST")
        let text = SchemaText.format(schema)
        #expect(text.contains("secret       ENCRYPTED STRING,") && text.contains("readings     LIST<ENCRYPTED DOUBLE>,"), "\(text)")
        #expect(text.contains("\"encrypted\"  ENCRYPTED BYTES"), "a field named like the keyword is quoted: \(text)")
        #expect(try SchemaText.parse(text) == schema)

        for (line, problem) in [("secret ENCRYPTED STRING QUERYABLE", "field 'Note.secret' is encrypted: it cannot be QUERYABLE"),
                                ("secret ENCRYPTED STRING SORTABLE", "it cannot be SORTABLE"),
                                ("owner ENCRYPTED REFERENCE", "ENCRYPTED REFERENCE is not a CloudKit type"),
                                ("files LIST<ENCRYPTED ASSET>", "ENCRYPTED ASSET is not a CloudKit type"),
                                ("secret ENCRYPTED,", "unknown field type ','"),
                                ("secret ENCRYPTED LIST<STRING>", "unknown field type 'LIST'")] {
            #expect { try SchemaText.parse("DEFINE SCHEMA\nRECORD TYPE Note (\n\(line)\n);") } throws: { error in
                guard let error = error as? SchemaTextError else { return false }
                return error.line == 3 && error.message.contains(problem)
            }
        }
    }

    @Test func theExampleSchemaFileReads() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/Schema/notes.ckdb").standardized
        let schema = try SchemaText.parse(try String(contentsOf: file, encoding: .utf8))
        #expect(schema.recordTypes["note"]?.fields["text"]?.type == .scalar(.asset))
        #expect(schema.recordTypes["tag"]?.fields["notes"]?.type == .list(.reference))
    }

    @Test func formatReadsBackTheSame() throws {
        let schema = try SchemaText.parse(Self.cktoolExport)
        let text = SchemaText.format(schema)
        #expect(try SchemaText.parse(text) == schema)
        #expect(text.contains("        title        STRING QUERYABLE SORTABLE SEARCHABLE,\n"))
        #expect(text.contains("\"text.body\""))
    }

    @Test(arguments: [
        ("RECORD TYPE A ();", 1), ("DEFINE SCHEMA RECORD TYPE A (x FLOAT);", 1),
        ("DEFINE SCHEMA\nRECORD TYPE A (\n x STRING,\n x INT64\n);", 4), ("DEFINE SCHEMA RECORD TYPE A (x STRING)", 1),
        ("DEFINE SCHEMA RECORD TYPE A (x LIST<LIST<STRING>>);", 1), ("DEFINE SCHEMA RECORD TYPE A (\"x STRING);", 1),
    ])
    func reportsTheLineOfAProblem(_ text: String, _ line: Int) {
        #expect { try SchemaText.parse(text) } throws: { ($0 as? SchemaTextError)?.line == line }
    }

    @Test func onlyAdditiveChangesAreAllowed() throws {
        let old = try SchemaText.parse("DEFINE SCHEMA RECORD TYPE A (x STRING, y INT64 QUERYABLE);")
        let grown = try SchemaText.parse("DEFINE SCHEMA RECORD TYPE A (x STRING SORTABLE, y INT64 QUERYABLE, z DOUBLE); RECORD TYPE B ();")
        let changes = try old.additiveChanges(to: grown).get()
        #expect(changes.count == 3)
        #expect(changes.contains(.addRecordType("B")))
        #expect(changes.contains(.addField(recordType: "A", field: FieldSchema(name: "z", type: .scalar(.double)))))

        let removed = try SchemaText.parse("DEFINE SCHEMA RECORD TYPE A (x STRING);")
        let retyped = try SchemaText.parse("DEFINE SCHEMA RECORD TYPE A (x DOUBLE, y INT64);")
        #expect(throws: SchemaConflict.self) { try old.additiveChanges(to: removed).get() }
        #expect {
            try old.additiveChanges(to: retyped).get()
        } throws: { ($0 as? SchemaConflict)?.description.contains("'A.x' would change type from STRING to DOUBLE") == true }
        #expect(throws: SchemaConflict.self) { try old.additiveChanges(to: Schema()).get() }
    }
}

@Suite struct SecurityRoleTextTests {
    @Test func grantsAndRolesReadAndWriteBack() throws {
        let schema = try SchemaText.parse(SchemaTextTests.cktoolExport)
        #expect(schema.roles == ["Editors"])
        #expect(schema.grants["Users"] == ["_creator": .all, "_world": .read])
        #expect(schema.grants["Note"] == SecurityRole.defaultGrants)
        #expect(schema.grants["Empty"] == SecurityRole.defaultGrants, "a type that grants nothing has CloudKit's defaults")
        let text = SchemaText.format(schema)
        #expect(text.contains("    CREATE ROLE Editors;\n"))
        #expect(text.contains("        GRANT READ, CREATE, WRITE TO \"_creator\",\n        GRANT READ TO \"_world\"\n    );"))
        #expect(try SchemaText.parse(text) == schema)
    }

    @Test func aGrantToAnUndefinedOrBuiltInRoleIsAnError() {
        #expect { try SchemaText.parse("DEFINE SCHEMA\nRECORD TYPE A (\n x STRING,\n GRANT READ TO Editors\n);") } throws: {
            ($0 as? SchemaTextError)?.line == 4 && "\($0)".contains("no CREATE ROLE")
        }
        #expect(throws: SchemaTextError.self) { try SchemaText.parse("DEFINE SCHEMA CREATE ROLE \"_world\";") }
        #expect(throws: SchemaTextError.self) { try SchemaText.parse("DEFINE SCHEMA RECORD TYPE A (GRANT DELETE TO \"_world\");") }
    }

    @Test func deployCarriesNewRolesAndChangedGrants() throws {
        let production = try SchemaText.parse("DEFINE SCHEMA RECORD TYPE Post (body STRING);")
        let development = try SchemaText.parse("""
            DEFINE SCHEMA CREATE ROLE Moderator;
            RECORD TYPE Post (body STRING, GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator", GRANT WRITE TO Moderator);
            """)
        let changes = try production.additiveChanges(to: development).get()
        #expect(changes.count == 2 && changes.contains(.addRole("Moderator")))
        #expect(changes.map(\.description).contains("~ grants of Post: WRITE to Moderator; WRITE to _creator; CREATE to _icloud; READ to _world"))
        #expect(try development.additiveChanges(to: development).get().isEmpty)
    }
}
