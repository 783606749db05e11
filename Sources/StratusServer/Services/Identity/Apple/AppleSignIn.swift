import Foundation
import JWTKit
import StratusCore

/// Sign in with Apple: an app sends the identity token Apple gave it, and the user signs in to
/// the account linked to their Apple ID, or to a new one.
///
/// A token is accepted when its RS256 signature verifies against one of Apple's published keys
/// (``PublishedKeys``), its issuer is Apple, its audience is one of the container's client IDs,
/// it has not expired and was not issued in the future (a minute's skew either way), and, when
/// the token carries a nonce's SHA-256, the client sent that nonce (with
/// ``AppleSignInConfiguration/requiresNonce``, every token must carry one). Any other `alg`
/// (`none`, `HS256`) is refused before a key is looked at. A token is accepted once: the server
/// remembers it (``ReplayStore``) until it expires, across restarts and instances.
///
/// Users are found by Apple's `sub`, never by email (an address can change hands, and Apple's
/// relay addresses differ per app); the email and `email_verified` are kept as Apple gave them.
/// A signed-in user links an Apple ID to their account explicitly, and unlinks it only while
/// they have a password or a passkey to sign in with, each with fresh proof (``AccountCentre``). Deleting the
/// account forgets the link with the row.
///
/// An app may send the authorization code Apple gave it with the token: when the operator gave
/// the server its Sign in with Apple key, the server exchanges the code at Apple for a refresh
/// token (``AppleTokenEndpoint``), checks it was issued for the token's Apple ID, and keeps it
/// sealed for the container, to revoke when the account is deleted or the Apple ID unlinked
/// (``AppleTokenRevoker``).
package struct AppleSignIn: Sendable {
    let configuration: AppleSignInConfiguration
    let publishedKeys: PublishedKeys
    let storage: any StratusStorage
    let auth: AuthService
    /// Mails users the changes to how their accounts sign in.
    let notices: SecurityNotices
    /// Apple's token endpoint; nil without the operator's key (codes are then not exchanged).
    let tokens: AppleTokenEndpoint?
    let revoker: AppleTokenRevoker
    /// Seals the refresh tokens kept.
    let keys: KeyVault
    let clock: ServerClock

    /// The longest identity token accepted (Apple's are about 1 KB).
    static let maxTokenBytes = 8 * 1024
    /// The issuer of Apple's identity tokens.
    static let issuerName = "https://appleid.apple.com"
    /// How far the server's clock may be from Apple's.
    static let allowedSkew: TimeInterval = 60

    init(configuration: AppleSignInConfiguration, storage: any StratusStorage, auth: AuthService, notices: SecurityNotices,
         tokens: AppleTokenEndpoint?, revoker: AppleTokenRevoker, keys: KeyVault, clock: ServerClock) {
        self.configuration = configuration
        self.clock = clock
        self.notices = notices
        self.tokens = tokens
        self.revoker = revoker
        self.keys = keys
        publishedKeys = PublishedKeys(url: configuration.keysURL, publisher: "Apple", refetchInterval: configuration.refetchInterval)
        self.storage = storage
        self.auth = auth
    }

    /// `apple`: signs the token's user in, creating their account the first time.
    package func signIn(_ request: AppleSignInRequest, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> SignInResponse {
        try await auth.throttleSignIn(from: origin.client)
        let identity = try await verify(request, containerID: containerID)
        return try await storage.write { [auth] transaction in
            if let user = try await transaction.user(containerID: containerID, appleSubject: identity.subject) {
                let kept = Self.merged(identity, into: user.apple)
                if kept != user.apple { try await transaction.setAppleIdentity(user: user.userRecordName, kept) }
                return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
            }
            let user = StoredUser(userRecordName: SecretGenerator.userRecordName(), containerID: containerID, username: Self.newUsername(),
                                  passwordHash: "", createdAt: clock.milliseconds, apple: identity)
            try await transaction.insertUser(user)
            return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
        }
    }

    /// `apple/link`: links the token's Apple ID to the signed-in user's account.
    package func link(_ request: AppleSignInRequest, to session: StoredSession) async throws {
        let identity = try await verify(request, containerID: session.containerID)
        try await storage.write { transaction in
            if let owner = try await transaction.user(containerID: session.containerID, appleSubject: identity.subject),
               owner.userRecordName != session.userRecordName {
                throw CloudKitError.badRequest("this Apple ID signs in to another account")
            }
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            if let linked = user.apple, linked.subject != identity.subject {
                throw CloudKitError.badRequest("the account is linked to another Apple ID: unlink it first")
            }
            try await transaction.setAppleIdentity(user: user.userRecordName, Self.merged(identity, into: user.apple))
            if user.apple == nil { try await notices.notify(user, "An Apple ID was linked to your account", in: transaction) }
        }
        notices.sent()
    }

    /// `apple/unlink`: forgets the signed-in user's Apple ID, if they have a password or a passkey
    /// to sign in with, and ends their other sessions; returns the token hashes of the sessions ended.
    package func unlink(_ session: StoredSession) async throws -> [String] {
        defer {
            notices.sent()
            revoker.nudge()
        }
        return try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            guard try await AccountCentre.methods(of: user, in: transaction).count > 1 else {
                throw CloudKitError.badRequest("set a password or add a passkey before unlinking Sign in with Apple: the account would have no way to sign in")
            }
            try await transaction.setAppleIdentity(user: user.userRecordName, nil)
            try await AppleTokenRevoker.enqueue(user.apple, of: user.containerID, at: clock.milliseconds, in: transaction)
            try await notices.notify(user, "Sign in with Apple was removed from your account", in: transaction)
            return try await transaction.deleteSessions(user: user.userRecordName, except: session.tokenHash)
        }
    }

    /// The signed-in user, once they proved it again with a fresh token of their linked Apple ID
    /// (how an account without a password confirms its deletion). A refresh token exchanged for
    /// the request's authorization code is kept: the deletion that follows revokes it.
    package func confirmedUser(_ session: StoredSession, _ request: AppleSignInRequest) async throws -> StoredUser {
        let identity = try await verify(request, containerID: session.containerID)
        return try await storage.write { transaction in
            guard let user = try await transaction.user(recordName: session.userRecordName), user.apple?.subject == identity.subject else {
                throw CloudKitError(.authenticationFailed, "this Apple ID is not the one linked to the account")
            }
            let kept = Self.merged(identity, into: user.apple)
            if kept != user.apple { try await transaction.setAppleIdentity(user: user.userRecordName, kept) }
            return user
        }
    }

    /// Checks an identity token (see the type's description) and returns whom it identifies.
    func verify(_ request: AppleSignInRequest, containerID: String) async throws -> StoredAppleIdentity {
        try Self.checkBounds(request)
        let token = request.identityToken
        let claims = try await verifiedClaims(of: token, as: OpenIDClaims.self, containerID: containerID, what: "the identity token")
        if let hashed = claims.nonce?.lowercased() {
            guard let nonce = request.nonce else {
                throw Self.failed("the identity token carries a nonce: send the nonce with it")
            }
            guard PasswordHasher.constantTimeEquals(Array(hashed.utf8), Array(SecretGenerator.digest(nonce).utf8)) else {
                throw Self.failed("the identity token does not carry the SHA-256 of this nonce")
            }
        } else if request.nonce != nil {
            throw Self.failed("the identity token does not carry the SHA-256 of this nonce")
        } else if configuration.requiresNonce {
            throw Self.failed("this server accepts only identity tokens that carry a nonce (the app hashes one into Apple's request)")
        }
        guard try await claims.useOnce(token, as: "apple-token", skew: Self.allowedSkew, in: storage, now: clock.milliseconds) else {
            throw Self.failed("this identity token was used already: sign in with Apple again for a new one")
        }
        let (email, verified) = claims.keptEmail
        var identity = StoredAppleIdentity(subject: claims.subject.value, email: email, emailVerified: verified)
        if let code = request.authorizationCode, let tokens, let clientID = claims.audience.value.first {
            let refreshToken = try await tokens.refreshToken(for: code, clientID: clientID, subject: identity.subject)
            identity.refreshToken = AppleRefreshToken(sealedToken: try await keys.seal(Array(refreshToken.utf8), for: .container(containerID)),
                                                      clientID: clientID)
        }
        return identity
    }

    /// `BAD_REQUEST` for an identity token over 8 KB, a nonce over 1 KB or an authorization code
    /// over 1 KB: checked before anything else about the request, fresh proof included.
    static func checkBounds(_ request: AppleSignInRequest) throws(CloudKitError) {
        guard request.identityToken.utf8.count <= maxTokenBytes, (request.nonce?.utf8.count ?? 0) <= 1024,
              (request.authorizationCode?.utf8.count ?? 0) <= AppleTokenEndpoint.maxCodeBytes else {
            throw .badRequest("identityToken is limited to 8 KB, nonce and authorizationCode to 1 KB")
        }
    }

    /// What to keep of a token's identity: Apple leaves the email out of some later tokens, a
    /// sign-in without a code keeps the refresh token kept before, and what Apple said of the
    /// relay address stands.
    static func merged(_ identity: StoredAppleIdentity, into kept: StoredAppleIdentity?) -> StoredAppleIdentity {
        guard let kept, kept.subject == identity.subject else { return identity }
        var merged = identity.email == nil ? kept : identity
        merged.refreshToken = identity.refreshToken ?? kept.refreshToken
        merged.relayMailDisabled = kept.relayMailDisabled
        return merged
    }

    /// The username of an account Sign in with Apple creates: `apple-` and ten random characters
    /// (the user can sign in with Apple only, until they set a password).
    static func newUsername() -> String {
        "apple-" + SecretGenerator.typedCode().lowercased().replacingOccurrences(of: "-", with: "")
    }

}
