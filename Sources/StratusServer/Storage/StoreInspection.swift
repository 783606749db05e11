/// What `stratus doctor` learns of the store a configuration names without opening it to serve
/// (nothing is migrated or written): the migrations it has and this version knows, and the
/// database server's own time when it runs on another machine. Each driver reads its own kind of
/// store (``StorageDriver``), so that the doctor names none.
package struct StoreInspection: Sendable {
    /// The store as findings name it ("SQLite /var/lib/stratus/stratus.sqlite", "PostgreSQL").
    package var store: String
    /// The migrations applied; nil when the store does not exist yet (it is made on first start).
    package var applied: Set<String>?
    /// Every migration this version knows, in order.
    package var known: [String]
    /// The database server's time (seconds since 1970); nil for an embedded store.
    package var databaseTime: Double?
    /// The key store's master keys (``StoredMaster``); empty when it is not made yet.
    package var masters: [StoredMaster]

    /// What a driver found.
    package init(store: String, applied: Set<String>?, known: [String], databaseTime: Double? = nil, masters: [StoredMaster] = []) {
        self.store = store
        self.applied = applied
        self.known = known
        self.databaseTime = databaseTime
        self.masters = masters
    }

    /// Why a store could not be inspected, in words, and what to do about it.
    package struct Failure: Error, Sendable {
        package var detail: String
        package var fix: String

        /// A failure from its parts.
        package init(detail: String, fix: String) {
            self.detail = detail
            self.fix = fix
        }
    }

    /// Inspects the store of `configuration` with its driver.
    package static func inspect(_ configuration: ServerConfiguration) async throws(Failure) -> StoreInspection {
        let driver: StorageDriver
        do {
            driver = try configuration.storageDriver()
        } catch {
            throw Failure(detail: "\(error)", fix: "use a build of stratus with that storage driver")
        }
        return try await driver.inspect(configuration)
    }
}
