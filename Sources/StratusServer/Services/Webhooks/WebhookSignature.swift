import Crypto
import Foundation

/// Standard Webhooks' symmetric signature (`v1`): HMAC-SHA256 of `{id}.{timestamp}.{body}` under
/// a secret shown as `whsec_` and its base64 (docs/webhooks.md).
package struct WebhookSignature: Sendable {
    /// The prefix of a secret's text.
    package static let secretPrefix = "whsec_"
    /// The bytes of a secret the server makes (the spec asks for 24 to 64).
    static let secretBytes = 32

    private let key: SymmetricKey

    /// The signer of a secret's text (`whsec_…`); nil when the text is not one.
    package init?(secret: String) {
        guard secret.hasPrefix(Self.secretPrefix), let bytes = Data(base64Encoded: String(secret.dropFirst(Self.secretPrefix.count))),
              !bytes.isEmpty else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// A new random secret's text.
    static func newSecret() -> String {
        secretPrefix + Data(SecretGenerator.randomBytes(secretBytes)).base64EncodedString()
    }

    /// The `v1,…` entry of `webhook-signature` for a message.
    package func signature(id: String, timestamp: Int64, body: some DataProtocol) -> String {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data("\(id).\(timestamp).".utf8))
        mac.update(data: body)
        return "v1," + Data(mac.finalize()).base64EncodedString()
    }

    /// Whether a `webhook-signature` header holds a `v1` entry this secret made for the message
    /// (entries of other versions are skipped; comparison in constant time).
    package func verifies(_ header: String, id: String, timestamp: Int64, body: some DataProtocol) -> Bool {
        let expected = Data(signature(id: id, timestamp: timestamp, body: body).utf8)
        return header.split(separator: " ").contains { entry in
            let given = Data(entry.utf8)
            return given.count == expected.count && zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}
