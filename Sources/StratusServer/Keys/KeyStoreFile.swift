import Foundation
import StratusCore

/// `keystore.json`, what `stratus keys backup` writes: the key store alone (``KeyStoreBackup``),
/// owner-only, in a directory of its own.
enum KeyStoreFile {
    static let name = "keystore.json"

    /// Writes `contents` into `directory` (made if absent; refused if it holds anything); returns
    /// how many data keys it wrote.
    static func write(_ contents: KeyStoreBackup, to directory: URL) throws -> Int {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory.path) {
            guard try manager.contentsOfDirectory(atPath: directory.path).isEmpty else {
                throw CloudKitError.badRequest("\(directory.path) is not empty: a key store backup goes into a new directory")
            }
        } else {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let path = directory.appendingPathComponent(name).path
        guard manager.createFile(atPath: path, contents: try encoder.encode(contents), attributes: [.posixPermissions: 0o600]) else {
            throw CloudKitError(.internalError, "cannot write \(path)")
        }
        return contents.dataKeys.count
    }
}
