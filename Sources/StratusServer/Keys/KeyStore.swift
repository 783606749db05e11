import Foundation

/// Where data keys live, wrapped by the master key: apart from the data, so that no backup,
/// export or copy of the data holds them (the SQLite driver's is a file of its own,
/// `--key-store DIR`; PostgreSQL's the schema `stratus_keys`, which `pg_dump` leaves out with
/// `--exclude-schema=stratus_keys`). ``KeyVault`` is its only user.
package protocol KeyStore: Sendable {
    /// Runs `body` in one transaction of the key store.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any KeyStoreTransaction) async throws -> T) async throws -> T
}

/// What one key-store transaction reads and writes.
package protocol KeyStoreTransaction {
    /// The master keys that wrap data keys here, each with its canary.
    func masters() async throws -> [StoredMaster]
    func addMaster(_ master: StoredMaster) async throws
    func removeMaster(fingerprint: String) async throws
    /// The data key of a scope, wrapped.
    func dataKey(scope: String) async throws -> WrappedDataKey?
    /// Stores a new data key unless the scope has one already (another instance made it first).
    func insertDataKey(_ key: WrappedDataKey) async throws
    /// Destroys a scope's data key; whether it had one.
    func deleteDataKey(scope: String) async throws -> Bool
    /// Up to `limit` data keys wrapped by a master other than `fingerprint`, by scope.
    func dataKeys(notWrappedBy fingerprint: String, limit: Int) async throws -> [WrappedDataKey]
    /// Replaces a data key's wrapping (rotation).
    func rewrapDataKey(_ key: WrappedDataKey) async throws
    /// Every master and data key, for `stratus keys backup`.
    func allDataKeys() async throws -> [WrappedDataKey]
    /// Up to `limit` scopes that start with `prefix`, after `after`, in order.
    func dataKeyScopes(startingWith prefix: String, after: String, limit: Int) async throws -> [String]
}

/// A master key as the key store knows it: its fingerprint, and a constant sealed with it, which
/// tells a right key from a wrong one before any data key is opened.
package struct StoredMaster: Sendable, Equatable, Codable {
    package var fingerprint: String
    package var canary: [UInt8]
    package var createdAt: Int64

    package init(fingerprint: String, canary: [UInt8], createdAt: Int64) {
        self.fingerprint = fingerprint
        self.canary = canary
        self.createdAt = createdAt
    }
}

/// A data key sealed by a master key (AES-GCM, the scope as associated data).
package struct WrappedDataKey: Sendable, Equatable, Codable {
    package var scope: String
    package var wrapped: [UInt8]
    /// The fingerprint of the master key that wraps it.
    package var master: String
    package var createdAt: Int64
}
