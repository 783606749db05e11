import Foundation
import GRDB
import StratusServer

extension StorageDriver {
    /// The data directory's SQLite file (``ServerConfiguration/databasePath``), used when the
    /// configuration names no ``ServerConfiguration/databaseURL``: one instance per data directory.
    public static let sqlite = StorageDriver(
        name: "SQLite",
        opens: { $0.databaseURL == nil },
        open: { configuration, _ in
            try SQLiteStorage(path: configuration.databasePath, maxQueuedWrites: configuration.maxQueuedWrites,
                              maxDatabaseBytes: configuration.maxDatabaseBytes, groupCommit: configuration.groupCommit)
        },
        inspect: { configuration async throws(StoreInspection.Failure) in try await SQLiteInspection.inspect(configuration.databasePath) })
}

/// What `stratus doctor` reads of an SQLite store: its migrations, from a read-only connection.
enum SQLiteInspection {
    static func inspect(_ path: String) async throws(StoreInspection.Failure) -> StoreInspection {
        let known = SQLiteSchema.migrator.migrations
        guard FileManager.default.fileExists(atPath: path) else { return StoreInspection(store: "SQLite \(path)", applied: nil, known: known) }
        do {
            var options = GRDB.Configuration()
            options.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: options)
            let applied = try await queue.read { try SQLiteSchema.migrator.appliedIdentifiers($0) }
            return StoreInspection(store: "SQLite \(path)", applied: applied, known: known)
        } catch {
            throw StoreInspection.Failure(detail: "SQLite \(path) cannot be read: \(error)", fix: "check the file's owner and permissions, or restore it from a backup")
        }
    }

}
