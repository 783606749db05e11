import Logging

/// Opens the storage a configuration names: the PostgreSQL database when
/// ``ServerConfiguration/databaseURL`` names one, else the data directory's SQLite file. The one
/// place above the drivers that knows which exist.
enum StorageOpening {
    static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> any StratusStorage {
        if let url = configuration.databaseURL {
            return try await PostgresStorage(url: url, maxConnections: configuration.databaseConnections, clock: configuration.clock, logger: logger)
        }
        return try SQLiteStorage(path: configuration.databasePath, maxQueuedWrites: configuration.maxQueuedWrites,
                                 maxDatabaseBytes: configuration.maxDatabaseBytes, groupCommit: configuration.groupCommit)
    }
}
