import Hummingbird
import StratusCore

/// *Extension* endpoints for accounts: `POST /auth/1/{container}/{environment}/signup`,
/// `/signin`, `/signout`, `/signout/all` (every session of the user), `/password` (set or change
/// it), `/account/delete`, `/email/send` and `/email/verify` to prove an email address,
/// `/password/forgot` and `/password/reset` for a forgotten password (``PasswordReset``),
/// `/email/code` and `/email/signin` to sign in by a mailed code (``EmailCodeSignIn``), `/apple`,
/// `/apple/link` and `/apple/unlink` for Sign in with Apple (``AppleSignIn``), passkeys
/// (``PasskeySignIn``: `/passkey/register/options`, `/passkey/register`, `/passkey/signin/options`,
/// `/passkey/signin`, `/passkey/signup/options`, `/passkey/signup`), OpenID Connect for native apps
/// (``OpenIDSignIn``: `/oidc/{provider}`, `/oidc/{provider}/link`), and the account centre
/// (``AccountCentre``): `GET /account`, `/account/reauthenticate`, `/account/sessions/{id}/signout`,
/// `/account/passkeys/{id}/delete` and `/account/providers/{provider}/delete`. Changing how the account signs in takes fresh proof. Each
/// needs the container's `ckAPIToken`.
struct AuthRoutes {
    let auth: AuthService
    let admin: AdminService
    let hub: NotificationHub
    let email: EmailVerification
    let passwordReset: PasswordReset
    let emailCodes: EmailCodeSignIn
    let apple: AppleSignIn
    let passkeys: PasskeySignIn
    let openID: OpenIDSignIn
    let account: AccountCentre
    /// A sign-up or sign-in body: a username (at most 64 characters), a password (1,024 bytes), an
    /// email address (255) and a flag, as JSON.
    static let maxCredentialsBytes = 4096

    func register(on router: Router<StratusRequestContext>) {
        let group = router.group("auth/1/:container/:environment")
        group.post("signup") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let credentials = try await JSONBody.decode(Credentials.self, from: request, limit: Self.maxCredentialsBytes)
            let (response, user) = try await auth.signUp(credentials, containerID: containerID, environment: environment,
                                                         from: SessionOrigin(request, context))
            await email.sendFirstCode(to: user, client: context.clientAddress)
            return try JSONBody.response(response)
        }
        group.post("email/send") { request, context in
            try await email.sendCode(to: try await signedIn(request, context).userRecordName, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("email") { request, context in
            let session = try await signedIn(request, context)
            let body = try await JSONBody.decode(ResetRequest.self, from: request, limit: 4096)
            try await account.changeEmail(session, to: body.email, client: context.clientAddress, verification: email)
            return try JSONBody.response([String: String]())
        }
        group.post("email/verify") { request, context in
            let session = try await signedIn(request, context)
            let body = try await JSONBody.decode(EmailCode.self, from: request, limit: 1024)
            try await email.verify(code: body.code, user: session.userRecordName, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("signin") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let credentials = try await JSONBody.decode(Credentials.self, from: request, limit: Self.maxCredentialsBytes)
            return try JSONBody.response(try await auth.signIn(credentials, containerID: containerID, environment: environment,
                                                                      from: SessionOrigin(request, context)))
        }
        group.post("apple") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(AppleSignInRequest.self, from: request, limit: Self.maxProofRequestBytes)
            return try JSONBody.response(try await apple.signIn(body, containerID: containerID, environment: environment, from: SessionOrigin(request, context)))
        }
        group.post("apple/link") { request, context in
            let session = try await signedIn(request, context)
            let body = try await JSONBody.decode(AppleSignInRequest.self, from: request, limit: Self.maxProofRequestBytes)
            try await account.linkApple(body, session: session)
            return try JSONBody.response([String: String]())
        }
        group.post("apple/unlink") { request, context in
            try await account.unlinkApple(try await signedIn(request, context))
            return try JSONBody.response([String: String]())
        }
        group.post("passkey/register/options") { request, context in
            try JSONBody.response(try await account.passkeyRegistrationOptions(try await signedIn(request, context)))
        }
        group.post("passkey/register") { request, context in
            let session = try await signedIn(request, context)
            let body = try await JSONBody.decode(PasskeyRegistration.self, from: request, limit: Self.maxPasskeyRequestBytes)
            try await account.registerPasskey(body, session: session)
            return try JSONBody.response([String: String]())
        }
        group.post("passkey/signup/options") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(PasskeySignUpRequest.self, from: request, limit: Self.maxCredentialsBytes)
            return try JSONBody.response(try await passkeys.signUpOptions(username: body.username, containerID: containerID, environment: environment,
                                                                          client: context.clientAddress))
        }
        group.post("passkey/signup") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(PasskeyRegistration.self, from: request, limit: Self.maxPasskeyRequestBytes)
            let (response, user) = try await passkeys.signUp(body, containerID: containerID, environment: environment, from: SessionOrigin(request, context))
            await email.sendFirstCode(to: user, client: context.clientAddress)
            return try JSONBody.response(response)
        }
        group.post("passkey/signin/options") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            return try JSONBody.response(try await passkeys.signInOptions(containerID: containerID, environment: environment, client: context.clientAddress))
        }
        group.post("passkey/signin") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(PasskeyAssertion.self, from: request, limit: Self.maxPasskeyRequestBytes)
            return try JSONBody.response(try await passkeys.signIn(body, containerID: containerID, environment: environment,
                                                                   from: SessionOrigin(request, context)))
        }
        group.post("account/passkeys/:passkey/delete") { request, context in
            let session = try await signedIn(request, context)
            let id = try context.parameters.require("passkey")
            try await account.removePasskey(id: id.removingPercentEncoding ?? id, session: session)
            return try JSONBody.response([String: String]())
        }
        group.post("oidc/:provider") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(OpenIDSignInRequest.self, from: request, limit: Self.maxProofRequestBytes)
            return try JSONBody.response(try await openID.signIn(body, provider: try context.parameters.require("provider"), containerID: containerID,
                                                                 environment: environment, from: SessionOrigin(request, context)))
        }
        group.post("oidc/:provider/link") { request, context in
            let session = try await signedIn(request, context)
            let body = try await JSONBody.decode(OpenIDSignInRequest.self, from: request, limit: Self.maxProofRequestBytes)
            try await account.linkOpenID(body, provider: try context.parameters.require("provider"), session: session)
            return try JSONBody.response([String: String]())
        }
        group.post("account/providers/:provider/delete") { request, context in
            let session = try await signedIn(request, context)
            try await account.unlinkOpenID(provider: try context.parameters.require("provider"), session: session)
            return try JSONBody.response([String: String]())
        }
        group.post("signout") { request, context in
            let session = try await signedIn(request, context)
            try await auth.signOut(session)
            await hub.endSessions([session.tokenHash])
            return try JSONBody.response([String: String]())
        }
        group.post("signout/all") { request, context in
            let session = try await signedIn(request, context)
            let ended = try await admin.signOutEverywhere(user: session.userRecordName)
            return try JSONBody.response(["sessionsEnded": ended])
        }
        group.post("password") { request, context in
            let session = try await signedIn(request, context)
            let change = try await JSONBody.decode(PasswordChange.self, from: request, limit: 4096)
            try await account.changePassword(session, to: change.newPassword, proof: ReauthenticationRequest(password: change.password),
                                             client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("email/code") { request, context in
            let (containerID, _) = try await authorize(request, context)
            let body = try await JSONBody.decode(ResetRequest.self, from: request, limit: 4096)
            try await emailCodes.requestCode(email: body.email, containerID: containerID, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("email/signin") { request, context in
            let (containerID, environment) = try await authorize(request, context)
            let body = try await JSONBody.decode(EmailSignIn.self, from: request, limit: 4096)
            return try JSONBody.response(try await emailCodes.signIn(email: body.email, code: body.code, containerID: containerID, environment: environment,
                                                                     from: SessionOrigin(request, context)))
        }
        group.post("password/forgot") { request, context in
            let (containerID, _) = try await authorize(request, context)
            let body = try await JSONBody.decode(ResetRequest.self, from: request, limit: 4096)
            try await passwordReset.requestReset(email: body.email, containerID: containerID, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("password/reset") { request, context in
            let (containerID, _) = try await authorize(request, context)
            let body = try await JSONBody.decode(Reset.self, from: request, limit: 4096)
            try await passwordReset.reset(code: body.code, password: body.password, containerID: containerID, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("account/delete") { request, context in
            let session = try await signedIn(request, context)
            let confirmation = try await JSONBody.decode(AccountDeletion.self, from: request, limit: Self.maxProofRequestBytes)
            try await account.requireProof(session, ReauthenticationRequest(password: confirmation.password, identityToken: confirmation.identityToken,
                                                                            nonce: confirmation.nonce, provider: confirmation.provider,
                                                                            authorizationCode: confirmation.authorizationCode),
                                           client: context.clientAddress)
            try await admin.deleteAccount(user: session.userRecordName, containerID: session.containerID)
            return try JSONBody.response([String: String]())
        }
        group.get("account") { request, context in
            try JSONBody.response(try await account.account(try await signedIn(request, context)))
        }
        group.post("account/reauthenticate") { request, context in
            let session = try await signedIn(request, context)
            let proof = try await JSONBody.decode(ReauthenticationRequest.self, from: request, limit: Self.maxProofRequestBytes)
            try await account.reauthenticate(session, proof, client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("account/reauthenticate/code") { request, context in
            try await account.mailProofCode(try await signedIn(request, context), client: context.clientAddress)
            return try JSONBody.response([String: String]())
        }
        group.post("account/sessions/:session/signout") { request, context in
            let session = try await signedIn(request, context)
            try await account.signOut(sessionID: try context.parameters.require("session"), of: session)
            return try JSONBody.response([String: String]())
        }
    }

    /// The body of `account/delete`: the password once more, or a fresh identity token of the
    /// linked Apple ID or of a linked provider's (`provider`), and its nonce; neither, when the
    /// session's proof is fresh.
    struct AccountDeletion: Decodable {
        var password: String?
        var identityToken: String?
        var nonce: String?
        var provider: String?
        var authorizationCode: String?
    }

    /// The body of `password`: the current password (or none, when the session's proof is fresh,
    /// as for an account Sign in with Apple made) and the new one.
    struct PasswordChange: Decodable {
        var password: String?
        var newPassword: String
    }

    /// A proof of who the user is, as JSON: an Apple identity token (8 KB) or an OpenID Connect
    /// ID token (16 KB) with its nonce (1 KB), or a passkey's assertion.
    static let maxProofRequestBytes = 18 * 1024

    /// A passkey's registration or assertion as JSON: an RS256 key of 4,096 bits, a credential ID
    /// of 1,023 bytes and their base64url fit with room to spare.
    static let maxPasskeyRequestBytes = 16 * 1024

    /// The body of `password/forgot` and `email` (a new address).
    struct ResetRequest: Decodable {
        var email: String
    }

    /// The body of `password/reset`.
    struct Reset: Decodable {
        var code: String
        var password: String
    }

    /// The body of `email/verify`.
    struct EmailCode: Decodable {
        var code: String
    }

    /// The body of `email/signin`.
    struct EmailSignIn: Decodable {
        var email: String
        var code: String
    }

    /// The caller's session, from the API token and the web auth token.
    private func signedIn(_ request: Request, _ context: StratusRequestContext) async throws -> StoredSession {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        guard let session = try await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request),
                                                        webAuthToken: DatabaseAuthenticator.webAuthToken(request),
                                                        containerID: containerID, environment: environment) else {
            throw AuthService.authenticationRequired
        }
        return session
    }

    private func authorize(_ request: Request, _ context: StratusRequestContext) async throws -> (String, ContainerEnvironment) {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        _ = try await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: nil,
                                        containerID: containerID, environment: environment)
        return (containerID, environment)
    }
}
