import Crypto
import Foundation

/// A scope's data key, taken from the ``KeyVault`` before a storage transaction: it seals and
/// opens inside the transaction (and in an answer made while it commits) without reaching the key
/// store (on PostgreSQL, a second transaction of the same pool inside the first could wait
/// forever).
package struct Sealer: Sendable {
    package let scope: KeyScope
    let key: SymmetricKey

    /// `plaintext` encrypted with the scope's key, as ``KeyVault/open(_:for:)`` reads it.
    package func seal(_ plaintext: some DataProtocol) throws -> String {
        try seal(plaintext, authenticating: KeyVault.sealContext(scope))
    }

    /// What a value sealed in a context is bound to: ``KeyVault``'s associated data for the scope
    /// (`sealed|<scope>|`) and then what `context` writes (such as a record's name and fields'
    /// names), built as bytes.
    package func context(_ context: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + scope.name.utf8.count)
        bytes.append(contentsOf: "sealed|".utf8)
        bytes.append(contentsOf: scope.name.utf8)
        bytes.append(UInt8(ascii: "|"))
        context(&bytes)
        return bytes
    }

    /// `plaintext` encrypted with the scope's key and bound to `context` (made by
    /// ``context(_:)``): ``open(_:in:)`` with another context fails.
    package func seal(_ plaintext: some DataProtocol, in context: [UInt8]) throws -> String {
        try seal(plaintext, authenticating: context)
    }

    /// The plaintext of a value ``seal(_:in:)`` made for the same context, read from the sealed
    /// text's bytes (inside stored JSON, say); ``KeyVaultError/damaged`` for text that is not one.
    package func open(_ sealed: ArraySlice<UInt8>, in context: [UInt8]) throws(KeyVaultError) -> Data {
        try KeyVault.open(sealed, with: key, authenticating: context)
    }

    /// What names the key in the blob-store names of files sealed with it
    /// (``SealedAssetFile/name(checksum:sealer:)``): 16 hex digits of an HMAC under it, which
    /// tell nothing of the key.
    var assetFileTag: String {
        SecretGenerator.hex(HMAC<SHA256>.authenticationCode(for: Array("stratus asset file names".utf8), using: key).prefix(8))
    }

    private func seal(_ plaintext: some DataProtocol, authenticating context: some DataProtocol) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: key, nonce: NonceReserve.shared.next(), authenticating: context)
        return KeyVault.sealedPrefix + box.combined!.base64EncodedString()
    }
}
