import Foundation
import Logging
import PostgresNIO
import StratusServer

/// Applies ``PostgresSchema``'s migrations that a database lacks, in order, each in its own
/// transaction, under a session-level advisory lock.
enum PostgresMigrator {
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(PostgresSchema.migrationLockKey))", logger: logger)
            do {
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS stratus_migrations (identifier TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                let applied = try await appliedMigrations(connection, logger: logger)
                for migration in PostgresSchema.migrations where !applied.contains(migration.identifier) {
                    if migration.identifier == PostgresSchema.recordFormat2Done {
                        try await copyRecordsToFormat2(connection, logger: logger)
                    }
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        for statement in statements(of: migration.sql) {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        try await connection.query("INSERT INTO stratus_migrations (identifier) VALUES (\(migration.identifier))", logger: logger)
                        try await connection.query("COMMIT", logger: logger)
                        logger.info("applied migration \(migration.identifier)")
                    } catch {
                        try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(PostgresSchema.migrationLockKey))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(PostgresSchema.migrationLockKey))", logger: logger)
        }
    }

    /// Copies the rows of record format 1 into format 2, a transaction per step
    /// (``RecordFormatMigration``), until none is left.
    private static func copyRecordsToFormat2(_ connection: PostgresConnection, logger: Logger) async throws {
        while true {
            try await connection.query("BEGIN", logger: logger)
            let copied: Int
            do {
                copied = try await RecordFormatMigration.step(in: PostgresTransaction(connection: connection, logger: logger, epoch: 0))
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            if copied == 0 { return }
            logger.info("record format 2: copied \(copied) rows")
        }
    }

    /// A migration's statements: its text split at each `;` that ends a line outside a `$$` body
    /// (a prepared statement holds one command).
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            current += line + "\n"
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && line.trimmingCharacters(in: .whitespaces).hasSuffix(";") {
                statements.append(current)
                current = ""
            }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { statements.append(current) }
        return statements
    }

    /// Whether every migration is applied.
    static func isCurrent(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let applied = try await appliedMigrations(connection, logger: logger)
        return PostgresSchema.migrations.allSatisfy { applied.contains($0.identifier) }
    }

    private static func appliedMigrations(_ connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        var applied = Set<String>()
        for try await identifier in try await connection.query("SELECT identifier FROM stratus_migrations", logger: logger).decode(String.self) {
            applied.insert(identifier)
        }
        return applied
    }
}
