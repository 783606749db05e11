import ArgumentParser
import Foundation
import StratusServer

/// Where a command's store is (`--data`, `--database`): the data directory, and the PostgreSQL
/// database that holds the data instead of the directory's SQLite file, when there is one.
struct StoreLocation: ParsableArguments {
    @Option(help: "The data directory.") var data = "./stratus-data"
    @Option(help: "A PostgreSQL database holding the data instead of the data directory's SQLite file (postgres://user:password@host:5432/database).")
    var database: String?
    @OptionGroup var keys: KeyOptions
    /// False for a store named in code: its key options were never parsed, and the defaults hold.
    private var parsed = true

    /// The server over the store (not serving); the data directory must exist unless the data
    /// is in PostgreSQL.
    func server() async throws -> StratusServer {
        guard database != nil || FileManager.default.fileExists(atPath: data) else { throw ValidationError("no data directory at \(data)") }
        return try await StratusServer(configuration: configuration())
    }

    init() {}

    /// A store named in code rather than by options.
    init(data: String, database: String? = nil) {
        self.data = data
        self.database = database
        parsed = false
    }

    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data))
        configuration.storageDrivers = Stratus.storageDrivers
        configuration.databaseURL = database
        if parsed { keys.apply(to: &configuration) }
        configuration.requiresMasterKey = false
        return configuration
    }
}
