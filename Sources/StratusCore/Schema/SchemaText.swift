/// CloudKit's text schema language, the "schema as code" file an app keeps in its repository:
///
/// ```
/// DEFINE SCHEMA
///
///     RECORD TYPE Note (
///         modified  TIMESTAMP QUERYABLE SORTABLE,
///         tags      LIST<STRING> QUERYABLE,
///         title     STRING QUERYABLE SEARCHABLE
///     );
/// ```
///
/// ```
/// DEFINE SCHEMA
///
///     CREATE ROLE Moderator;
///
///     RECORD TYPE Post (
///         body      STRING,
///         GRANT READ TO "_world",
///         GRANT CREATE TO "_icloud",
///         GRANT WRITE TO "_creator",
///         GRANT READ, WRITE TO Moderator
///     );
/// ```
///
/// An encrypted field is declared `ENCRYPTED STRING` (or `LIST<ENCRYPTED DOUBLE>`): any type but
/// REFERENCE and ASSET, never QUERYABLE, SORTABLE or SEARCHABLE (the server cannot index what it
/// cannot read).
///
/// Reading accepts what cktool exports: system fields (`"___createTime"` …) are read and left out
/// (Stratus keeps them itself), `CREATE ROLE` and `GRANT` lines are the public database's
/// security roles (see ``SecurityRole``), and `//` and `--` start comments. Writing lists every
/// record type's grants in force, CloudKit's defaults where the schema declares none.
public enum SchemaText {
    /// Writes a schema, record types and fields in name order.
    public static func format(_ schema: Schema) -> String {
        var text = "DEFINE SCHEMA\n"
        if !schema.roles.isEmpty {
            text += "\n" + schema.roles.sorted().map { "    CREATE ROLE \(name($0));\n" }.joined()
        }
        for type in schema.recordTypes.values.sorted(by: { $0.name < $1.name }) {
            text += "\n    RECORD TYPE \(name(type.name)) ("
            let fields = type.fields.values.sorted { $0.name < $1.name }
            let width = fields.map { name($0.name).count }.max() ?? 0
            var lines: [String] = []
            for field in fields {
                let quoted = name(field.name)
                var line = quoted + String(repeating: " ", count: width - quoted.count + 2) + typeName(field)
                if field.indexes.contains(.queryable) { line += " QUERYABLE" }
                if field.indexes.contains(.sortable) { line += " SORTABLE" }
                if field.indexes.contains(.searchable) { line += " SEARCHABLE" }
                lines.append(line)
            }
            for (role, permissions) in schema.effectiveGrants(of: type.name).sorted(by: { $0.key < $1.key }) where !permissions.isEmpty {
                let granted = RecordPermissions.names.filter { permissions.contains($0.permission) }.map(\.name)
                lines.append("GRANT \(granted.joined(separator: ", ")) TO \(name(role))")
            }
            text += lines.map { "\n        " + $0 }.joined(separator: ",") + "\n    );\n"
        }
        return text
    }

    /// Reads a schema; errors say what was expected and on which line.
    public static func parse(_ text: String) throws(SchemaTextError) -> Schema {
        var reader = Reader(tokens: try tokenize(text))
        try reader.expectWord("DEFINE")
        try reader.expectWord("SCHEMA")
        var schema = Schema()
        var grantLines: [(recordType: String, role: String, line: Int)] = []
        while let token = reader.peek() {
            if token.isWord("CREATE") {
                _ = reader.next()
                try reader.expectWord("ROLE")
                let role = try reader.name("a role name")
                guard !SecurityRole.builtIn.contains(role) else { throw reader.error("role '\(role)' is built in") }
                schema.roles.insert(role)
                try reader.expect(";")
                continue
            }
            try reader.expectWord("RECORD")
            try reader.expectWord("TYPE")
            let typeName = try reader.name("a record type name")
            guard schema.recordTypes[typeName] == nil else { throw reader.error("record type '\(typeName)' is defined twice") }
            var recordType = RecordTypeSchema(name: typeName)
            try reader.expect("(")
            if reader.peek()?.text != ")" {
                repeat {
                    if reader.peek()?.isWord("GRANT") == true {
                        let line = reader.peek()?.line ?? 1
                        let (permissions, role) = try reader.grant()
                        schema.grants[typeName, default: [:]][role, default: []].formUnion(permissions)
                        grantLines.append((typeName, role, line))
                        continue
                    }
                    let fieldLine = reader.peek()?.line ?? 1
                    let fieldName = try reader.name("a field name")
                    let (type, isEncrypted) = try reader.fieldType()
                    var indexes: FieldIndexes = []
                    while let flag = reader.peek(), flag.isWord("QUERYABLE") || flag.isWord("SORTABLE") || flag.isWord("SEARCHABLE") {
                        guard !isEncrypted else {
                            throw reader.error("field '\(typeName).\(fieldName)' is encrypted: it cannot be \(flag.text.uppercased()) (the server cannot index what it cannot read)")
                        }
                        _ = reader.next()
                        indexes.insert(flag.isWord("QUERYABLE") ? .queryable : flag.isWord("SORTABLE") ? .sortable : .searchable)
                    }
                    if fieldName.hasPrefix("___") { continue }
                    guard recordType.fields[fieldName] == nil else {
                        throw SchemaTextError(line: fieldLine, message: "field '\(typeName).\(fieldName)' is defined twice")
                    }
                    recordType.fields[fieldName] = FieldSchema(name: fieldName, type: type, indexes: indexes, isEncrypted: isEncrypted)
                } while reader.skip(",")
            }
            try reader.expect(")")
            try reader.expect(";")
            schema.recordTypes[typeName] = recordType
        }
        for grant in grantLines where !SecurityRole.builtIn.contains(grant.role) && !schema.roles.contains(grant.role) {
            throw SchemaTextError(line: grant.line, message: "record type '\(grant.recordType)' grants to role '\(grant.role)', which no CREATE ROLE defines")
        }
        // What a type without GRANT lines gets, written out, so that a file reads back the same.
        for name in schema.recordTypes.keys where schema.grants[name] == nil {
            schema.grants[name] = SecurityRole.defaultGrants
        }
        return schema
    }

    private static func typeName(_ field: FieldSchema) -> String {
        let encrypted = field.isEncrypted ? "ENCRYPTED " : ""
        return switch field.type {
        case .scalar(let scalar): encrypted + scalar.rawValue
        case .list(let scalar): "LIST<\(encrypted)\(scalar.rawValue)>"
        }
    }

    private static let keywords: Set<String> = ["DEFINE", "SCHEMA", "RECORD", "TYPE", "GRANT", "CREATE", "ROLE", "LIST", "ENCRYPTED",
                                                "QUERYABLE", "SORTABLE", "SEARCHABLE", "TO", "READ", "WRITE"]

    private static func name(_ name: String) -> String {
        let plain = name.first.map { $0.isLetter && $0.isASCII } == true
            && name.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
            && !keywords.contains(name.uppercased())
        return plain ? name : "\"" + name + "\""
    }

    // MARK: - Reading

    struct Token {
        var text: String
        var quoted: Bool
        var line: Int

        func isWord(_ word: String) -> Bool { !quoted && text.uppercased() == word }
    }

    private static func tokenize(_ text: String) throws(SchemaTextError) -> [Token] {
        var tokens: [Token] = []
        var line = 1
        var characters = Array(text)[...]
        while let character = characters.first {
            if character == "\n" { line += 1 }
            if character.isWhitespace {
                characters = characters.dropFirst()
            } else if characters.starts(with: ["/", "/"]) || characters.starts(with: ["-", "-"]) {
                characters = characters.drop { $0 != "\n" }
            } else if character == "\"" {
                let body = characters.dropFirst().prefix { $0 != "\"" && $0 != "\n" }
                guard characters.dropFirst(body.count + 1).first == "\"" else {
                    throw SchemaTextError(line: line, message: "unterminated quoted name")
                }
                tokens.append(Token(text: String(body), quoted: true, line: line))
                characters = characters.dropFirst(body.count + 2)
            } else if "(),;<>".contains(character) {
                tokens.append(Token(text: String(character), quoted: false, line: line))
                characters = characters.dropFirst()
            } else if character.isLetter || character.isNumber || character == "_" || character == "." {
                let word = characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                tokens.append(Token(text: String(word), quoted: false, line: line))
                characters = characters.dropFirst(word.count)
            } else {
                throw SchemaTextError(line: line, message: "unexpected character '\(character)'")
            }
        }
        return tokens
    }

    private struct Reader {
        var tokens: [Token]
        var position = 0

        func peek() -> Token? { position < tokens.count ? tokens[position] : nil }

        mutating func next() -> Token? {
            defer { position += 1 }
            return peek()
        }

        func error(_ message: String) -> SchemaTextError {
            SchemaTextError(line: peek()?.line ?? tokens.last?.line ?? 1, message: message)
        }

        mutating func expectWord(_ word: String) throws(SchemaTextError) {
            guard peek()?.isWord(word) == true else { throw error("expected \(word)") }
            position += 1
        }

        mutating func expect(_ punctuation: String) throws(SchemaTextError) {
            guard let token = peek(), !token.quoted, token.text == punctuation else { throw error("expected '\(punctuation)'") }
            position += 1
        }

        /// Reads `GRANT READ, CREATE, WRITE TO "role"` (one or more permissions).
        mutating func grant() throws(SchemaTextError) -> (RecordPermissions, String) {
            try expectWord("GRANT")
            var permissions: RecordPermissions = []
            repeat {
                guard let token = peek(), let named = RecordPermissions.names.first(where: { token.isWord($0.name) }) else {
                    throw error("expected READ, CREATE or WRITE")
                }
                permissions.insert(named.permission)
                position += 1
            } while skip(",")
            try expectWord("TO")
            return (permissions, try name("a role name"))
        }

        mutating func skip(_ punctuation: String) -> Bool {
            guard let token = peek(), !token.quoted, token.text == punctuation else { return false }
            position += 1
            return true
        }

        mutating func name(_ what: String) throws(SchemaTextError) -> String {
            guard let token = peek(), token.quoted || token.text.first.map({ $0.isLetter || $0 == "_" }) == true else {
                throw error("expected \(what)")
            }
            position += 1
            return token.text
        }

        /// Reads a field's type: `STRING`, `ENCRYPTED STRING`, `LIST<STRING>` or
        /// `LIST<ENCRYPTED STRING>`; whether it is encrypted.
        mutating func fieldType() throws(SchemaTextError) -> (FieldType, isEncrypted: Bool) {
            guard let token = peek(), !token.quoted else { throw error("expected a field type") }
            if token.isWord("LIST") {
                position += 1
                try expect("<")
                guard peek()?.isWord("LIST") != true else { throw error("lists of lists are not a CloudKit type") }
                let (element, isEncrypted) = try primitiveType()
                try expect(">")
                return (.list(element), isEncrypted)
            }
            let (scalar, isEncrypted) = try primitiveType()
            return (.scalar(scalar), isEncrypted)
        }

        /// `[ ENCRYPTED ] type`, as CloudKit's grammar has it.
        private mutating func primitiveType() throws(SchemaTextError) -> (ScalarType, isEncrypted: Bool) {
            let isEncrypted = peek()?.isWord("ENCRYPTED") == true
            if isEncrypted { position += 1 }
            guard let token = peek(), !token.quoted, let scalar = ScalarType(rawValue: token.text.uppercased()) else {
                throw error("unknown field type '\(peek()?.text ?? "")'")
            }
            guard !isEncrypted || scalar.isEncryptable else {
                throw error("ENCRYPTED \(scalar.rawValue) is not a CloudKit type: a reference or an asset cannot be encrypted")
            }
            position += 1
            return (scalar, isEncrypted)
        }
    }
}

/// A schema file that does not read, with the line of the problem.
public struct SchemaTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
