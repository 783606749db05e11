import Foundation
import Logging
import PostgresNIO
import StratusServer

extension StorageDriver {
    /// The PostgreSQL database of ``ServerConfiguration/databaseURL`` (a URL of another form is
    /// refused with an example of one), which many instances may share; asset files are kept in
    /// it too.
    public static let postgreSQL = StorageDriver(
        name: "PostgreSQL",
        opens: { $0.databaseURL != nil },
        open: { configuration, logger in
            try await PostgresStorage(url: configuration.databaseURL!, maxConnections: configuration.databaseConnections,
                                      clock: configuration.clock, logger: logger)
        },
        inspect: { configuration async throws(StoreInspection.Failure) in try await PostgresInspection.inspect(configuration.databaseURL!) })
}

/// What `stratus doctor` reads of a PostgreSQL store: its migrations and the database server's
/// clock, over one connection.
enum PostgresInspection {
    static func inspect(_ url: String) async throws(StoreInspection.Failure) -> StoreInspection {
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
            var masters: [StoredMaster] = []
            for try await exists in try await connection.query("SELECT to_regclass('stratus_keys.masters') IS NOT NULL", logger: logger).decode(Bool.self) where exists {
                for try await (fingerprint, canary, createdAt) in try await connection.query(
                    "SELECT fingerprint, canary, created_at FROM stratus_keys.masters", logger: logger).decode((String, ByteBuffer, Int64).self) {
                    masters.append(StoredMaster(fingerprint: fingerprint, canary: Array(buffer: canary), createdAt: createdAt))
                }
            }
            var now = 0.0
            for try await seconds in try await connection.query("SELECT extract(epoch FROM clock_timestamp())::float8", logger: logger).decode(Double.self) {
                now = seconds
            }
            return StoreInspection(store: "PostgreSQL", applied: exists ? applied : nil, known: PostgresSchema.migrations.map(\.identifier),
                                   databaseTime: now, masters: masters)
        } catch {
            let detail = (error as? PSQLError).map { $0.serverInfo?[.message] ?? "\($0.code)" } ?? "\(error)"
            throw StoreInspection.Failure(detail: "PostgreSQL cannot be reached: \(detail)",
                          fix: "check --database (host, port, user, password, database name) and that the server accepts this host")
        }
    }
}
