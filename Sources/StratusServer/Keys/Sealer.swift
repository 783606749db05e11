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

    /// `plaintext` encrypted with the scope's key and bound to `context` (what it is, such as a
    /// record's field): ``open(_:in:)`` with another context fails.
    package func seal(_ plaintext: some DataProtocol, in context: String) throws -> String {
        try seal(plaintext, authenticating: KeyVault.sealContext(scope, context))
    }

    /// The plaintext of a value ``seal(_:in:)`` made for the same context; ``KeyVaultError/damaged``
    /// for text that is not one.
    package func open(_ sealed: some StringProtocol, in context: String) throws(KeyVaultError) -> [UInt8] {
        try KeyVault.open(sealed, with: key, authenticating: KeyVault.sealContext(scope, context))
    }

    /// What names the key in the blob-store names of files sealed with it
    /// (``SealedAssetFile/name(checksum:sealer:)``): 16 hex digits of an HMAC under it, which
    /// tell nothing of the key.
    var assetFileTag: String {
        SecretGenerator.hex(HMAC<SHA256>.authenticationCode(for: Array("stratus asset file names".utf8), using: key).prefix(8))
    }

    private func seal(_ plaintext: some DataProtocol, authenticating context: Data) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: context)
        return KeyVault.sealedPrefix + box.combined!.base64EncodedString()
    }
}
