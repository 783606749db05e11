/// ``KeyStoreTransaction`` in the SQL both drivers speak, on the key store's tables (SQLite: a
/// database file of their own; PostgreSQL: the schema `stratus_keys`).
extension KeyStoreTransaction where Self: SQLDatabase {
    private var schema: String { dialect.keyStoreSchema }

    package func masters() async throws -> [StoredMaster] {
        try await fetch("SELECT fingerprint, canary, created_at FROM \(unescaped: schema)masters ORDER BY created_at").map { row in
            StoredMaster(fingerprint: try row.string(0), canary: try row.bytes(1), createdAt: try row.int64(2))
        }
    }

    package func addMaster(_ master: StoredMaster) async throws {
        try await run("""
            INSERT INTO \(unescaped: schema)masters (fingerprint, canary, created_at) VALUES (\(master.fingerprint), \(master.canary), \(master.createdAt))
            ON CONFLICT (fingerprint) DO NOTHING
            """)
    }

    package func removeMaster(fingerprint: String) async throws {
        try await run("DELETE FROM \(unescaped: schema)masters WHERE fingerprint = \(fingerprint)")
    }

    package func dataKey(scope: String) async throws -> WrappedDataKey? {
        try await fetchOne("SELECT scope, wrapped, master, created_at FROM \(unescaped: schema)data_keys WHERE scope = \(scope)").map(Self.dataKey)
    }

    package func insertDataKey(_ key: WrappedDataKey) async throws {
        try await run("""
            INSERT INTO \(unescaped: schema)data_keys (scope, wrapped, master, created_at) VALUES (\(key.scope), \(key.wrapped), \(key.master), \(key.createdAt))
            ON CONFLICT (scope) DO NOTHING
            """)
    }

    package func deleteDataKey(scope: String) async throws -> Bool {
        try await changedRowCount("DELETE FROM \(unescaped: schema)data_keys WHERE scope = \(scope) RETURNING 1") > 0
    }

    package func dataKeys(notWrappedBy fingerprint: String, limit: Int) async throws -> [WrappedDataKey] {
        try await fetch("""
            SELECT scope, wrapped, master, created_at FROM \(unescaped: schema)data_keys WHERE master <> \(fingerprint) ORDER BY scope LIMIT \(limit)
            """).map(Self.dataKey)
    }

    package func rewrapDataKey(_ key: WrappedDataKey) async throws {
        try await run("UPDATE \(unescaped: schema)data_keys SET wrapped = \(key.wrapped), master = \(key.master) WHERE scope = \(key.scope)")
    }

    package func allDataKeys() async throws -> [WrappedDataKey] {
        try await fetch("SELECT scope, wrapped, master, created_at FROM \(unescaped: schema)data_keys ORDER BY scope").map(Self.dataKey)
    }

    package func dataKeyScopes(startingWith prefix: String, after: String, limit: Int) async throws -> [String] {
        try await fetch("""
            SELECT scope FROM \(unescaped: schema)data_keys WHERE scope > \(after) AND scope LIKE \(Self.likePattern(startingWith: prefix))
            ORDER BY scope LIMIT \(limit)
            """).map { try $0.string(0) }
    }

    /// A `LIKE` pattern for text that starts with `prefix` (which holds no `%` or `_`: scopes' prefixes).
    private static func likePattern(startingWith prefix: String) -> String {
        precondition(!prefix.contains("%") && !prefix.contains("_"), "a prefix without LIKE's wildcards")
        return prefix + "%"
    }

    private static func dataKey(_ row: SQLRow) throws -> WrappedDataKey {
        WrappedDataKey(scope: try row.string(0), wrapped: try row.bytes(1), master: try row.string(2), createdAt: try row.int64(3))
    }
}

/// The key store's tables, for a driver to create (SQLite: in the key store's own file, where
/// `dialect.keyStoreSchema` is empty; PostgreSQL: in the schema `stratus_keys`).
package enum KeyStoreSchema {
    package static func statements(_ dialect: SQLDialect) -> [String] {
        let schema = dialect.keyStoreSchema
        return [
            "CREATE TABLE IF NOT EXISTS \(schema)masters (fingerprint \(dialect.ddl.key) PRIMARY KEY, canary \(dialect.ddl.blob) NOT NULL, created_at \(dialect.ddl.integer) NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(schema)data_keys (scope \(dialect.ddl.key) PRIMARY KEY, wrapped \(dialect.ddl.blob) NOT NULL,
                master \(dialect.ddl.key) NOT NULL, created_at \(dialect.ddl.integer) NOT NULL)
            """,
        ]
    }
}
