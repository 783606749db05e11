import StratusCore

/// The account centre: what a signed-in user sees of their account (sign-in methods, verified
/// email, sessions), signing out one device, and the fresh proof that changing how the account
/// signs in takes.
///
/// **Fresh proof** is a sign-in or a re-authentication (``reauthenticate(_:_:client:)``) by one of
/// the account's methods within ``freshProofWindow`` (five minutes unless configured), recorded on
/// the session that made it: no other session can use it, so a stolen session older than the
/// window cannot add or remove a sign-in method, set a password or delete the account. A change
/// without it answers `AUTHENTICATION_REQUIRED` (421) with the reason `fresh proof required` and
/// the methods the account can prove itself with (``CloudKitError/methods``).
package struct AccountCentre: Sendable {
    let storage: any StratusStorage
    let auth: AuthService
    let apple: AppleSignIn
    let hub: NotificationHub
    /// How long a proof stays fresh.
    let freshProofWindow: Duration

    /// The sign-in methods of an account, as the account centre names them.
    static func methods(of user: StoredUser) -> [String] {
        (user.hasPassword ? ["password"] : []) + (user.apple != nil ? ["apple"] : [])
    }

    /// `GET account`: the caller's account and sessions.
    package func account(_ session: StoredSession) async throws -> AccountResponse {
        let (user, sessions) = try await storage.read { transaction in
            (try await transaction.user(recordName: session.userRecordName), try await transaction.sessions(user: session.userRecordName))
        }
        guard let user else { throw CloudKitError(.authenticationFailed, "the account no longer exists") }
        let now = AuthService.now()
        return AccountResponse(userRecordName: user.userRecordName, username: user.username, email: user.email, emailVerified: user.emailVerified,
                               methods: Self.methods(of: user),
                               sessions: sessions.filter { $0.expiresAt > now }.map { other in
                                   AccountSessionInfo(id: other.id, device: other.device, clientAddress: other.clientAddress, created: other.createdAt,
                                                      lastUsed: other.lastUsedAt, current: other.tokenHash == session.tokenHash)
                               })
    }

    /// `account/sessions/{id}/signout`: ends one of the caller's sessions (its push connections
    /// close on every instance); `NOT_FOUND` for an identifier that is none of theirs.
    package func signOut(sessionID: String, of session: StoredSession) async throws {
        let ended: String? = try await storage.write { transaction in
            guard let target = try await transaction.sessions(user: session.userRecordName).first(where: { $0.id == sessionID }) else { return nil }
            try await transaction.deleteSession(tokenHash: target.tokenHash)
            return target.tokenHash
        }
        guard let ended else { throw CloudKitError.notFound("the account has no session '\(sessionID)'") }
        await hub.endSessions([ended])
    }

    /// `account/reauthenticate`: checks one proof by a method the account has and records it on
    /// the session, fresh for ``freshProofWindow``. A wrong password counts against the sign-in
    /// limits as a sign-in does; an identity token must be of the linked Apple ID.
    package func reauthenticate(_ session: StoredSession, _ proof: ReauthenticationRequest, client: String) async throws {
        if let identityToken = proof.identityToken {
            _ = try await apple.confirmedUser(session, AppleSignInRequest(identityToken: identityToken, nonce: proof.nonce))
        } else if let password = proof.password {
            guard let user = try await storage.read({ try await $0.user(recordName: session.userRecordName) }) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            guard try await auth.verifyPassword(password, of: user, client: client) else {
                throw CloudKitError(.authenticationFailed, "the password is wrong")
            }
        } else {
            throw CloudKitError.badRequest("give one proof: password, or identityToken (and its nonce)")
        }
        let now = AuthService.now()
        try await storage.write { try await $0.setSessionProven(tokenHash: session.tokenHash, at: now) }
    }

    /// Throws `AUTHENTICATION_REQUIRED` unless the session's proof is fresh; returns the user.
    @discardableResult
    package func requireFreshProof(_ session: StoredSession) async throws -> StoredUser {
        let (user, stored) = try await storage.read { transaction in
            (try await transaction.user(recordName: session.userRecordName), try await transaction.session(tokenHash: session.tokenHash))
        }
        guard let user, let stored else { throw CloudKitError(.authenticationFailed, "the account no longer exists") }
        guard AuthService.now() - stored.provenAt <= freshProofWindow.milliseconds else {
            throw CloudKitError(.authenticationRequired,
                                "fresh proof required: prove who you are again with account/reauthenticate (one of: \(Self.methods(of: user).joined(separator: ", "))), then retry",
                                methods: Self.methods(of: user))
        }
        return user
    }

    /// Proof for one change: the password given with it (checked now), or else the session's
    /// fresh proof.
    @discardableResult
    package func requireProof(_ session: StoredSession, password: String?, client: String) async throws -> StoredUser {
        if let password { try await reauthenticate(session, ReauthenticationRequest(password: password), client: client) }
        return try await requireFreshProof(session)
    }
}
