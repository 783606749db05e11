import Foundation
import GRDB
import StratusServer

/// The SQLite driver's ``KeyStore``: `keys.sqlite` in a directory of its own (`--key-store DIR`),
/// never in the data's backups. Deleted keys' bytes are overwritten (`secure_delete`), and the
/// rollback journal, not a WAL, holds a transaction's old pages only until it commits.
final class SQLiteKeyStore: KeyStore {
    private let queue: DatabaseQueue

    /// The key store's file in `directory`, made (owner-only) if it is not there.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: directory.appendingPathComponent(Self.file).path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            for statement in KeyStoreSchema.statements(.sqlite) { try db.execute(sql: statement) }
        }
    }

    /// The key store's file name in its directory.
    static let file = "keys.sqlite"

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any KeyStoreTransaction) async throws -> T) async throws -> T {
        do {
            return try await queue.write { db in
                try ConnectionThread.run { try await body(SQLiteTransaction(db: db, epoch: 0)) }
            }
        } catch {
            throw StorageFault.map(error)
        }
    }
}

extension SQLiteTransaction: KeyStoreTransaction {}
