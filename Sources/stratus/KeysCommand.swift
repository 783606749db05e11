import ArgumentParser
import Foundation
import StratusServer

/// `stratus keys …`: the master key and the key store (`stratus key …` is a container's
/// server-to-server keys).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Manage the master key and the key store.", subcommands: [Init.self, Backup.self, Restore.self, RotateMaster.self])

    /// `stratus keys init`: a new master key in a new file; prints its fingerprint.
    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a new master key in a new file (never overwritten); print its fingerprint.")

        @Option(help: "The file to make, readable by its owner only.") var keyFile: String

        func run() async throws {
            print(try MasterKey.create(at: keyFile).fingerprint)
        }
    }

    /// `stratus keys backup`: the key store alone, its data keys still wrapped, into a directory.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the key store (every data key, wrapped by the master key) to keystore.json in a new directory, apart from the data's backups.")

        @OptionGroup var store: StoreLocation
        @Option(help: "The directory to write; it must not exist or be empty.") var to: String

        func run() async throws {
            let count = try await store.server().backUpKeyStore(to: URL(fileURLWithPath: to))
            print("\(count) data keys written to \(to)")
        }
    }

    /// `stratus keys restore`: a key store backup loaded into a store that has no data key yet.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a key store backup (`stratus keys backup`) into a store whose key store holds no data key yet: after `stratus restore` or `stratus copy`, before serving.")

        @OptionGroup var store: StoreLocation
        @Option(help: "The directory `stratus keys backup --to` wrote.") var from: String

        func run() async throws {
            let count = try await store.server().restoreKeyStore(from: URL(fileURLWithPath: from))
            print("\(count) data keys restored from \(from)")
        }
    }

    /// `stratus keys rotate-master`: every data key re-wrapped with a new master key.
    struct RotateMaster: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-wrap every data key with a new master key, in bounded transactions; run it again after an interruption to finish.")

        @OptionGroup var store: StoreLocation
        @Option(help: "The new master key's file (made by `stratus keys init`).") var newKeyFile: String
        @Option(help: "Data keys re-wrapped per transaction.") var batch = 500

        func run() async throws {
            var configuration = store.configuration()
            let current = configuration.encryptionKeyFile ?? (configuration.encryptionKey == nil ? configuration.defaultMasterKeyPath : nil)
            guard let current else { throw ValidationError("give the current master key as a file (--encryption-key-file) to rotate from") }
            configuration.previousEncryptionKeyFile = current
            configuration.encryptionKeyFile = newKeyFile
            configuration.encryptionKey = nil
            guard batch > 0 else { throw ValidationError("--batch must be positive") }
            let count = try await StratusServer(configuration: configuration).rotateMasterKey(batch: batch) { done in
                FileHandle.standardOutput.write(Data("\(done) data keys re-wrapped so far\n".utf8))
            }
            print("\(count) data keys re-wrapped; start every instance with --encryption-key-file \(newKeyFile) from now on")
        }
    }
}
