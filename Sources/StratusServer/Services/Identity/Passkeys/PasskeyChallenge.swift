import Crypto
import Foundation

/// The challenge of a passkey ceremony, made so that any instance can check it without storing
/// it first: what it is for, when it expires, the user handle a new passkey gets, and a MAC over
/// those and whom it was issued to (the container, the environment, the signed-in user or the
/// username signing up), under a key derived from the store's secret. The authenticator signs
/// it inside the client data; the server then uses it once (``ReplayStore``).
///
/// Layout: purpose (1 byte) ‖ expiry in ms (8, big-endian) ‖ random (16) ‖ user handle (64, for
/// `create` only) ‖ HMAC-SHA256 (32).
struct PasskeyChallenge: Sendable {
    /// What a challenge may be used for.
    enum Purpose: UInt8, Sendable {
        /// Making a passkey: registration (signed in) or sign-up.
        case create = 1
        /// Using one: sign-in, or proof for the account centre.
        case get = 2
    }

    /// Whom a challenge was issued to; each must match where it is used.
    struct Audience: Sendable {
        var containerID: String
        var environment: String
        /// The signed-in user registering a passkey, `signup:` and the username signing up, or
        /// empty for a sign-in (the passkey says whose it is).
        var subject: String
    }

    let purpose: Purpose
    let expiry: Int64
    /// The user handle a `create` challenge gives the new passkey.
    let userHandle: [UInt8]?
    /// The challenge as the authenticator signs it.
    let bytes: [UInt8]

    /// How long a challenge works: five minutes, the ceremonies' timeout.
    static let lifetime: Duration = .seconds(300)
    /// The length of a user handle: 64 random bytes (WebAuthn's longest), never a name or address.
    static let userHandleBytes = 64
    private static let macBytes = 32

    /// A new challenge.
    static func issue(_ purpose: Purpose, to audience: Audience, userHandle: [UInt8]? = nil, key: SymmetricKey, now: Int64) -> PasskeyChallenge {
        let expiry = now + lifetime.milliseconds
        var bytes: [UInt8] = [purpose.rawValue]
        withUnsafeBytes(of: expiry.bigEndian) { bytes += $0 }
        bytes += SecretGenerator.randomBytes(16)
        if purpose == .create { bytes += userHandle ?? [] }
        bytes += mac(bytes, audience: audience, key: key)
        return PasskeyChallenge(purpose: purpose, expiry: expiry, userHandle: purpose == .create ? userHandle : nil, bytes: bytes)
    }

    /// The challenge `bytes` are, if this server issued them for `purpose` to `audience` and they
    /// have not expired by `now`; it is not used up here.
    static func check(_ bytes: [UInt8], for purpose: Purpose, to audience: Audience, key: SymmetricKey,
                      now: Int64) throws(PasskeyError) -> PasskeyChallenge {
        let length = 1 + 8 + 16 + (purpose == .create ? userHandleBytes : 0) + macBytes
        guard bytes.count == length, bytes[0] == purpose.rawValue else { throw .invalid("the challenge is not one this server issued for this ceremony") }
        let signed = Array(bytes[..<(length - macBytes)])
        let expected = mac(signed, audience: audience, key: key)
        guard PasswordHasher.constantTimeEquals(Array(bytes[(length - macBytes)...]), expected) else {
            throw .invalid("the challenge is not one this server issued for this ceremony")
        }
        let expiry = bytes[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard expiry > now else { throw .invalid("the challenge has expired: ask for new options") }
        return PasskeyChallenge(purpose: purpose, expiry: expiry, userHandle: purpose == .create ? Array(bytes[25..<(25 + userHandleBytes)]) : nil,
                                bytes: bytes)
    }

    /// What the replay store remembers of a used challenge.
    var replayKey: String { "passkey-challenge " + SecretGenerator.digest(Base64URL.encode(Data(bytes))) }

    private static func mac(_ bytes: [UInt8], audience: Audience, key: SymmetricKey) -> [UInt8] {
        var message = Data(bytes)
        for part in [audience.containerID, audience.environment, audience.subject] {
            message += withUnsafeBytes(of: UInt32(part.utf8.count).bigEndian) { Data($0) } + Data(part.utf8)
        }
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
}
