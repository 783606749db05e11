import Crypto
import Foundation
import StratusCore

/// The one format of the opaque tokens the server hands out and takes back (query continuation
/// markers, long-poll courier tokens): a value's JSON sealed with ChaCha20-Poly1305 under a key
/// derived from the server's secret, as base64url.
///
/// A client can neither read a sealed token nor forge or alter one, and every instance on the
/// same store opens what any other sealed, because they share the secret.
enum SealedToken {
    /// `value` sealed with `key`; empty if it cannot be encoded.
    static func seal(_ value: some Encodable, with key: SymmetricKey) -> String {
        guard let plain = try? JSONEncoder().encode(value), let box = try? ChaChaPoly.seal(plain, using: key) else { return "" }
        return Base64URL.encode(box.combined)
    }

    /// The value `text` carries, or nil when it was not sealed with `key` or holds something else.
    static func open<Value: Decodable>(_ type: Value.Type, from text: String, with key: SymmetricKey) -> Value? {
        guard let data = Base64URL.decode(text), let box = try? ChaChaPoly.SealedBox(combined: data),
              let plain = try? ChaChaPoly.open(box, using: key) else { return nil }
        return try? JSONDecoder().decode(type, from: plain)
    }
}

/// Where a paged answer's next page starts, handed out as a ``SealedToken`` (`continuationMarker`):
/// clients can neither read a marker (it may name a position among records they cannot see) nor
/// forge or alter one.
package protocol SealedMarker: Codable {}

extension SealedMarker {
    /// The marker sealed with `key`.
    package func sealed(with key: SymmetricKey) -> String {
        SealedToken.seal(self, with: key)
    }

    /// Opens a marker sealed with `key`, or throws `BAD_REQUEST` for anything else.
    package init(unsealing text: String, with key: SymmetricKey) throws(CloudKitError) {
        guard let marker = SealedToken.open(Self.self, from: text, with: key) else {
            throw .badRequest("continuationMarker is not valid")
        }
        self = marker
    }
}
