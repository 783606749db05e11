import Crypto
import Foundation
import StratusCore
import Synchronization

/// Envelope encryption for what Stratus must keep secret and use again: ``seal(_:for:)`` encrypts
/// a value with the data key of a ``KeyScope`` (AES-GCM, 256 bits), ``open(_:for:)`` decrypts
/// it. Data keys are made on first use, stored in the ``KeyStore`` wrapped by the master key, and
/// kept unwrapped in memory (a bounded cache). Destroying a scope's key (an account's deletion)
/// makes everything sealed for it unreadable, in the database and in every backup of it.
///
/// One vault per server, written once above the storage seam: services seal and open through it
/// and never see a key.
package final class KeyVault: Sendable {
    let store: any KeyStore
    /// The master key that wraps new data keys; nil for a command given none, which can destroy
    /// keys but not seal or open (``locked(store:clock:)``).
    package let master: MasterKey?
    /// The master key being rotated away from, which still opens the data keys it wraps.
    let previous: MasterKey?
    let clock: ServerClock
    private let cache = Mutex<[String: SymmetricKey]>([:])

    /// Data keys kept unwrapped in memory; past it the cache starts again.
    static let cachedKeys = 4096
    /// What a sealed value starts with: the format's version.
    static let sealedPrefix = "sk1."

    /// Opens the vault after checking the master keys against the key store (``MasterKeyError``,
    /// naming the fingerprint the store expects, when a key that wraps data keys is missing). A
    /// key store without a master yet takes `master`'s canary.
    package static func open(store: any KeyStore, master: MasterKey, previous: MasterKey? = nil, clock: ServerClock) async throws -> KeyVault {
        let vault = KeyVault(store: store, master: master, previous: previous, clock: clock)
        let stored = try await store.transaction { try await $0.masters() }
        try verify([master] + (previous.map { [$0] } ?? []), against: stored)
        if !stored.contains(where: { $0.fingerprint == master.fingerprint }) {
            try await vault.register(master)
        }
        return vault
    }

    /// A vault without a master key, for a command that administers the store without sealing or
    /// opening anything (`stratus user delete` destroys a key; that takes no master key).
    package static func locked(store: any KeyStore, clock: ServerClock) -> KeyVault {
        KeyVault(store: store, master: nil, previous: nil, clock: clock)
    }

    /// The master key, or the error of a vault without one.
    private func requireMaster() throws -> MasterKey {
        guard let master else {
            throw MasterKeyError("this command was given no master key (--encryption-key-file FILE or STRATUS_ENCRYPTION_KEY), which it needs here")
        }
        return master
    }

    /// Checks that `given` holds every master key the key store's `stored` masters name, each
    /// opening its canary; the error names the fingerprint the store expects.
    package static func verify(_ given: [MasterKey], against stored: [StoredMaster]) throws(MasterKeyError) {
        for wrapping in stored {
            guard let key = given.first(where: { $0.fingerprint == wrapping.fingerprint }) else {
                throw MasterKeyError("""
                    the key store's data keys are wrapped by master key \(wrapping.fingerprint), and this server was given \
                    \(given.isEmpty ? "no master key" : given.map(\.fingerprint).joined(separator: " and ")); start it with that key \
                    (--encryption-key-file FILE or STRATUS_ENCRYPTION_KEY)\(stored.count > 1 ? ", and with --previous-encryption-key-file while a rotation is unfinished" : "")
                    """)
            }
            guard let box = try? AES.GCM.SealedBox(combined: wrapping.canary),
                  (try? AES.GCM.open(box, using: key.key, authenticating: canaryContext(key.fingerprint))) == canary else {
                throw MasterKeyError("master key \(key.fingerprint) does not open the key store's canary: the key store is damaged")
            }
        }
    }

    private init(store: any KeyStore, master: MasterKey?, previous: MasterKey?, clock: ServerClock) {
        self.store = store
        self.master = master
        self.previous = previous
        self.clock = clock
    }

    /// Stores a master key's canary: from then on the store needs that key.
    private func register(_ key: MasterKey) async throws {
        let canary = try AES.GCM.seal(Self.canary, using: key.key, authenticating: Self.canaryContext(key.fingerprint)).combined!
        let entry = StoredMaster(fingerprint: key.fingerprint, canary: Array(canary), createdAt: clock.milliseconds)
        try await store.transaction { try await $0.addMaster(entry) }
    }

    private static let canary = Data("stratus key store canary".utf8)
    private static func canaryContext(_ fingerprint: String) -> Data { Data("canary|\(fingerprint)".utf8) }
    private static func wrapContext(_ scope: String) -> Data { Data("data key|\(scope)".utf8) }
    static func sealContext(_ scope: KeyScope) -> Data { Data("sealed|\(scope.name)".utf8) }

    // MARK: Sealing

    /// `plaintext` encrypted with the scope's data key (made now if the scope has none), as text:
    /// ``sealedPrefix`` and the base64 of nonce, ciphertext and tag.
    package func seal(_ plaintext: some DataProtocol, for scope: KeyScope) async throws -> String {
        try await sealer(for: scope).seal(plaintext)
    }

    /// The scope's data key if it has one, else `fallback`'s (made now if needed): for a request
    /// whose timing must not tell whether the scope's owner exists, which therefore never writes a
    /// key for it (`password/forgot`).
    package func sealer(for scope: KeyScope, orElse fallback: KeyScope) async throws -> Sealer {
        _ = try requireMaster()
        if let key = try await dataKey(of: scope, creating: false) { return Sealer(scope: scope, key: key) }
        return try await sealer(for: fallback)
    }

    /// The scope's data key (made now if the scope has none), to seal with inside a storage
    /// transaction, where the key store is not reached.
    package func sealer(for scope: KeyScope) async throws -> Sealer {
        _ = try requireMaster()
        guard let key = try await dataKey(of: scope, creating: true) else { throw KeyVaultError.destroyed(scope) }
        return Sealer(scope: scope, key: key)
    }

    /// Forgets the data keys kept in memory, as a restart does: the next use of each reads it
    /// from the key store again.
    package func forgetCachedKeys() {
        cache.withLock { $0.removeAll() }
    }

    /// The scope's data key, already in memory, or nil: a request takes it before its transaction
    /// without reaching the key store, and asks for it (``sealer(for:)``) only when it needs it.
    package func cachedSealer(for scope: KeyScope) -> Sealer? {
        cache.withLock { $0[scope.name] }.map { Sealer(scope: scope, key: $0) }
    }

    /// The scope's data key, to open what was sealed with it: ``KeyVaultError/destroyed(_:)`` when
    /// it has none (never made, or destroyed with its account).
    package func opener(for scope: KeyScope) async throws -> Sealer {
        _ = try requireMaster()
        guard let key = try await dataKey(of: scope, creating: false) else { throw KeyVaultError.destroyed(scope) }
        return Sealer(scope: scope, key: key)
    }

    /// The plaintext of a value ``seal(_:for:)`` made for `scope`. ``KeyVaultError/destroyed(_:)``
    /// once the scope's key is destroyed; ``KeyVaultError/damaged`` for text that is not a value
    /// sealed for the scope.
    package func open(_ sealed: String, for scope: KeyScope) async throws -> [UInt8] {
        guard sealed.hasPrefix(Self.sealedPrefix) else { throw KeyVaultError.damaged }
        guard let key = try await dataKey(of: scope, creating: false) else { throw KeyVaultError.destroyed(scope) }
        return Array(try Self.open(ArraySlice(sealed.utf8), with: key, authenticating: Self.sealContext(scope)))
    }

    /// A sealed value's plaintext, read from its text's bytes (inside stored JSON, say), opened
    /// with `key` and checked against `context`.
    static func open(_ sealed: ArraySlice<UInt8>, with key: SymmetricKey, authenticating context: some DataProtocol) throws(KeyVaultError) -> Data {
        let prefix = sealedPrefix.utf8
        guard sealed.starts(with: prefix), let combined = Base64Decoder.standard.decode(sealed.dropFirst(prefix.count)),
              let box = try? AES.GCM.SealedBox(combined: combined),
              let plaintext = try? AES.GCM.open(box, using: key, authenticating: context) else { throw .damaged }
        return plaintext
    }

    /// Destroys the scope's data key: what was sealed for it cannot be opened again, from any copy.
    package func destroyKey(of scope: KeyScope) async throws {
        _ = try await store.transaction { try await $0.deleteDataKey(scope: scope.name) }
        cache.withLock { _ = $0.removeValue(forKey: scope.name) }
    }

    /// Destroys the data keys of users who no longer exist — an account deletion that stopped
    /// between its commit and its key's destruction — 500 scopes a round; `existing` answers which
    /// of the user record names it is given exist. Returns how many keys it destroyed.
    package func destroyKeysOfDeletedUsers(existing: ([String]) async throws -> Set<String>) async throws -> Int {
        let prefix = KeyScope.user("").name
        var after = ""
        var destroyed = 0
        while true {
            let scopes = try await store.transaction { [after] in try await $0.dataKeyScopes(startingWith: prefix, after: after, limit: 500) }
            guard let last = scopes.last else { return destroyed }
            after = last
            let users = scopes.map { String($0.dropFirst(prefix.count)) }
            let alive = try await existing(users)
            for user in users where !alive.contains(user) {
                try await destroyKey(of: .user(user))
                destroyed += 1
            }
        }
    }

    private func dataKey(of scope: KeyScope, creating: Bool) async throws -> SymmetricKey? {
        if let key = cache.withLock({ $0[scope.name] }) { return key }
        let name = scope.name
        var wrapped = try await store.transaction { try await $0.dataKey(scope: name) }
        if wrapped == nil {
            guard creating else { return nil }
            let key = SymmetricKey(size: .bits256)
            let fresh = try Self.wrap(key, scope: name, with: try requireMaster(), at: clock.milliseconds)
            // Read back: another instance may have made the scope's key first.
            wrapped = try await store.transaction { transaction in
                try await transaction.insertDataKey(fresh)
                return try await transaction.dataKey(scope: name)
            }
        }
        guard let wrapped else { return nil }
        let key = try unwrap(wrapped)
        cache.withLock { cache in
            if cache.count >= Self.cachedKeys { cache.removeAll(keepingCapacity: true) }
            cache[name] = key
        }
        return key
    }

    /// A data key of `scope` as the key store keeps it: sealed by `master` (AES-GCM, the scope as
    /// associated data), made at `time`.
    package static func wrap(_ key: SymmetricKey, scope: String, with master: MasterKey, at time: Int64) throws -> WrappedDataKey {
        let box = try key.withUnsafeBytes { try AES.GCM.seal(Array($0), using: master.key, authenticating: wrapContext(scope)) }
        return WrappedDataKey(scope: scope, wrapped: Array(box.combined!), master: master.fingerprint, createdAt: time)
    }

    private func unwrap(_ wrapped: WrappedDataKey) throws -> SymmetricKey {
        guard let master = [master, previous].compactMap({ $0 }).first(where: { $0.fingerprint == wrapped.master }) else {
            _ = try requireMaster()
            throw MasterKeyError("the data key of \(wrapped.scope) is wrapped by master key \(wrapped.master), which this server was not given")
        }
        return try Self.unwrap(wrapped, with: master)
    }

    /// The data key `wrapped` holds, opened with `master` (``wrap(_:scope:with:at:)``'s inverse).
    package static func unwrap(_ wrapped: WrappedDataKey, with master: MasterKey) throws -> SymmetricKey {
        guard let box = try? AES.GCM.SealedBox(combined: wrapped.wrapped),
              let bytes = try? AES.GCM.open(box, using: master.key, authenticating: wrapContext(wrapped.scope)) else {
            throw KeyVaultError.damaged
        }
        return SymmetricKey(data: bytes)
    }

    // MARK: Rotation

    /// Re-wraps every data key with ``master`` (from ``previous``), `batch` keys a transaction,
    /// then forgets the other masters. Killed midway, it is run again and finishes: each batch
    /// commits on its own and the keys it did are not done again. Returns how many it re-wrapped.
    package func rotateMaster(batch: Int = 500, progress: (Int) throws -> Void = { _ in }) async throws -> Int {
        let master = try requireMaster()
        let target = master.fingerprint
        var done = 0
        while true {
            let rewrapped = try await store.transaction { transaction in
                let keys = try await transaction.dataKeys(notWrappedBy: target, limit: batch)
                for key in keys {
                    let moved = try Self.wrap(try self.unwrap(key), scope: key.scope, with: master, at: key.createdAt)
                    try await transaction.rewrapDataKey(moved)
                }
                return keys.count
            }
            done += rewrapped
            try progress(done)
            if rewrapped < batch { break }
        }
        try await store.transaction { transaction in
            for stored in try await transaction.masters() where stored.fingerprint != target {
                try await transaction.removeMaster(fingerprint: stored.fingerprint)
            }
        }
        return done
    }

    /// Loads what `stratus keys backup` wrote into this vault's key store, which must hold no data
    /// key yet (a new store, or one whose server has sealed nothing): the masters it lists replace
    /// the store's, and this vault's master key must open one of them. Returns how many data keys
    /// it loaded, in one transaction.
    package func restore(_ contents: KeyStoreBackup) async throws -> Int {
        let given = [try requireMaster()] + (previous.map { [$0] } ?? [])
        let wrapping = contents.masters.filter { stored in given.contains { $0.fingerprint == stored.fingerprint } }
        guard !wrapping.isEmpty else {
            let named = contents.masters.map(\.fingerprint).joined(separator: " and ")
            throw MasterKeyError("the key store backup's data keys are wrapped by master key \(named), and this command was given "
                + "\(given.map(\.fingerprint).joined(separator: " and ")): give that key (--encryption-key-file FILE)")
        }
        try Self.verify(given, against: wrapping)
        return try await store.transaction { transaction in
            guard try await transaction.dataKeyScopes(startingWith: "", after: "", limit: 1).isEmpty else {
                throw CloudKitError.badRequest("the key store already holds data keys: a key store backup is restored into a new store only")
            }
            let listed = Set(contents.masters.map(\.fingerprint))
            for stored in try await transaction.masters() where !listed.contains(stored.fingerprint) {
                try await transaction.removeMaster(fingerprint: stored.fingerprint)
            }
            let present = Set(try await transaction.masters().map(\.fingerprint))
            for stored in contents.masters where !present.contains(stored.fingerprint) { try await transaction.addMaster(stored) }
            for key in contents.dataKeys { try await transaction.insertDataKey(key) }
            return contents.dataKeys.count
        }
    }

    /// The key store's masters and wrapped data keys, for `stratus keys backup`.
    package func keyStoreContents() async throws -> KeyStoreBackup {
        try await store.transaction { transaction in
            KeyStoreBackup(masters: try await transaction.masters(), dataKeys: try await transaction.allDataKeys())
        }
    }
}

/// What `stratus keys backup` writes: the key store alone, every data key still wrapped.
package struct KeyStoreBackup: Codable, Sendable {
    package var format = 1
    package var masters: [StoredMaster]
    package var dataKeys: [WrappedDataKey]
}

/// Why a sealed value cannot be opened.
package enum KeyVaultError: Error, CustomStringConvertible {
    /// The scope's data key was destroyed (its account deleted).
    case destroyed(KeyScope)
    /// The text is not a value sealed for the scope, or it was changed.
    case damaged

    package var description: String {
        switch self {
        case .destroyed(let scope): "the data key of \(scope) was destroyed: what was sealed with it cannot be opened"
        case .damaged: "not a value sealed for this scope, or a damaged one"
        }
    }
}
