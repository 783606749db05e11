import Foundation
import HTTPTypes
import Hummingbird
import StratusCore

/// *Extension*: the web side of sign-in with OpenID Connect and GitHub (``OpenIDSignIn``), which
/// the server runs for the sign-in and account pages.
///
/// - `GET /auth/1/{container}/{environment}/oidc/{provider}/start` with the sign-in page's query
///   (`ckAPIToken` and `origin` or `callback`, checked as the page checks them) sends the browser to
///   the provider;
/// - `GET …/web/account/oidc/{provider}?purpose=signin|link|reauthenticate` does so for the account
///   page: to sign in on it, or for its session (its cookie) to link the provider (with fresh proof)
///   or to confirm who the user is;
/// - `GET …/oidc/{provider}/callback` is where the provider sends the browser back (the
///   `redirect_uri` to register with it): the session goes to the web app as the password sign-in
///   hands it over, or the browser goes back to the account page.
///
/// The browser that starts gets a cookie (`HttpOnly`, `SameSite=Lax`, ten minutes) whose hash the
/// sign-in keeps: a callback in another browser, an attacker's forced sign-in among them, is
/// refused. Starts are throttled with the client address's sign-ins. Refusals are pages a person
/// reads.
struct OpenIDPageRoutes {
    let auth: AuthService
    let signInPage: SignInPageRoutes
    let account: AccountCentre
    let openID: OpenIDSignIn
    let origin: ServerOrigin
    let secureCookies: Bool

    static let browserCookie = "stratus_oidc"

    func register(on router: Router<StratusRequestContext>) {
        let group = router.group("auth/1/:container/:environment")
        group.get("oidc/:provider/start") { request, context in
            try await SignInPageRoutes.refusing { try await startSignIn(request, context) }
        }
        group.get("web/account/oidc/:provider") { request, context in
            try await SignInPageRoutes.refusing("Your account") { try await startFromAccount(request, context) }
        }
        group.get("oidc/:provider/callback") { request, context in
            try await SignInPageRoutes.refusing { try await callback(request, context) }
        }
    }

    /// The sign-in page's button: a sign-in whose session goes where the page's would.
    private func startSignIn(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let place = try await signInPage.place(request, context)
        return try await start(request, context, provider: try provider(context), purpose: .signIn, handoff: place.handoff.stored, session: nil)
    }

    /// The account page's "Link" and "Confirm with" links, for the page's session.
    private func startFromAccount(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        let token = DatabaseAuthenticator.escapedAPIToken(request)
        let page = "/auth/1/\(containerID)/\(environment.rawValue)/web/account?ckAPIToken=" + token
        let provider = try provider(context)
        guard let purpose = request.uri.queryParameters["purpose"].flatMap({ OpenIDSignIn.Purpose(rawValue: String($0)) }) else {
            throw CloudKitError.badRequest("purpose is signin, link or reauthenticate")
        }
        if purpose == .signIn {
            _ = try await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: nil, containerID: containerID,
                                            environment: environment)
            return try await start(request, context, provider: provider, purpose: .signIn, handoff: "account:" + page, session: nil)
        }
        guard let session = try await AccountPageRoutes.session(request, auth: auth, containerID: containerID, environment: environment) else {
            return Response(status: .seeOther, headers: [.location: page, .cacheControl: "no-store"])
        }
        if purpose == .link { try await account.requireFreshProof(session) }
        return try await start(request, context, provider: provider, purpose: purpose, handoff: "account:" + page, session: session)
    }

    /// The container's provider the path names; `BAD_REQUEST` for any other name.
    private func provider(_ context: StratusRequestContext) throws -> OpenIDConfiguration.Provider {
        let (containerID, _) = try DatabaseAuthenticator.containerAndEnvironment(context)
        return try openID.provider(try context.parameters.require("provider"), containerID: containerID)
    }

    /// Keeps the sign-in and sends the browser to the provider, with the browser's cookie. A
    /// start counts against the sign-ins of the client address (each keeps a row for ten minutes).
    private func start(_ request: Request, _ context: StratusRequestContext, provider: OpenIDConfiguration.Provider, purpose: OpenIDSignIn.Purpose,
                       handoff: String, session: StoredSession?) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        try await auth.throttleSignIn(from: context.clientAddress)
        let browser = request.cookies[Self.browserCookie]?.value.nilIfEmpty ?? SecretGenerator.webAuthToken()
        let redirectURI = origin.of(request) + "/auth/1/\(containerID)/\(environment.rawValue)/oidc/\(provider.name)/callback"
        let url = try await openID.start(.init(provider: provider, containerID: containerID, environment: environment, purpose: purpose,
                                               handoff: handoff, session: session, redirectURI: redirectURI, browser: browser))
        var response = Response(status: .found, headers: [.location: url, .cacheControl: "no-store"])
        response.setCookie(try Cookie.validated(name: Self.browserCookie, value: browser, maxAge: Int(OpenIDSignIn.flowLifetime.components.seconds),
                                                path: "/auth/1/", secure: secureCookies, httpOnly: true, sameSite: .lax))
        return response
    }

    /// Where the provider sends the browser back: finishes the sign-in as it was started.
    private func callback(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        let query = request.uri.queryParameters
        let (flow, identity) = try await openID.finish(state: query["state"].map(String.init) ?? "", code: query["code"].map(String.init),
                                                       error: query["error"].map(String.init), browser: request.cookies[Self.browserCookie]?.value,
                                                       provider: try context.parameters.require("provider"))
        guard flow.containerID == containerID, flow.environment == environment.rawValue else {
            throw CloudKitError(.authenticationFailed, "this sign-in was started for another container: start again")
        }
        if let handoff = SignInPageRoutes.Handoff(stored: flow.handoff) {
            let session = try await openID.signIn(identity, containerID: containerID, environment: environment, from: SessionOrigin(request, context))
            return SignInPageRoutes.handOff(session, to: handoff)
        }
        guard flow.handoff.hasPrefix("account:") else { throw CloudKitError.badRequest("this sign-in has nowhere to go") }
        let page = String(flow.handoff.dropFirst("account:".count))
        if flow.purpose == OpenIDSignIn.Purpose.signIn.rawValue {
            let session = try await openID.signIn(identity, containerID: containerID, environment: environment, from: SessionOrigin(request, context))
            var response = Response(status: .seeOther, headers: [.location: page, .cacheControl: "no-store"])
            response.setCookie(try AccountPageRoutes.sessionCookie(session.ckWebAuthToken, containerID: containerID, environment: environment,
                                                                   secure: secureCookies))
            return response
        }
        guard let hash = flow.sessionHash,
              let session = try await auth.storage.read({ try await $0.session(tokenHash: hash) }), session.expiresAt > auth.clock.milliseconds else {
            throw CloudKitError(.authenticationFailed, "the account page's session ended: sign in on it again")
        }
        switch OpenIDSignIn.Purpose(rawValue: flow.purpose) {
        case .link: try await account.linkOpenID(identity, session: session)
        case .reauthenticate: try await account.reauthenticate(session, by: identity)
        default: throw CloudKitError.badRequest("this sign-in has no purpose the account page knows")
        }
        return Response(status: .seeOther, headers: [.location: page, .cacheControl: "no-store"])
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
