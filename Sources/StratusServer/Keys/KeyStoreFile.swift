import Foundation
import StratusCore

/// `keystore.json`, what `stratus keys backup` writes and `stratus keys restore` reads: the key
/// store alone (``KeyStoreBackup``), owner-only, in a directory of its own.
enum KeyStoreFile {
    static let name = "keystore.json"

    /// Writes `contents` durably into `directory`, which must not exist or be empty; returns how
    /// many data keys it wrote.
    static func write(_ contents: KeyStoreBackup, to directory: URL) throws -> Int {
        try BackupFiles.prepareEmpty(directory, role: "key store backup directory")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let path = directory.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: try encoder.encode(contents), attributes: [.posixPermissions: 0o600]) else {
            throw CloudKitError(.internalError, "cannot write \(path)")
        }
        try BackupFiles.synchronize(path)
        return contents.dataKeys.count
    }

    /// What `write(_:to:)` wrote into `directory`.
    static func read(from directory: URL) throws -> KeyStoreBackup {
        let path = directory.appendingPathComponent(name)
        guard let bytes = FileManager.default.contents(atPath: path.path) else {
            throw CloudKitError.badRequest("\(path.path) is missing: give the directory `stratus keys backup --to` wrote")
        }
        guard let contents = try? JSONDecoder().decode(KeyStoreBackup.self, from: bytes), contents.format == 1 else {
            throw CloudKitError.badRequest("\(path.path) is not a key store backup of this release, or it is damaged")
        }
        return contents
    }
}
