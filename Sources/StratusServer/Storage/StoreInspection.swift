import Foundation
import GRDB
import Logging
import PostgresNIO

/// What `stratus doctor` learns of the store a configuration names without opening it to serve
/// (nothing is migrated or written): the migrations it has and this version knows, and the
/// database server's own time when it runs on another machine. The one place above the drivers'
/// own files that reads a store outside ``StratusStorage``, so that the doctor names no driver.
package struct StoreInspection: Sendable {
    /// The store as findings name it ("SQLite /var/lib/stratus/stratus.sqlite", "PostgreSQL").
    package var store: String
    /// The migrations applied; nil when the store does not exist yet (it is made on first start).
    package var applied: Set<String>?
    /// Every migration this version knows, in order.
    package var known: [String]
    /// The database server's time (seconds since 1970); nil for an embedded store.
    package var databaseTime: Double?

    /// Why a store could not be inspected, in words, and what to do about it.
    package struct Failure: Error, Sendable {
        package var detail: String
        package var fix: String
    }

    /// Inspects the PostgreSQL database of ``ServerConfiguration/databaseURL`` or else the data
    /// directory's SQLite file.
    package static func inspect(_ configuration: ServerConfiguration) async throws(Failure) -> StoreInspection {
        if let url = configuration.databaseURL { return try await postgres(url) }
        return try await sqlite(configuration.databasePath)
    }

    private static func sqlite(_ path: String) async throws(Failure) -> StoreInspection {
        let known = SQLiteSchema.migrator.migrations
        guard FileManager.default.fileExists(atPath: path) else { return StoreInspection(store: "SQLite \(path)", applied: nil, known: known) }
        do {
            var options = GRDB.Configuration()
            options.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: options)
            let applied = try await queue.read { try SQLiteSchema.migrator.appliedIdentifiers($0) }
            return StoreInspection(store: "SQLite \(path)", applied: applied, known: known)
        } catch {
            throw Failure(detail: "SQLite \(path) cannot be read: \(error)", fix: "check the file's owner and permissions, or restore it from a backup")
        }
    }

    private static func postgres(_ url: String) async throws(Failure) -> StoreInspection {
        var logger = Logger(label: "stratus.doctor")
        logger.logLevel = .critical
        do {
            let address = try PostgresAddress(url: url)
            let connection = try await PostgresConnection.connect(configuration: try address.connection(), id: 1, logger: logger)
            defer { Task { try? await connection.close() } }
            var exists = false
            for try await value in try await connection.query("SELECT to_regclass('stratus_migrations') IS NOT NULL", logger: logger).decode(Bool.self) {
                exists = value
            }
            var applied = Set<String>()
            if exists {
                for try await identifier in try await connection.query("SELECT identifier FROM stratus_migrations", logger: logger).decode(String.self) {
                    applied.insert(identifier)
                }
            }
            var now = 0.0
            for try await seconds in try await connection.query("SELECT extract(epoch FROM clock_timestamp())::float8", logger: logger).decode(Double.self) {
                now = seconds
            }
            return StoreInspection(store: "PostgreSQL", applied: exists ? applied : nil, known: PostgresSchema.migrations.map(\.identifier),
                                   databaseTime: now)
        } catch {
            let detail = (error as? PSQLError).map { $0.serverInfo?[.message] ?? "\($0.code)" } ?? "\(error)"
            throw Failure(detail: "PostgreSQL cannot be reached: \(detail)",
                          fix: "check --database (host, port, user, password, database name) and that the server accepts this host")
        }
    }
}
