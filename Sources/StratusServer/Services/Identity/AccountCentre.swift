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
    let passkeys: PasskeySignIn
    let openID: OpenIDSignIn
    let hub: NotificationHub
    /// Where proof codes are mailed through; nil when the server sends no mail.
    let outbox: MailOutbox?
    /// Mails users the changes to how their accounts sign in.
    let notices: SecurityNotices
    let limiter: RateLimiter
    /// How long a proof stays fresh.
    let freshProofWindow: Duration
    let clock: ServerClock

    /// How long a mailed proof code works.
    static let proofCodeLifetime: Duration = .seconds(10 * 60)

    /// The sign-in methods of an account, as the account centre names them: `password`, `apple`,
    /// `passkey`, and `oidc:NAME` per linked provider.
    static func methods(of user: StoredUser, passkeys: [StoredPasskey], identities: [StoredOpenIDIdentity]) -> [String] {
        (user.hasPassword ? ["password"] : []) + (user.apple != nil ? ["apple"] : []) + (passkeys.isEmpty ? [] : ["passkey"])
            + identities.map { "oidc:" + $0.provider }
    }

    /// The sign-in methods of the user's account, read in `transaction`.
    static func methods(of user: StoredUser, in transaction: any StorageTransaction) async throws -> [String] {
        methods(of: user, passkeys: try await transaction.passkeys(user: user.userRecordName),
                identities: try await transaction.openIDIdentities(user: user.userRecordName))
    }

    /// The ways an account can give fresh proof: its sign-in methods, and `emailCode` when it has
    /// a verified address and the server sends mail.
    func proofMethods(of user: StoredUser, methods: [String]) -> [String] {
        methods + (user.emailVerified && user.email != nil && outbox != nil ? ["emailCode"] : [])
    }

    /// `GET account`: the caller's account and sessions.
    package func account(_ session: StoredSession) async throws -> AccountResponse {
        let (user, sessions, passkeys, identities) = try await storage.read { transaction in
            (try await transaction.user(recordName: session.userRecordName), try await transaction.sessions(user: session.userRecordName),
             try await transaction.passkeys(user: session.userRecordName), try await transaction.openIDIdentities(user: session.userRecordName))
        }
        guard let user else { throw CloudKitError(.authenticationFailed, "the account no longer exists") }
        let now = clock.milliseconds
        return AccountResponse(userRecordName: user.userRecordName, username: user.username, email: user.email, emailVerified: user.emailVerified,
                               methods: Self.methods(of: user, passkeys: passkeys, identities: identities),
                               sessions: sessions.filter { $0.expiresAt > now }.map { other in
                                   AccountSessionInfo(id: other.id, device: other.device, clientAddress: other.clientAddress, created: other.createdAt,
                                                      lastUsed: other.lastUsedAt, current: other.tokenHash == session.tokenHash)
                               },
                               passkeys: passkeys.map { AccountPasskeyInfo(id: $0.credentialID, name: $0.name, created: $0.createdAt, lastUsed: $0.lastUsedAt) },
                               providers: identities.map {
                                   AccountProviderInfo(provider: $0.provider, email: $0.email, emailVerified: $0.emailVerified, linked: $0.linkedAt,
                                                       lastUsed: $0.lastUsedAt)
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

    /// `email`: gives the account a new email address, with fresh proof. The old address, if it
    /// was verified, is told; the new one is mailed a verification code (it reaches no one until
    /// verified); the account's other sessions end on every instance.
    package func changeEmail(_ session: StoredSession, to email: String, client: String, verification: EmailVerification) async throws {
        try AuthService.validateEmail(email)
        let user = try await requireFreshProof(session)
        let revoked = try await storage.write { [notices] transaction in
            try await notices.notify(user, "Your email address was changed", in: transaction)
            try await transaction.setEmail(user: user.userRecordName, email: email)
            return try await transaction.deleteSessions(user: user.userRecordName, except: session.tokenHash)
        }
        notices.sent()
        await hub.endSessions(Set(revoked))
        var moved = user
        moved.email = email
        moved.emailVerified = false
        await verification.sendFirstCode(to: moved, client: client)
    }

    /// `password`: sets or changes the password with proof (the current password given with it, or
    /// the session's fresh proof); the verified address is told and the other sessions end.
    package func changePassword(_ session: StoredSession, to password: String, proof: ReauthenticationRequest, client: String) async throws {
        try await requireProof(session, proof, client: client)
        let hash = try await auth.hashPassword(password)
        let revoked = try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            try await transaction.setPasswordHash(user: user.userRecordName, passwordHash: hash)
            try await notices.notify(user, user.hasPassword ? "Your password was changed" : "A password was set", in: transaction)
            return try await transaction.deleteSessions(user: user.userRecordName, except: session.tokenHash)
        }
        notices.sent()
        await hub.endSessions(Set(revoked))
    }

    /// `apple/link`, with fresh proof: the token's Apple ID signs in to the account too.
    package func linkApple(_ request: AppleSignInRequest, session: StoredSession) async throws {
        try AppleSignIn.checkBounds(request)
        try await requireFreshProof(session)
        try await apple.link(request, to: session)
    }

    /// `apple/unlink`, with fresh proof; the other sessions end.
    package func unlinkApple(_ session: StoredSession) async throws {
        try await requireFreshProof(session)
        await hub.endSessions(Set(try await apple.unlink(session)))
    }

    /// `passkey/register/options`, with fresh proof unless `requiringFreshProof` is false (the
    /// account page shows its options before the user confirms; registering takes the proof):
    /// options to make a passkey for the account.
    package func passkeyRegistrationOptions(_ session: StoredSession, requiringFreshProof: Bool = true) async throws -> PasskeyCreationOptions {
        let user: StoredUser
        if requiringFreshProof {
            user = try await requireFreshProof(session)
        } else {
            guard let found = try await storage.read({ try await $0.user(recordName: session.userRecordName) }) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            user = found
        }
        return try await passkeys.registrationOptions(for: user, environment: session.environment)
    }

    /// `passkey/register`, with fresh proof: the new passkey signs in to the account too.
    package func registerPasskey(_ registration: PasskeyRegistration, session: StoredSession) async throws {
        let user = try await requireFreshProof(session)
        try await passkeys.register(registration, for: user, environment: session.environment, device: session.device)
    }

    /// `account/passkeys/{id}/delete`, with fresh proof: removes one of the account's passkeys,
    /// unless it is the account's last way to sign in; the other sessions end.
    package func removePasskey(id credentialID: String, session: StoredSession) async throws {
        try await requireFreshProof(session)
        let revoked = try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            let kept = try await transaction.passkeys(user: user.userRecordName)
            guard kept.contains(where: { $0.credentialID == credentialID }) else {
                throw CloudKitError.notFound("the account has no passkey '\(credentialID)'")
            }
            let identities = try await transaction.openIDIdentities(user: user.userRecordName)
            guard kept.count > 1 || Self.methods(of: user, passkeys: [], identities: identities).count > 0 else {
                throw CloudKitError.badRequest("this is the account's last way to sign in: set a password or add another passkey first")
            }
            _ = try await transaction.deletePasskey(user: user.userRecordName, credentialID: credentialID)
            try await notices.notify(user, "A passkey was removed from your account", in: transaction)
            return try await transaction.deleteSessions(user: user.userRecordName, except: session.tokenHash)
        }
        notices.sent()
        await hub.endSessions(Set(revoked))
    }

    /// `account/reauthenticate/code`: mails a six-digit code to the account's verified address,
    /// valid ten minutes and for five tries, that ``reauthenticate(_:_:client:)`` takes as
    /// `emailCode`. Bounded as every mailed code is (``MailedCodeLimits``).
    package func mailProofCode(_ session: StoredSession, client: String) async throws {
        guard let outbox else { throw CloudKitError.badRequest("this server sends no mail: prove it is you another way") }
        guard let user = try await storage.read({ try await $0.user(recordName: session.userRecordName) }) else {
            throw CloudKitError(.authenticationFailed, "the account no longer exists")
        }
        guard let email = user.email, user.emailVerified else { throw CloudKitError.badRequest("the account has no verified email address") }
        try await MailedCodeLimits(limiter: limiter).chargeCode(to: email, containerID: user.containerID, client: client, verification: false)
        let sealer = try await outbox.keys.sealer(for: .user(user.userRecordName))
        try await storage.write { transaction in
            try await MailedCode.issue(to: user.userRecordName, at: email, for: .proof, lifetime: Self.proofCodeLifetime, now: clock.milliseconds, mail: { code in
                ("Your confirmation code: \(code)", "Enter this code to confirm it is you: \(code)\n\nIt is valid for 10 minutes. "
                    + "If you did not ask for it, someone may be using your account: change your password.\n")
            }, sealedWith: sealer, in: transaction)
        }
        outbox.nudge()
    }

    /// `account/reauthenticate`: checks one proof by a method the account has and records it on
    /// the session, fresh for ``freshProofWindow``. A wrong password counts against the sign-in
    /// limits as a sign-in does; an identity token must be of the linked Apple ID; a mailed code
    /// (``mailProofCode(_:client:)``) works once, and its wrong tries count against the code and
    /// the client address.
    package func reauthenticate(_ session: StoredSession, _ proof: ReauthenticationRequest, client: String) async throws {
        if let emailCode = proof.emailCode {
            try await checkProofCode(emailCode, session: session, client: client)
        } else if let assertion = proof.passkey {
            try await auth.throttleSignIn(from: client)
            _ = try await passkeys.confirmedUser(session, assertion)
        } else if let identityToken = proof.identityToken, let provider = proof.provider {
            try await auth.throttleSignIn(from: client)
            _ = try await openID.confirmedUser(session, provider: provider, OpenIDSignInRequest(idToken: identityToken, nonce: proof.nonce ?? ""))
        } else if let identityToken = proof.identityToken {
            _ = try await apple.confirmedUser(session, AppleSignInRequest(identityToken: identityToken, nonce: proof.nonce,
                                                                          authorizationCode: proof.authorizationCode))
        } else if let password = proof.password {
            guard let user = try await storage.read({ try await $0.user(recordName: session.userRecordName) }) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            guard try await auth.verifyPassword(password, of: user, client: client) else {
                throw CloudKitError(.authenticationFailed, "the password is wrong")
            }
        } else {
            throw CloudKitError.badRequest("give one proof: password, identityToken (and its nonce, and its provider unless Apple's), emailCode, or passkey")
        }
        try await recordProof(session)
    }

    /// Records a proof on the session, fresh for ``freshProofWindow``.
    private func recordProof(_ session: StoredSession) async throws {
        let now = clock.milliseconds
        try await storage.write { try await $0.setSessionProven(tokenHash: session.tokenHash, at: now) }
    }

    /// A web sign-in at a provider linked to the account (the account page's "confirm with…")
    /// is fresh proof.
    func reauthenticate(_ session: StoredSession, by identity: ProviderIdentity) async throws {
        _ = try await openID.confirmedUser(session, identity)
        try await recordProof(session)
    }

    /// `oidc/{provider}/link`, with fresh proof: the ID token's identity signs in to the account too.
    package func linkOpenID(_ request: OpenIDSignInRequest, provider: String, session: StoredSession) async throws {
        try OpenIDSignIn.checkBounds(request)
        _ = try openID.provider(provider, containerID: session.containerID)
        try await requireFreshProof(session)
        try await openID.link(request, provider: provider, to: session)
    }

    /// The account page's link through the web flow, with fresh proof.
    func linkOpenID(_ identity: ProviderIdentity, session: StoredSession) async throws {
        try await requireFreshProof(session)
        try await openID.link(identity, to: session)
    }

    /// `account/providers/{provider}/delete`, with fresh proof: unlinks the provider, unless it
    /// is the account's last way to sign in; the other sessions end.
    package func unlinkOpenID(provider: String, session: StoredSession) async throws {
        // A provider the configuration no longer has may still be unlinked; a name no provider can have is refused first.
        guard OpenIDConfiguration.isAcceptableName(provider) else { throw CloudKitError.badRequest("'\(provider.prefix(64))' is not a provider's name") }
        try await requireFreshProof(session)
        let revoked = try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            let methods = try await Self.methods(of: user, in: transaction)
            guard methods.contains("oidc:" + provider) else { throw CloudKitError.notFound("the account has no provider '\(provider.prefix(64))'") }
            guard methods.count > 1 else {
                throw CloudKitError.badRequest("this is the account's last way to sign in: set a password or add a passkey first")
            }
            _ = try await transaction.deleteOpenIDIdentity(user: user.userRecordName, provider: provider)
            try await notices.notify(user, "A sign-in provider (\(provider)) was removed from your account", in: transaction)
            return try await transaction.deleteSessions(user: user.userRecordName, except: session.tokenHash)
        }
        notices.sent()
        await hub.endSessions(Set(revoked))
    }

    /// Checks a mailed proof code (and uses it up when right).
    private func checkProofCode(_ code: String, session: StoredSession, client: String) async throws {
        let limits = MailedCodeLimits(limiter: limiter)
        try await limits.chargeTry(client: client)
        switch try await storage.write({ try await MailedCode.check(code, user: session.userRecordName, for: .proof, now: clock.milliseconds, in: $0) }) {
        case .noValidCode: throw CloudKitError(.authenticationFailed, "no valid confirmation code: ask for a new one with account/reauthenticate/code")
        case .wrong: throw CloudKitError(.authenticationFailed, "wrong confirmation code")
        case .right: await limits.refundTry(client: client)
        }
    }

    /// Throws `AUTHENTICATION_REQUIRED` unless the session's proof is fresh; returns the user.
    @discardableResult
    package func requireFreshProof(_ session: StoredSession) async throws -> StoredUser {
        let (user, stored) = try await storage.read { transaction in
            (try await transaction.user(recordName: session.userRecordName), try await transaction.session(tokenHash: session.tokenHash))
        }
        guard let user, let stored else { throw CloudKitError(.authenticationFailed, "the account no longer exists") }
        guard clock.milliseconds - stored.provenAt <= freshProofWindow.milliseconds else {
            let methods = proofMethods(of: user, methods: try await storage.read { try await Self.methods(of: user, in: $0) })
            throw CloudKitError(.authenticationRequired,
                                "fresh proof required: prove who you are again with account/reauthenticate (one of: \(methods.joined(separator: ", "))), then retry",
                                methods: methods)
        }
        return user
    }

    /// Proof for one change: the proof given with it (a password, an identity token), checked now
    /// and recorded, or else the session's fresh proof.
    package func requireProof(_ session: StoredSession, _ proof: ReauthenticationRequest, client: String) async throws {
        guard proof.password == nil, proof.identityToken == nil, proof.emailCode == nil, proof.passkey == nil else {
            return try await reauthenticate(session, proof, client: client)
        }
        try await requireFreshProof(session)
    }
}
