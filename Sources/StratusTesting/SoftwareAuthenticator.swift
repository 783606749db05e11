import Crypto
import CryptoExtras
import Foundation
import StratusServer

/// A passkey authenticator in software, for tests of passkey sign-in: it makes passkeys (ES256,
/// EdDSA or RS256, attestation `none`) and signs assertions, taking the server's options and
/// giving the credential as a browser's `PublicKeyCredential.toJSON()` does, so its JSON goes to
/// `passkey/register`, `passkey/signup`, `passkey/signin` or `Container`'s passkey methods as is.
///
/// ```swift
/// var authenticator = SoftwareAuthenticator(origin: "https://localhost")
/// let options = try await container.passkeySignUpOptions(username: "alice")
/// let user = try await container.signUp(passkey: try authenticator.register(options: options))
/// ```
///
/// ``Faults`` change what it sends, to make credentials a server must refuse.
public struct SoftwareAuthenticator: Sendable {
    /// The signature algorithm of a new passkey.
    public enum Algorithm: Sendable {
        /// ECDSA on P-256 with SHA-256 (COSE −7), what most authenticators make.
        case es256
        /// EdDSA with Ed25519 (COSE −8).
        case ed25519
        /// RSASSA-PKCS1-v1_5 with SHA-256 and a 2,048-bit key (COSE −257), as Windows Hello makes.
        case rs256
    }

    /// Changes to one ceremony's credential; each left nil (or false) sends what a good
    /// authenticator sends.
    public struct Faults: Sendable {
        /// The client data's `type` (`webauthn.create`, `webauthn.get`).
        public var clientDataType: String?
        /// The client data's `challenge` (base64url), instead of the options'.
        public var challenge: String?
        /// The client data's `origin`.
        public var origin: String?
        /// Says the ceremony ran in a frame of another origin.
        public var crossOrigin = false
        /// The RP ID whose SHA-256 the authenticator data carries, instead of the options'.
        public var rpID: String?
        /// The authenticator data's flags (`0x01` user present, `0x04` verified, `0x08` backup
        /// eligible, `0x10` backed up, `0x40` attested credential data).
        public var flags: UInt8?
        /// An attestation format other than `none` (with a statement that proves nothing).
        public var attestationFormat: String?
        /// The COSE algorithm the new key claims, instead of its own.
        public var coseAlgorithm: Int64?
        /// The length of a new passkey's credential ID (32 bytes unless set).
        public var credentialIDLength: Int?
        /// The signature counter sent, instead of the passkey's next.
        public var signCount: UInt32?
        /// Flips a bit of the assertion's signature.
        public var corruptSignature = false
        /// The user handle sent with an assertion (base64url), instead of the passkey's.
        public var userHandle: String?
        /// The credential ID (base64url) a new passkey gets, or an assertion names, instead of a
        /// random one or the passkey's.
        public var credentialID: String?

        /// No faults: what a good authenticator sends.
        public init() {}
    }

    /// A passkey the authenticator made.
    public struct Passkey: Sendable {
        /// Its credential ID, base64url.
        public var id: String { Base64URL.encode(Data(credentialID)) }
        let credentialID: [UInt8]
        let key: SigningKey
        /// The user handle the server gave it.
        public let userHandle: [UInt8]
        /// The relying party it was made for.
        public let rpID: String
        /// The last signature counter sent.
        public internal(set) var signCount: UInt32
    }

    enum SigningKey: Sendable {
        case es256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    /// Why options could not be used.
    public struct OptionsError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The origin the client data names (a browser's page, or `https://` and the RP ID for a
    /// native app).
    public var origin: String
    /// Whether passkeys count their signatures; false always sends 0, as synced passkeys do.
    public var countsSignatures: Bool
    /// The passkeys made, oldest first.
    public private(set) var passkeys: [Passkey] = []

    /// An authenticator with no passkeys yet, whose ceremonies name `origin`, and whose passkeys
    /// count their signatures unless `countsSignatures` is false.
    public init(origin: String, countsSignatures: Bool = true) {
        self.origin = origin
        self.countsSignatures = countsSignatures
    }

    /// Makes a passkey from creation options (`PublicKeyCredentialCreationOptionsJSON`); returns
    /// the credential's JSON (`RegistrationResponseJSON`).
    public mutating func register(options: Data, algorithm: Algorithm = .es256, faults: Faults = Faults()) throws -> Data {
        let options = try Self.object(options)
        guard let challenge = options["challenge"] as? String, let rp = options["rp"] as? [String: Any], let rpID = rp["id"] as? String,
              let user = options["user"] as? [String: Any], let handle = (user["id"] as? String).flatMap(Base64URL.decode) else {
            throw OptionsError(description: "the creation options lack challenge, rp.id or user.id")
        }
        let key: SigningKey = switch algorithm {
        case .es256: .es256(P256.Signing.PrivateKey())
        case .ed25519: .ed25519(Curve25519.Signing.PrivateKey())
        case .rs256: .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        }
        let credentialID = faults.credentialID.flatMap { Base64URL.decode($0).map(Array.init) } ?? (0..<(faults.credentialIDLength ?? 32)).map { _ in UInt8.random(in: 0...255) }
        let counter: UInt32 = countsSignatures ? 1 : 0
        var attested = [UInt8](repeating: 0, count: 16)
        attested += [UInt8(credentialID.count >> 8 & 0xff), UInt8(credentialID.count & 0xff)] + credentialID
        attested += try Self.coseKey(key, algorithm: faults.coseAlgorithm).encoded
        let authenticatorData = Self.authenticatorData(rpID: faults.rpID ?? rpID, flags: faults.flags ?? 0x45, signCount: faults.signCount ?? counter) + attested
        let statement: CBORWriter = faults.attestationFormat == nil ? .map([]) : .map([(.text("alg"), .integer(-7)), (.text("sig"), .bytes([0x30, 0]))])
        let attestation = CBORWriter.map([(.text("fmt"), .text(faults.attestationFormat ?? "none")), (.text("attStmt"), statement),
                                          (.text("authData"), .bytes(authenticatorData))])
        let clientData = try clientDataJSON(type: faults.clientDataType ?? "webauthn.create", challenge: faults.challenge ?? challenge, faults: faults)
        passkeys.append(Passkey(credentialID: credentialID, key: key, userHandle: Array(handle), rpID: rpID, signCount: counter))
        let id = Base64URL.encode(Data(credentialID))
        return try JSONSerialization.data(withJSONObject: [
            "id": id, "rawId": id, "type": "public-key", "authenticatorAttachment": "platform", "clientExtensionResults": [String: Any](),
            "response": ["clientDataJSON": Base64URL.encode(Data(clientData)), "attestationObject": Base64URL.encode(Data(attestation.encoded)),
                         "transports": ["internal"]],
        ])
    }

    /// Signs in with a passkey from request options (`PublicKeyCredentialRequestOptionsJSON`):
    /// the one at `index` (by default the newest for the options' RP ID); returns the assertion's
    /// JSON (`AuthenticationResponseJSON`).
    public mutating func assert(options: Data, passkey index: Int? = nil, faults: Faults = Faults()) throws -> Data {
        let options = try Self.object(options)
        guard let challenge = options["challenge"] as? String, let rpID = options["rpId"] as? String else {
            throw OptionsError(description: "the request options lack challenge or rpId")
        }
        guard let chosen = index ?? passkeys.lastIndex(where: { $0.rpID == rpID }), passkeys.indices.contains(chosen) else {
            throw OptionsError(description: "no passkey for \(rpID)")
        }
        if countsSignatures { passkeys[chosen].signCount += 1 }
        let passkey = passkeys[chosen]
        let authenticatorData = Self.authenticatorData(rpID: faults.rpID ?? rpID, flags: faults.flags ?? 0x05, signCount: faults.signCount ?? passkey.signCount)
        let clientData = try clientDataJSON(type: faults.clientDataType ?? "webauthn.get", challenge: faults.challenge ?? challenge, faults: faults)
        var signature = try Self.sign(authenticatorData + SHA256.hash(data: clientData), with: passkey.key)
        if faults.corruptSignature { signature[signature.count / 2] ^= 0x01 }
        let id = faults.credentialID ?? passkey.id
        return try JSONSerialization.data(withJSONObject: [
            "id": id, "rawId": id, "type": "public-key", "authenticatorAttachment": "platform", "clientExtensionResults": [String: Any](),
            "response": ["clientDataJSON": Base64URL.encode(Data(clientData)), "authenticatorData": Base64URL.encode(Data(authenticatorData)),
                         "signature": Base64URL.encode(Data(signature)), "userHandle": faults.userHandle ?? Base64URL.encode(Data(passkey.userHandle))],
        ])
    }

    private func clientDataJSON(type: String, challenge: String, faults: Faults) throws -> [UInt8] {
        // Written in the order browsers write it: type, challenge, origin, crossOrigin.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let quoted = { (text: String) throws in String(decoding: try encoder.encode(text), as: UTF8.self) }
        let origin = faults.origin ?? self.origin
        return Array("{\"type\":\(try quoted(type)),\"challenge\":\(try quoted(challenge)),\"origin\":\(try quoted(origin)),\"crossOrigin\":\(faults.crossOrigin)}".utf8)
    }

    private static func authenticatorData(rpID: String, flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Data(rpID.utf8))) + [flags] + withUnsafeBytes(of: signCount.bigEndian, Array.init)
    }

    private static func coseKey(_ key: SigningKey, algorithm: Int64?) throws -> CBORWriter {
        switch key {
        case .es256(let key):
            let raw = Array(key.publicKey.rawRepresentation)
            return .map([(.integer(1), .integer(2)), (.integer(3), .integer(algorithm ?? -7)), (.integer(-1), .integer(1)),
                         (.integer(-2), .bytes(Array(raw[..<32]))), (.integer(-3), .bytes(Array(raw[32...])))])
        case .ed25519(let key):
            return .map([(.integer(1), .integer(1)), (.integer(3), .integer(algorithm ?? -8)), (.integer(-1), .integer(6)),
                         (.integer(-2), .bytes(Array(key.publicKey.rawRepresentation)))])
        case .rs256(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            return .map([(.integer(1), .integer(3)), (.integer(3), .integer(algorithm ?? -257)), (.integer(-1), .bytes(Array(primitives.modulus))),
                         (.integer(-2), .bytes(Array(primitives.publicExponent)))])
        }
    }

    private static func sign(_ data: [UInt8], with key: SigningKey) throws -> [UInt8] {
        switch key {
        case .es256(let key): Array(try key.signature(for: data).derRepresentation)
        case .ed25519(let key): Array(try key.signature(for: data))
        case .rs256(let key): Array(try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    private static func object(_ json: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw OptionsError(description: "the options are not a JSON object")
        }
        return object
    }
}

/// The CBOR (RFC 8949) a software authenticator writes: definite lengths, the shortest heads.
enum CBORWriter: Sendable {
    case integer(Int64)
    case bytes([UInt8])
    case text(String)
    case map([(CBORWriter, CBORWriter)])

    var encoded: [UInt8] {
        switch self {
        case .integer(let value): value >= 0 ? Self.head(0, UInt64(value)) : Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let pairs): Self.head(5, UInt64(pairs.count)) + pairs.flatMap { $0.0.encoded + $0.1.encoded }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: return [type | 24, UInt8(argument)]
        case 0x100...0xffff: return [type | 25] + withUnsafeBytes(of: UInt16(argument).bigEndian, Array.init)
        case 0x10000...0xffff_ffff: return [type | 26] + withUnsafeBytes(of: UInt32(argument).bigEndian, Array.init)
        default: return [type | 27] + withUnsafeBytes(of: argument.bigEndian, Array.init)
        }
    }
}
