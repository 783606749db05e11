import Crypto
import Foundation

/// A scope's data key, taken from the ``KeyVault`` before a storage transaction: it seals inside
/// the transaction without reaching the key store (on PostgreSQL, a second transaction of the
/// same pool inside the first could wait forever).
package struct Sealer: Sendable {
    package let scope: KeyScope
    let key: SymmetricKey

    /// `plaintext` encrypted with the scope's key, as ``KeyVault/open(_:for:)`` reads it.
    package func seal(_ plaintext: some DataProtocol) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: KeyVault.sealContext(scope))
        return KeyVault.sealedPrefix + box.combined!.base64EncodedString()
    }
}
