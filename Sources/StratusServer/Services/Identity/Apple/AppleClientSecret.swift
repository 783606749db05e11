import Foundation
import JWTKit

/// The client secret the server presents to Apple's token and revocation endpoints: a JWT it
/// signs with its Sign in with Apple key (ES256, the key's ID as `kid`), issued by the team,
/// for Apple (`aud` `https://appleid.apple.com`), naming the client ID (`sub`). Apple accepts
/// one up to six months old; the server signs a fresh one, valid for five minutes, for each call.
struct AppleClientSecret: Sendable {
    private let key: AppleClientSecretKey
    private let privateKey: ES256PrivateKey

    /// How long a secret is valid (Apple allows up to 15,777,000 seconds).
    static let lifetime: TimeInterval = 300
    /// The audience Apple requires, whatever URL the server reaches Apple at.
    static let audience = "https://appleid.apple.com"

    /// A signer with `key`; fails when its PEM is not a P-256 private key.
    init(key: AppleClientSecretKey) throws {
        self.key = key
        do {
            privateKey = try ES256PrivateKey(pem: key.privateKeyPEM)
        } catch {
            throw ConfigurationError("the Sign in with Apple key (--apple-private-key-file) is not a P-256 private key in PEM: \(error)")
        }
    }

    /// The claims Apple reads.
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var aud: AudienceClaim
        var sub: SubjectClaim

        func verify(using _: some JWTAlgorithm) throws {}
    }

    /// A secret for `clientID`, issued at `now`.
    func secret(for clientID: String, at now: Date) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: privateKey, kid: JWKIdentifier(string: key.keyID))
        return try await keys.sign(Claims(iss: IssuerClaim(value: key.teamID), iat: IssuedAtClaim(value: now),
                                          exp: ExpirationClaim(value: now + Self.lifetime), aud: AudienceClaim(value: [Self.audience]),
                                          sub: SubjectClaim(value: clientID)),
                                   kid: JWKIdentifier(string: key.keyID))
    }
}
