import ArgumentParser
import Foundation
import StratusServer

/// The master key and key store of a store (`--encryption-key-file`, `--key-store`), taken by
/// `serve` and by every command that opens the store. `STRATUS_ENCRYPTION_KEY` may hold the key
/// itself (base64) instead of a file.
struct KeyOptions: ParsableArguments {
    @Option(help: "The master key's file, made by `stratus keys init` (STRATUS_ENCRYPTION_KEY may hold the key itself instead). Default: master.key in the data directory, made on first start; keep it apart from the data's backups.")
    var encryptionKeyFile: String?
    @Option(help: "The master key a rotation moves away from, accepted until `stratus keys rotate-master` finishes.")
    var previousEncryptionKeyFile: String?
    @Option(help: "The key store's directory on SQLite, kept apart from the data's backups (default: keys in the data directory).")
    var keyStore: String?

    /// Sets the configuration's master keys and key store.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.encryptionKeyFile = encryptionKeyFile
        configuration.encryptionKey = ProcessInfo.processInfo.environment["STRATUS_ENCRYPTION_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.previousEncryptionKeyFile = previousEncryptionKeyFile
        configuration.keyStoreDirectory = keyStore.map { URL(fileURLWithPath: $0) }
    }
}
