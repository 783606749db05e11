import ArgumentParser
import Foundation
import StratusServer

/// Which store and container a command works on (`--data`, `--database`, `--container`).
struct DataLocation: ParsableArguments {
    @OptionGroup var store: StoreLocation
    @Option(help: "The container identifier.") var container = "iCloud.dev.stratus"

    var data: String { store.data }

    /// The server over the store (not serving).
    func server() async throws -> StratusServer {
        try await store.server()
    }
}
