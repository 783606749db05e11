import Crypto
import Foundation
import JWTKit
import StratusCore

/// Sign-in with OpenID Connect providers (Google, any provider found by discovery) and GitHub's
/// OAuth, as the operator configured them per container (``OpenIDConfiguration``).
///
/// **Native apps** run the authorization-code flow with PKCE themselves and send the ID token
/// with the nonce they put in the request (``signIn(_:provider:containerID:environment:from:)``).
/// **Web pages** let the server run it (``start(_:)``, ``finish(state:code:browser:)``): the
/// state, the PKCE verifier (sealed for the container, ``KeyVault``) and the nonce wait in the
/// database for ten minutes, used once, so the callback may reach another instance, and only in
/// the browser that started it.
///
/// An ID token is accepted when it is signed (RS256 or ES256, never `none` or a MAC) by a key the
/// provider publishes for its `kid`, names exactly the discovered issuer (Google's also without
/// the scheme), is for the provider's client IDs only (`aud`, and `azp` when present), has not
/// expired and was issued neither in the future nor more than a day ago (five minutes' skew),
/// carries the nonce sent, and was never accepted before (``ReplayStore``). GitHub gives no ID
/// token: its API says who the user is.
///
/// Users are found by the provider's issuer and `sub` (GitHub's numeric `id`), never by email: an
/// unknown identity makes a new account only where ``OpenIDConfiguration/Provider/allowsSignUp``,
/// and a user links a provider to their account with fresh proof (``AccountCentre``).
package struct OpenIDSignIn: Sendable {
    let configuration: OpenIDConfiguration
    let storage: any StratusStorage
    let auth: AuthService
    /// Mails users the changes to how their accounts sign in.
    let notices: SecurityNotices
    let keys: KeyVault
    let clock: ServerClock
    /// Each OpenID provider's discovery, by issuer (containers naming one issuer share it).
    private let discoveries: [String: OpenIDDiscovery]

    /// The longest ID token accepted.
    static let maxTokenBytes = 16 * 1024
    /// How long a web sign-in may take, from `start` to `callback`.
    static let flowLifetime: Duration = .seconds(10 * 60)

    init(configuration: OpenIDConfiguration, storage: any StratusStorage, auth: AuthService, notices: SecurityNotices, keys: KeyVault,
         clock: ServerClock) {
        self.configuration = configuration
        self.storage = storage
        self.auth = auth
        self.notices = notices
        self.keys = keys
        self.clock = clock
        var discoveries: [String: OpenIDDiscovery] = [:]
        for provider in configuration.providersByContainer.values.joined() {
            if case .openID(let issuer) = provider.kind, discoveries[issuer] == nil {
                discoveries[issuer] = OpenIDDiscovery(issuer: issuer, name: "the provider '\(provider.name)'", refetchInterval: configuration.refetchInterval)
            }
        }
        self.discoveries = discoveries
    }

    /// The providers users of `containerID` may sign in with.
    package func providers(for containerID: String) -> [OpenIDConfiguration.Provider] {
        configuration.providers(for: containerID)
    }

    /// The provider `name` of the container; `BAD_REQUEST` when it has none of that name.
    func provider(_ name: String, containerID: String) throws(CloudKitError) -> OpenIDConfiguration.Provider {
        guard let provider = configuration.provider(named: name, for: containerID) else {
            throw .badRequest("container '\(containerID)' has no sign-in provider '\(name.prefix(64))' (its operator gives --oidc-provider)")
        }
        return provider
    }

    // MARK: Native apps

    /// `oidc/{provider}`: signs the ID token's user in, creating their account the first time
    /// where the provider allows sign-up.
    package func signIn(_ request: OpenIDSignInRequest, provider name: String, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> SignInResponse {
        try Self.checkBounds(request)
        try await auth.throttleSignIn(from: origin.client)
        let identity = try await verify(request, provider: try provider(name, containerID: containerID))
        return try await signIn(identity, containerID: containerID, environment: environment, from: origin)
    }

    /// The user the identity signs in to (or a new account, where allowed), with a new session.
    func signIn(_ identity: ProviderIdentity, containerID: String, environment: ContainerEnvironment,
                from origin: SessionOrigin) async throws -> SignInResponse {
        let provider = identity.provider
        let now = clock.milliseconds
        if provider.allowsSignUp,
           try await storage.read({ try await $0.openIDIdentity(containerID: containerID, issuer: provider.issuer, subject: identity.subject) }) == nil {
            try await auth.throttleSignUp(from: origin.client)  // as every sign-up is
        }
        return try await storage.write { [auth] transaction in
            if let linked = try await transaction.openIDIdentity(containerID: containerID, issuer: provider.issuer, subject: identity.subject) {
                guard let user = try await transaction.user(recordName: linked.userRecordName) else {
                    throw CloudKitError(.authenticationFailed, "the account no longer exists")
                }
                try await transaction.setOpenIDIdentityUsed(containerID: containerID, issuer: provider.issuer, subject: identity.subject,
                                                            email: identity.email ?? linked.email,
                                                            emailVerified: identity.email == nil ? linked.emailVerified : identity.emailVerified, at: now)
                return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
            }
            guard provider.allowsSignUp else {
                throw CloudKitError(.authenticationFailed, "no account signs in with this \(provider.title) identity: sign in another way and link \(provider.title) "
                                    + "from your account")
            }
            var user = StoredUser(userRecordName: SecretGenerator.userRecordName(), containerID: containerID, username: Self.newUsername(provider),
                                  passwordHash: "", createdAt: now)
            // The address only as the provider vouched for it, and never one another account has.
            if let email = identity.email, identity.emailVerified, try await transaction.user(containerID: containerID, email: email) == nil {
                user.email = email
                user.emailVerified = true
            }
            try await transaction.insertUser(user)
            try await transaction.insertOpenIDIdentity(Self.stored(identity, user: user.userRecordName, containerID: containerID, at: now))
            return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
        }
    }

    /// `oidc/{provider}/link` (the caller checked fresh proof): the ID token's identity signs in
    /// to the session's account too.
    package func link(_ request: OpenIDSignInRequest, provider name: String, to session: StoredSession) async throws {
        try Self.checkBounds(request)
        let identity = try await verify(request, provider: try provider(name, containerID: session.containerID))
        try await link(identity, to: session)
    }

    /// Links a verified identity to the session's account; `BAD_REQUEST` when it signs in to
    /// another account, or the account has another identity of the provider.
    func link(_ identity: ProviderIdentity, to session: StoredSession) async throws {
        let provider = identity.provider
        try await storage.write { [notices, clock] transaction in
            if let owner = try await transaction.openIDIdentity(containerID: session.containerID, issuer: provider.issuer, subject: identity.subject) {
                guard owner.userRecordName == session.userRecordName else {
                    throw CloudKitError.badRequest("this \(provider.title) identity signs in to another account")
                }
                return
            }
            guard let user = try await transaction.user(recordName: session.userRecordName) else {
                throw CloudKitError(.authenticationFailed, "the account no longer exists")
            }
            guard try await !transaction.openIDIdentities(user: user.userRecordName).contains(where: { $0.provider == provider.name }) else {
                throw CloudKitError.badRequest("the account is linked to another \(provider.title) identity: remove it first")
            }
            try await transaction.insertOpenIDIdentity(Self.stored(identity, user: user.userRecordName, containerID: session.containerID,
                                                                   at: clock.milliseconds))
            try await notices.notify(user, "\(provider.title) was linked to your account", in: transaction)
        }
        notices.sent()
    }

    /// The signed-in user, once they proved it again with a fresh ID token of an identity linked
    /// to their account.
    package func confirmedUser(_ session: StoredSession, provider name: String, _ request: OpenIDSignInRequest) async throws -> StoredUser {
        try Self.checkBounds(request)
        let identity = try await verify(request, provider: try provider(name, containerID: session.containerID))
        return try await confirmedUser(session, identity)
    }

    /// The session's user, if the verified identity is linked to their account.
    func confirmedUser(_ session: StoredSession, _ identity: ProviderIdentity) async throws -> StoredUser {
        let issuer = identity.provider.issuer
        let user: StoredUser? = try await storage.read { transaction in
            guard let linked = try await transaction.openIDIdentity(containerID: session.containerID, issuer: issuer, subject: identity.subject),
                  linked.userRecordName == session.userRecordName else { return nil }
            return try await transaction.user(recordName: session.userRecordName)
        }
        guard let user else {
            throw CloudKitError(.authenticationFailed, "this \(identity.provider.title) identity is not one linked to the account")
        }
        return user
    }

    // MARK: Web pages

    /// Why a web sign-in runs.
    package enum Purpose: String, Sendable {
        /// To sign in (or up), handing the session to the web app.
        case signIn = "signin"
        /// To link the provider to the signed-in account (on the account page).
        case link
        /// To prove who the signed-in user is (on the account page).
        case reauthenticate
    }

    /// A web sign-in to begin.
    struct Start: Sendable {
        var provider: OpenIDConfiguration.Provider
        var containerID: String
        var environment: ContainerEnvironment
        var purpose: Purpose
        /// Where the session or the user goes (``StoredOpenIDFlow/handoff``).
        var handoff: String
        /// The signed-in session, for ``Purpose/link`` and ``Purpose/reauthenticate``.
        var session: StoredSession?
        /// The callback URL the provider sends the browser back to.
        var redirectURI: String
        /// The browser's binding value (from its cookie).
        var browser: String
    }

    /// `oidc/{provider}/start`: keeps the sign-in's state, PKCE verifier and nonce, and returns
    /// the provider's authorization URL to send the browser to.
    func start(_ start: Start) async throws -> String {
        let state = Base64URL.encode(Data(SecretGenerator.randomBytes(32)))
        let verifier = Base64URL.encode(Data(SecretGenerator.randomBytes(32)))
        let nonce = Base64URL.encode(Data(SecretGenerator.randomBytes(24)))
        let challenge = Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
        let provider = start.provider
        let url: String
        switch provider.kind {
        case .openID(let issuer):
            let (metadata, _) = try await discovery(issuer).metadata()
            let separator = metadata.authorizationEndpoint.contains("?") ? "&" : "?"
            url = metadata.authorizationEndpoint + separator + ProviderHTTP.formEncoded([
                ("response_type", "code"), ("client_id", provider.clientIDs[0]), ("redirect_uri", start.redirectURI),
                ("scope", "openid email profile"), ("state", state), ("nonce", nonce),
                ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ])
        case .gitHub(let webURL, _):
            url = GitHubOAuth.authorizationURL(webURL: webURL, clientID: provider.clientIDs[0], redirectURI: start.redirectURI, state: state,
                                               challenge: challenge)
        }
        let sealed = try await keys.seal(Data(verifier.utf8), for: .container(start.containerID))
        let now = clock.milliseconds
        let flow = StoredOpenIDFlow(stateHash: SecretGenerator.digest(state), containerID: start.containerID, environment: start.environment.rawValue,
                                    provider: provider.name, sealedVerifier: sealed, nonce: nonce, browserHash: SecretGenerator.digest(start.browser),
                                    redirectURI: start.redirectURI, purpose: start.purpose.rawValue, handoff: start.handoff,
                                    sessionHash: start.session?.tokenHash, expiresAt: now + Self.flowLifetime.milliseconds)
        try await storage.write { try await $0.insertOpenIDFlow(flow, now: now) }
        return url
    }

    /// `oidc/{provider}/callback`: takes the sign-in its `state` names (once, in the browser that
    /// started it, within ten minutes), exchanges the code with its PKCE verifier and checks whom
    /// the provider vouches for.
    func finish(state: String, code: String?, error: String?, browser: String?, provider name: String) async throws
        -> (StoredOpenIDFlow, ProviderIdentity) {
        guard state.utf8.count <= 256, (code?.utf8.count ?? 0) <= 4096,
              let flow = try await storage.write({ try await $0.takeOpenIDFlow(stateHash: SecretGenerator.digest(state)) }) else {
            throw CloudKitError(.authenticationFailed, "this sign-in is unknown, or was finished already: start again")
        }
        guard flow.expiresAt > clock.milliseconds else {
            throw CloudKitError(.authenticationFailed, "this sign-in took longer than 10 minutes: start again")
        }
        guard let browser, PasswordHasher.constantTimeEquals(Array(SecretGenerator.digest(browser).utf8), Array(flow.browserHash.utf8)) else {
            throw CloudKitError(.authenticationFailed, "this sign-in was started in another browser: start again here")
        }
        guard flow.provider == name else { throw CloudKitError(.authenticationFailed, "this sign-in was started with another provider: start again") }
        let provider = try provider(flow.provider, containerID: flow.containerID)
        if let error { throw CloudKitError(.authenticationFailed, "\(provider.title) did not sign you in (\(error.prefix(100)))") }
        guard let code, !code.isEmpty else { throw CloudKitError(.authenticationFailed, "\(provider.title) sent no code: start again") }
        let verifier = String(decoding: try await keys.open(flow.sealedVerifier, for: .container(flow.containerID)), as: UTF8.self)
        switch provider.kind {
        case .openID(let issuer):
            return (flow, try await exchange(code: code, verifier: verifier, flow: flow, provider: provider, issuer: issuer))
        case .gitHub(let webURL, let apiURL):
            return (flow, try await GitHubOAuth.identity(of: provider, webURL: webURL, apiURL: apiURL, code: code, verifier: verifier,
                                                        redirectURI: flow.redirectURI))
        }
    }

    /// Exchanges a code at the token endpoint and checks the ID token it answers; reads the
    /// email from the userinfo endpoint when the ID token carries none.
    private func exchange(code: String, verifier: String, flow: StoredOpenIDFlow, provider: OpenIDConfiguration.Provider,
                          issuer: String) async throws -> ProviderIdentity {
        let (metadata, _) = try await discovery(issuer).metadata()
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", flow.redirectURI), ("code_verifier", verifier)]
        var headers: [(String, String)] = []
        let clientID = provider.clientIDs[0]
        if let secret = provider.clientSecret, !metadata.postsClientSecret {
            let pair = ProviderHTTP.percentEncoded(clientID) + ":" + ProviderHTTP.percentEncoded(secret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        } else {
            fields.append(("client_id", clientID))
            if let secret = provider.clientSecret { fields.append(("client_secret", secret)) }
        }
        let answer = try await ProviderHTTP.postForm(metadata.tokenEndpoint, fields, headers: headers, provider: "the provider '\(provider.name)'")
        struct Tokens: Decodable { var id_token: String?; var access_token: String?; var error: String?; var error_description: String? }
        let tokens = try? JSONDecoder().decode(Tokens.self, from: answer.body)
        guard answer.status == 200, let idToken = tokens?.id_token else {
            let said = tokens.flatMap { $0.error_description ?? $0.error } ?? "status \(answer.status)"
            throw CloudKitError(.authenticationFailed, "\(provider.title) refused the code: \(said.prefix(200))")
        }
        var identity = try await verify(OpenIDSignInRequest(idToken: idToken, nonce: flow.nonce), provider: provider)
        if identity.email == nil, let userinfo = metadata.userinfoEndpoint, let accessToken = tokens?.access_token {
            let answer = try await ProviderHTTP.get(userinfo, headers: [("Authorization", "Bearer " + accessToken)], provider: "the provider '\(provider.name)'")
            struct UserInfo: Decodable { var sub: String; var email: String?; var email_verified: BoolClaim? }
            if answer.status == 200, let info = try? JSONDecoder().decode(UserInfo.self, from: answer.body), info.sub == identity.subject {
                identity.email = ProviderIdentity.keptEmail(info.email)
                identity.emailVerified = identity.email != nil && info.email_verified?.value == true
            }
        }
        return identity
    }

    // MARK: ID tokens

    /// Checks an ID token of `provider` (see the type's description) and returns whom it identifies.
    func verify(_ request: OpenIDSignInRequest, provider: OpenIDConfiguration.Provider) async throws -> ProviderIdentity {
        guard case .openID(let issuer) = provider.kind else {
            throw CloudKitError.badRequest("\(provider.title) gives no ID token: sign in through the web flow (oidc/\(provider.name)/start)")
        }
        let token = request.idToken
        guard let header = Self.header(of: token) else { throw Self.failed("the ID token is not a JWT") }
        guard let alg = header.alg, ["RS256", "ES256"].contains(alg) else { throw Self.failed("the ID token must be signed with RS256 or ES256") }
        guard let kid = header.kid, !kid.isEmpty, kid.utf8.count <= 256 else { throw Self.failed("the ID token names no key (kid)") }
        let (metadata, published) = try await discovery(issuer).metadata()
        let claims: OpenIDClaims
        do {
            claims = try await published.keys(for: kid, algorithm: alg).verify(token, as: OpenIDClaims.self)
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw Self.failed("the ID token is not valid: \(error)")
        }
        guard provider.acceptedIssuers(discovered: metadata.issuer).contains(claims.issuer.value) else {
            throw Self.failed("the ID token was issued by '\(claims.issuer.value.prefix(200))', not \(provider.title)")
        }
        let audience = claims.audience.value
        guard !audience.isEmpty, audience.allSatisfy(provider.clientIDs.contains) else {
            throw Self.failed("the ID token is for another app (aud \(audience.joined(separator: ", ").prefix(200)))")
        }
        if let party = claims.authorizedParty, !provider.clientIDs.contains(party) {
            throw Self.failed("the ID token was requested by another app (azp \(party.prefix(200)))")
        }
        if let problem = claims.timeProblem(at: clock.date) { throw Self.failed(problem) }
        guard let nonce = claims.nonce,
              PasswordHasher.constantTimeEquals(Array(SecretGenerator.digest(nonce).utf8), Array(SecretGenerator.digest(request.nonce).utf8)) else {
            throw Self.failed("the ID token does not carry this nonce")
        }
        guard try await claims.useOnce(token, as: "oidc-token", skew: OpenIDClaims.allowedSkew, in: storage, now: clock.milliseconds) else {
            throw Self.failed("this ID token was used already: sign in again for a new one")
        }
        let (email, verified) = claims.keptEmail
        return ProviderIdentity(provider: provider, subject: claims.subject.value, email: email, emailVerified: verified)
    }

    /// `BAD_REQUEST` for an ID token over 16 KB or a nonce over 1 KB: checked before anything
    /// else about the request, fresh proof included.
    static func checkBounds(_ request: OpenIDSignInRequest) throws(CloudKitError) {
        guard request.idToken.utf8.count <= maxTokenBytes, request.nonce.utf8.count <= 1024 else {
            throw .badRequest("idToken is limited to 16 KB and nonce to 1 KB")
        }
    }

    /// What the server reads of a JWT's header before it asks the provider for anything.
    struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    /// The header of a compact JWS (three base64url parts), or nil for anything else.
    static func header(of token: String) -> Header? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let json = Base64URL.decode(String(parts[0])) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: json)
    }

    /// The `sub` claim of a compact JWS, read without checking its signature: for a token the
    /// server received from the provider itself, over a connection it opened.
    static func subject(of token: String) -> String? {
        struct Payload: Decodable { var sub: String? }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let json = Base64URL.decode(String(parts[1])) else { return nil }
        return (try? JSONDecoder().decode(Payload.self, from: json))?.sub
    }

    private func discovery(_ issuer: String) -> OpenIDDiscovery {
        discoveries[issuer]!  // made at init for every configured issuer
    }

    private static func stored(_ identity: ProviderIdentity, user: String, containerID: String, at time: Int64) -> StoredOpenIDIdentity {
        StoredOpenIDIdentity(containerID: containerID, provider: identity.provider.name, issuer: identity.provider.issuer, subject: identity.subject,
                             userRecordName: user, email: identity.email, emailVerified: identity.emailVerified, linkedAt: time, lastUsedAt: time)
    }

    /// The username of an account a provider creates: the provider's name and ten random characters.
    static func newUsername(_ provider: OpenIDConfiguration.Provider) -> String {
        provider.name + "-" + SecretGenerator.typedCode().lowercased().replacingOccurrences(of: "-", with: "")
    }

    private static func failed(_ reason: String) -> CloudKitError {
        CloudKitError(.authenticationFailed, reason)
    }
}
