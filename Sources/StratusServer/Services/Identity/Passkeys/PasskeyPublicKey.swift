import Crypto
import CryptoExtras
import Foundation

/// A passkey's public key, read from the COSE_Key (RFC 9052) an authenticator gives when the
/// passkey is made, and what checks its assertions' signatures: ES256 (ECDSA P-256 with SHA-256,
/// signatures in ASN.1 DER), EdDSA (Ed25519) and RS256 (RSASSA-PKCS1-v1_5 with SHA-256, at least
/// 2,048 bits, as the WebAuthn specification requires of that algorithm).
enum PasskeyPublicKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithm identifiers accepted, in the order the options offer them.
    static let algorithms: [Int64] = [es256Algorithm, ed25519Algorithm, rs256Algorithm]
    static let es256Algorithm: Int64 = -7
    static let ed25519Algorithm: Int64 = -8
    static let rs256Algorithm: Int64 = -257

    /// The key a COSE_Key describes; throws for a key type, curve or algorithm not accepted, or
    /// key material of the wrong size.
    init(cose key: CBOR) throws(PasskeyError) {
        guard let kty = key[integer: 1]?.integer, let alg = key[integer: 3]?.integer else {
            throw .invalid("the credential's public key has no key type or algorithm")
        }
        switch (kty, alg) {
        case (2, Self.es256Algorithm):
            guard key[integer: -1]?.integer == 1, let x = key[integer: -2]?.byteString, let y = key[integer: -3]?.byteString,
                  x.count == 32, y.count == 32, let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
                throw .invalid("the credential's ES256 key is not a P-256 point")
            }
            self = .es256(publicKey)
        case (1, Self.ed25519Algorithm):
            guard key[integer: -1]?.integer == 6, let x = key[integer: -2]?.byteString, x.count == 32,
                  let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else {
                throw .invalid("the credential's EdDSA key is not an Ed25519 key")
            }
            self = .ed25519(publicKey)
        case (3, Self.rs256Algorithm):
            guard let n = key[integer: -1]?.byteString, let e = key[integer: -2]?.byteString, n.count <= 1024, e.count <= 8,
                  let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                throw .invalid("the credential's RS256 key is not an RSA key of 2,048 bits or more")
            }
            self = .rs256(publicKey)
        default:
            throw .invalid("the credential's key (key type \(kty), algorithm \(alg)) is none of ES256, EdDSA and RS256")
        }
    }

    /// The key's COSE algorithm identifier.
    var algorithm: Int64 {
        switch self {
        case .es256: Self.es256Algorithm
        case .ed25519: Self.ed25519Algorithm
        case .rs256: Self.rs256Algorithm
        }
    }

    /// Whether `signature` is this key's over `data` (WebAuthn signs authenticator data followed
    /// by the SHA-256 of the client data).
    func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rs256(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
