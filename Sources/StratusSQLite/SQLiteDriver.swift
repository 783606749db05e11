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
        inspect: { configuration async throws(StoreInspection.Failure) in try await SQLiteInspection.inspect(configuration.databasePath, keyStore: configuration.keyStorePath) })
}

/// What `stratus doctor` reads of an SQLite store: its migrations, from a read-only connection.
enum SQLiteInspection {
    static func inspect(_ path: String, keyStore: URL) async throws(StoreInspection.Failure) -> StoreInspection {
        let known = SQLiteSchema.migrator.migrations
        let masters = try await Self.masters(in: keyStore.appendingPathComponent(SQLiteKeyStore.file).path)
        guard FileManager.default.fileExists(atPath: path) else {
            return StoreInspection(store: "SQLite \(path)", applied: nil, known: known, masters: masters)
        }
        do {
            let applied = try await Self.readOnly(path).read { try SQLiteSchema.migrator.appliedIdentifiers($0) }
            return StoreInspection(store: "SQLite \(path)", applied: applied, known: known, masters: masters)
        } catch {
            throw StoreInspection.Failure(detail: "SQLite \(path) cannot be read: \(error)", fix: "check the file's owner and permissions, or restore it from a backup")
        }
    }

    /// The master keys of the key store at `path`; none when it is not made yet.
    private static func masters(in path: String) async throws(StoreInspection.Failure) -> [StoredMaster] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            return try await readOnly(path).read { db in try ConnectionThread.run({ try await SQLiteTransaction(db: db, epoch: 0).masters() }) }
        } catch {
            throw StoreInspection.Failure(detail: "the key store \(path) cannot be read: \(error)",
                                          fix: "check the file's owner and permissions (--key-store), or restore it with its backup")
        }
    }

    private static func readOnly(_ path: String) throws -> DatabaseQueue {
        var options = GRDB.Configuration()
        options.readonly = true
        return try DatabaseQueue(path: path, configuration: options)
    }

}
