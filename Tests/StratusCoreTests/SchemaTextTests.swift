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
        #expect(text.contains("        title        STRING QUERYABLE SORTABLE SEARCHABLE\n"))
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
