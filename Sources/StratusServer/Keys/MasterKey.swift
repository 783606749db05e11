import Crypto
import Foundation

/// The key that wraps every data key (``KeyVault``): 256 bits from outside the database — a file
/// (`--encryption-key-file`, made by `stratus keys init`) or the environment
/// (`STRATUS_ENCRYPTION_KEY`) — never stored in the database or its key store. A file or
/// variable holds the key in base64.
package struct MasterKey: Sendable {
    let key: SymmetricKey
    /// Names the key without revealing it: 16 hex digits of a hash of it. The key store records
    /// which master key wraps each data key by this name, and a refusal to start names it.
    package let fingerprint: String

    /// A key from its base64 text. `source` names where it came from, for errors.
    package init(base64: String, source: String) throws {
        guard let bytes = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw MasterKeyError("\(source) does not hold a master key: 32 bytes in base64, as `stratus keys init` writes")
        }
        key = SymmetricKey(data: bytes)
        fingerprint = Self.fingerprint(of: key)
    }

    /// The key in the file at `path`.
    package init(file path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw MasterKeyError("the master key file \(path) cannot be read: \(error.localizedDescription)")
        }
        try self.init(base64: text, source: "the master key file \(path)")
    }

    /// A new random key.
    package init() {
        key = SymmetricKey(size: .bits256)
        fingerprint = Self.fingerprint(of: key)
    }

    /// Writes a new key to a new file at `path`, readable by its owner only; refuses to overwrite
    /// a file (a master key replaced is every sealed value lost).
    package static func create(at path: String) throws -> MasterKey {
        let master = MasterKey()
        let text = Data(master.key.withUnsafeBytes { Array($0) }).base64EncodedString() + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw MasterKeyError(errno == EEXIST ? "\(path) exists: a master key is never overwritten (rotate with `stratus keys rotate-master`)"
                                                 : "\(path) cannot be created: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count, fsync(descriptor) == 0 else {
            throw MasterKeyError("\(path) cannot be written: \(String(cString: strerror(errno)))")
        }
        return master
    }

    private static func fingerprint(of key: SymmetricKey) -> String {
        let digest = key.withUnsafeBytes { SHA256.hash(data: Array("stratus master key fingerprint\0".utf8) + Array($0)) }
        return digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

/// A master key that cannot be read, made or used; its text says what to do.
package struct MasterKeyError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
