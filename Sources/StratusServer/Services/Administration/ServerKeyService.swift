import Crypto
import Foundation
import NIOCore
import StratusCore

/// CloudKit's server-to-server keys: a backend registers the public half of an ECDSA P-256 key
/// with the container (`stratus key add`) and signs each request with the private half.
///
/// A signed request carries three headers: `X-Apple-CloudKit-Request-KeyID`,
/// `X-Apple-CloudKit-Request-ISO8601Date` and `X-Apple-CloudKit-Request-SignatureV1`, the base64
/// DER signature (ECDSA with SHA-256) of `date:base64(SHA-256(body)):subpath`, where `subpath` is
/// the URL path from `/database/1/…` on. The date must be within ``maxClockSkew`` of the server's
/// clock, and a signed message is accepted once: sent again within that window (with the same
/// signature or another — ECDSA signatures differ each time), it is refused.
/// Requests signed by a key act in the public database as ``identity``.
package final class ServerKeyService: Sendable {
    let storage: any StratusStorage
    /// How far a request's date may be from the server's clock, either way.
    static let maxClockSkew: Int64 = 5 * 60 * 1000
    /// The user every container's server keys act as: one identity, so that rotating keys keeps
    /// the ownership of what the backend created.
    package static let identity = "_server"
    let clock: ServerClock
    init(storage: any StratusStorage, clock: ServerClock) {
        self.storage = storage
        self.clock = clock
    }

    // MARK: Administration

    /// Registers a PEM public key (P-256) with an existing container; returns the new key.
    package func add(containerID: String, publicKeyPEM: String) async throws -> StoredServerKey {
        do {
            _ = try P256.Signing.PublicKey(pemRepresentation: publicKeyPEM)
        } catch {
            throw CloudKitError.badRequest("the public key is not a PEM-encoded ECDSA P-256 public key")
        }
        let key = StoredServerKey(keyID: SecretGenerator.apiToken(), containerID: containerID,
                                  publicKeyPEM: publicKeyPEM, createdAt: clock.milliseconds, revokedAt: nil)
        let audit = AuditLog.entry("key.add", container: containerID, key.keyID, at: clock.milliseconds)
        try await storage.write { transaction in
            guard try await transaction.container(id: containerID) != nil else {
                throw CloudKitError.notFound("there is no container '\(containerID)'")
            }
            try await transaction.insertServerKey(key)
            try await transaction.appendAudit(audit)
        }
        return key
    }

    package func list(containerID: String) async throws -> [StoredServerKey] {
        try await storage.read { try await $0.serverKeys(containerID: containerID) }
    }

    /// Revokes a key of a container; false if it had no such key or it was revoked already.
    package func revoke(keyID: String, containerID: String) async throws -> Bool {
        let audit = AuditLog.entry("key.revoke", container: containerID, keyID, at: clock.milliseconds)
        return try await storage.write { transaction in
            guard try await transaction.serverKey(keyID: keyID)?.containerID == containerID,
                  try await transaction.revokeServerKey(keyID: keyID, at: self.clock.milliseconds) else { return false }
            try await transaction.appendAudit(audit)
            return true
        }
    }

    // MARK: Signed requests

    /// The three headers of a signed request.
    package struct Signature: Sendable {
        package var keyID: String
        package var date: String
        package var signature: String
    }

    /// Checks a signed request to `subpath` of the container; throws `AUTHENTICATION_FAILED`
    /// (unknown or revoked key, a date outside the window, a bad or replayed signature).
    package func authenticate(_ signed: Signature, body: ByteBuffer, subpath: String, containerID: String) async throws {
        let key = try await storage.read { try await $0.serverKey(keyID: signed.keyID) }
        guard let key, key.containerID == containerID, key.revokedAt == nil else {
            throw Self.failed("the server-to-server key is unknown or revoked")
        }
        guard let date = ISO8601DateFormatter().date(from: signed.date) else {
            throw Self.failed("X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date")
        }
        let now = clock.milliseconds
        let signedAt = Int64(date.timeIntervalSince1970 * 1000)
        guard abs(now - signedAt) <= Self.maxClockSkew else {
            throw Self.failed("the request's date is more than \(Self.maxClockSkew / 60_000) minutes from the server's clock")
        }
        guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM),
              let der = Data(base64Encoded: signed.signature),
              let signature = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw Self.failed("X-Apple-CloudKit-Request-SignatureV1 is not a base64 DER ECDSA signature")
        }
        let bodyHash = body.withUnsafeReadableBytes { Data(SHA256.hash(data: $0)).base64EncodedString() }
        // Bodiless requests: some clients sign `date::subpath`, with no hash at all.
        let messages = (body.readableBytes == 0 ? [bodyHash, ""] : [bodyHash]).map { "\(signed.date):\($0):\(subpath)" }
        guard messages.contains(where: { publicKey.isValidSignature(signature, for: Data($0.utf8)) }) else {
            throw Self.failed("the signature does not match the request")
        }
        try await acceptOnce(Self.replayKey(keyID: signed.keyID, signature), until: signedAt + Self.maxClockSkew, now: now)
    }

    /// What identifies a signature when looking for replays: the key and the signature's `r`.
    ///
    /// A replay is the same signature seen again, not the same content: an honest client may send
    /// one request twice within a second (Apple's date header has no fractions), and each ECDSA
    /// signature of it differs. `r` alone is kept because a signature's other half can be flipped
    /// (`s` to `n - s`) into a second valid signature of the same message, and its DER encoding
    /// varies too; `r` comes from the signer's random nonce and survives both.
    static func replayKey(keyID: String, _ signature: P256.Signing.ECDSASignature) -> String {
        keyID + " " + Data(signature.rawRepresentation.prefix(32)).base64EncodedString()
    }

    /// Accepts a signature once within the window, on every instance of the store and across
    /// restarts (``ReplayStore``).
    private func acceptOnce(_ message: String, until expiry: Int64, now: Int64) async throws {
        guard try await storage.write({ try await $0.useOnce("signature " + message, until: expiry, now: now) }) else {
            throw Self.failed("this signature was used already; sign each request anew (a replay)")
        }
    }

    private static func failed(_ reason: String) -> CloudKitError {
        CloudKitError(.authenticationFailed, reason)
    }
}
