import Foundation
import StratusServer

/// The PostgreSQL driver's ``KeyStore``: the tables of the schema `stratus_keys`, in the same
/// database so that every instance reaches them, left out of the data's dumps with
/// `pg_dump --exclude-schema=stratus_keys` (docs/security.md). A key-store transaction is one of
/// the pool's; the vault never starts one inside a storage transaction (``Sealer``).
struct PostgresKeyStore: KeyStore {
    let storage: PostgresStorage

    /// The key store of `storage`'s database, its schema made if it is not there (a new database,
    /// or one restored from a dump that left it out).
    init(storage: PostgresStorage) async throws {
        self.storage = storage
        try await transaction { transaction in
            let keyStore = transaction as! PostgresTransaction
            try await keyStore.run("CREATE SCHEMA IF NOT EXISTS stratus_keys")
            for statement in KeyStoreSchema.statements(.postgres) { try await keyStore.run("\(unescaped: statement)") }
        }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any KeyStoreTransaction) async throws -> T) async throws -> T {
        try await storage.write { transaction in
            guard let transaction = transaction as? PostgresTransaction else { preconditionFailure("a PostgreSQL store's transaction") }
            return try await body(transaction)
        }
    }
}

extension PostgresTransaction: KeyStoreTransaction {}
