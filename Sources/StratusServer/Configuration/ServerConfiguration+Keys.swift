import Foundation

extension ServerConfiguration {
    /// `master.key` in the data directory: the master key of a server given none, made on its
    /// first start.
    package var defaultMasterKeyPath: String { dataDirectory.appendingPathComponent("master.key").path }

    /// Where the SQLite driver keeps its key store.
    package var keyStorePath: URL { keyStoreDirectory ?? dataDirectory.appendingPathComponent("keys") }

    /// The master key this configuration names: ``encryptionKeyFile``, ``encryptionKey``, or the
    /// data directory's `master.key`; nil when none of them is there.
    package func masterKey() throws -> MasterKey? {
        if let encryptionKeyFile { return try MasterKey(file: encryptionKeyFile) }
        if let encryptionKey { return try MasterKey(base64: encryptionKey, source: "STRATUS_ENCRYPTION_KEY") }
        guard FileManager.default.fileExists(atPath: defaultMasterKeyPath) else { return nil }
        return try MasterKey(file: defaultMasterKeyPath)
    }

    /// Opens the store's key vault with this configuration's master keys (``KeyVault/open(store:master:previous:clock:)``
    /// refuses a wrong or missing one). A store without a master yet, served without a key, gets
    /// a new one in ``defaultMasterKeyPath``; a command other than `serve` given no key opens the
    /// vault locked (``KeyVault/locked(store:clock:)``).
    package func openKeyVault(storage: any StratusStorage) async throws -> KeyVault {
        let store = try await storage.keyStore(directory: keyStorePath)
        let previous = try previousEncryptionKeyFile.map { try MasterKey(file: $0) }
        guard let master = try masterKey() else {
            guard requiresMasterKey else { return KeyVault.locked(store: store, clock: clock) }
            try KeyVault.verify([], against: try await store.transaction { try await $0.masters() })
            return try await KeyVault.open(store: store, master: try MasterKey.create(at: defaultMasterKeyPath), previous: previous, clock: clock)
        }
        return try await KeyVault.open(store: store, master: master, previous: previous, clock: clock)
    }
}
