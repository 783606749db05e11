import Logging

/// A kind of store the server can keep its data in. The drivers are targets of their own, so that
/// what links the server links only the drivers it needs: ``sqlite`` (the StratusSQLite target,
/// the data directory's SQLite file) and ``postgreSQL`` (the StratusPostgreSQL target, a
/// PostgreSQL database named by ``ServerConfiguration/databaseURL``). A configuration lists the
/// drivers its build has (``ServerConfiguration/storageDrivers``); the first that opens its store
/// is used.
public struct StorageDriver: Sendable {
    /// The store the driver keeps data in, as errors name it ("SQLite", "PostgreSQL").
    public let name: String
    /// Whether the driver keeps the data of `configuration`.
    package let opens: @Sendable (ServerConfiguration) -> Bool
    /// Opens (and migrates) the store of `configuration`.
    package let open: @Sendable (ServerConfiguration, Logger) async throws -> any StratusStorage
    /// Reads what `stratus doctor` needs of the store without opening it to serve.
    package let inspect: @Sendable (ServerConfiguration) async throws(StoreInspection.Failure) -> StoreInspection

    /// A driver from its parts.
    package init(name: String, opens: @escaping @Sendable (ServerConfiguration) -> Bool,
                 open: @escaping @Sendable (ServerConfiguration, Logger) async throws -> any StratusStorage,
                 inspect: @escaping @Sendable (ServerConfiguration) async throws(StoreInspection.Failure) -> StoreInspection) {
        self.name = name
        self.opens = opens
        self.open = open
        self.inspect = inspect
    }
}

extension ServerConfiguration {
    /// The driver of this configuration's store: the first of ``storageDrivers`` that opens it.
    /// Without one, the error names the store and the target that would open it.
    package func storageDriver() throws -> StorageDriver {
        if let driver = storageDrivers.first(where: { $0.opens(self) }) { return driver }
        let wanted = databaseURL == nil ? "the data directory's SQLite file (link StratusSQLite and list StorageDriver.sqlite)"
            : "the database \(databaseURL!.prefix(while: { $0 != ":" })):… (link StratusPostgreSQL and list StorageDriver.postgreSQL)"
        throw StorageDriverError(description: "no storage driver of this build opens \(wanted); it has \(storageDrivers.map(\.name))")
    }
}

/// No storage driver of the build opens the store a configuration names.
public struct StorageDriverError: Error, CustomStringConvertible {
    public var description: String
}
