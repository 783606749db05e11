import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore

/// *Extension*: the "your account" page, `GET /auth/1/{container}/{environment}/web/account` with
/// `ckAPIToken`: the account centre (``AccountCentre``) for a person in a browser. They sign in
/// on it (with a password or a passkey); it lists how the account signs in and where it is signed
/// in, signs out another device, changes the password, removes Sign in with Apple, adds and
/// removes passkeys, links and removes the container's sign-in providers (``OpenIDPageRoutes``
/// runs the provider's side), and asks them to confirm with their password, a passkey or a
/// linked provider when a change needs fresh proof.
///
/// The page's session is its own: a web auth token in an `HttpOnly`, `SameSite=Strict` cookie
/// scoped to the page's path, opened by signing in on the page and ended by its sign-out. Every
/// form carries the sign-in page's CSRF token (its cookie and the form's must match), and the page
/// follows the console's rules (escaped values, a strict CSP, no framing, no caching).
struct AccountPageRoutes {
    let auth: AuthService
    let account: AccountCentre
    let passkeys: PasskeySignIn
    let openID: OpenIDSignIn
    let hub: NotificationHub
    let secureCookies: Bool

    static let sessionCookie = "stratus_account"

    func register(on router: Router<StratusRequestContext>) {
        let group = router.group("auth/1/:container/:environment/web")
        group.get("account") { request, context in
            try await SignInPageRoutes.refusing("Your account") {
                try await respond(request, context) { session, csrf in
                    try await page(session, request, csrf: csrf)
                }
            }
        }
        group.post("account") { request, context in
            try await SignInPageRoutes.refusing("Your account") { try await change(request, context) }
        }
    }

    /// The page for a signed-in session, or its sign-in form; with a new CSRF token.
    private func respond(_ request: Request, _ context: StratusRequestContext,
                         _ body: (StoredSession, String) async throws -> Response) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        let csrf = SecretGenerator.webAuthToken()
        var response: Response
        _ = try await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: nil, containerID: containerID,
                                        environment: environment)
        if let session = try await Self.session(request, auth: auth, containerID: containerID, environment: environment) {
            response = try await body(session, csrf)
        } else {
            response = Self.render("account-signin", signInValues(request, containerID: containerID, environment: environment, csrf: csrf))
        }
        response.setCookie(try SignInPageRoutes.csrfCookie(csrf, secure: secureCookies))
        return response
    }

    /// The values of the page's sign-in form, with a link per provider.
    private func signInValues(_ request: Request, containerID: String, environment: ContainerEnvironment, csrf: String) -> [String: Any] {
        var values: [String: Any] = ["pageTitle": "Your account", "csrf": csrf, "action": request.uri.description]
        values.merge(SignInPageRoutes.passkeyValues(passkeys, request, containerID: containerID, environment: environment)) { $1 }
        let providers = openID.providers(for: containerID)
        if !providers.isEmpty {
            let base = Self.providerBase(request, containerID: containerID, environment: environment)
            values["hasProviders"] = true
            values["providers"] = providers.map { ["name": $0.name, "title": $0.title, "url": base.path + $0.name + "?purpose=signin&ckAPIToken=" + base.token] }
        }
        return values
    }

    /// Where the page's provider links start (``OpenIDPageRoutes``), and its API token, escaped.
    private static func providerBase(_ request: Request, containerID: String, environment: ContainerEnvironment) -> (path: String, token: String) {
        ("/auth/1/\(containerID)/\(environment.rawValue)/web/account/oidc/",
         DatabaseAuthenticator.escapedAPIToken(request))
    }

    /// The page's session, from its cookie, if it still holds.
    static func session(_ request: Request, auth: AuthService, containerID: String, environment: ContainerEnvironment) async throws -> StoredSession? {
        guard let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty else { return nil }
        return try? await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: token, containerID: containerID,
                                            environment: environment)
    }

    /// The account as the page shows it, with `notice` or `error` above it.
    private func page(_ session: StoredSession, _ request: Request, csrf: String, notice: String? = nil, error: String? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let action = request.uri.description
        let summary = try await account.account(session)
        let providers = openID.providers(for: session.containerID)
        let methods = summary.methods.map { method -> [String: Any] in
            let provider = method.hasPrefix("oidc:") ? providers.first { "oidc:" + $0.name == method }?.title ?? String(method.dropFirst(5)) : nil
            return ["name": provider ?? ["apple": "Sign in with Apple", "passkey": "Passkeys"][method] ?? "Password",
             "removable": method == "apple" && summary.methods.count > 1, "csrf": csrf, "action": action]
        }
        let sessions = summary.sessions.map { other -> [String: Any] in
            ["id": other.id, "device": other.device.isEmpty ? "(unnamed)" : other.device, "clientAddress": other.clientAddress,
             "created": ConsoleRoutes.date(other.created), "lastUsed": ConsoleRoutes.date(other.lastUsed), "current": other.current,
             "csrf": csrf, "action": action]
        }
        var values: [String: Any] = ["pageTitle": "Your account", "username": summary.username, "emailVerified": summary.emailVerified,
                                     "methods": methods, "sessions": sessions, "csrf": csrf, "action": action]
        values["email"] = summary.email
        if !providers.isEmpty {
            let (base, token) = Self.providerBase(request, containerID: session.containerID, environment: session.environment)
            values["hasProviders"] = true
            values["providers"] = providers.map { provider -> [String: Any] in
                var item: [String: Any] = ["name": provider.name, "title": provider.title, "csrf": csrf, "action": action,
                                           "linkURL": base + provider.name + "?purpose=link&ckAPIToken=" + token,
                                           "confirmURL": base + provider.name + "?purpose=reauthenticate&ckAPIToken=" + token]
                if let linked = summary.providers.first(where: { $0.provider == provider.name }) {
                    item["linked"] = ConsoleRoutes.date(linked.linked)
                    item["email"] = linked.email
                }
                return item
            }
        }
        values["notice"] = notice
        values["error"] = error
        let passkeyValues = SignInPageRoutes.passkeyValues(passkeys, request, containerID: session.containerID, environment: session.environment)
        if !passkeyValues.isEmpty {
            values.merge(passkeyValues) { $1 }
            values["passkeyList"] = summary.passkeys.map { passkey -> [String: Any] in
                var item: [String: Any] = ["id": passkey.id, "name": passkey.name, "created": ConsoleRoutes.date(passkey.created), "csrf": csrf, "action": action]
                item["lastUsed"] = passkey.lastUsed.map(ConsoleRoutes.date)
                return item
            }
            let options = try await account.passkeyRegistrationOptions(session, requiringFreshProof: false)
            values["registerOptions"] = String(decoding: try JSONEncoder().encode(options), as: UTF8.self)
        }
        return Self.render("account-page", values, status: status)
    }

    /// A form of the page: signing in, or a change to the signed-in account.
    private func change(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        guard let (form, _) = try await SignInPageRoutes.checkedForm(request) else { return SignInPageRoutes.forged }
        let action = request.uri.description
        if form["action"] == "signin" || form["action"] == "passkey-signin" {
            do {
                let origin = SessionOrigin(request, context)
                let signedIn = form["action"] == "passkey-signin"
                    ? try await passkeys.signIn(try SignInPageRoutes.credential(PasskeyAssertion.self, in: form), containerID: containerID,
                                                environment: environment, from: origin)
                    : try await auth.signIn(Credentials(username: form["username"] ?? "", password: form["password"] ?? ""),
                                            containerID: containerID, environment: environment, from: origin)
                var response = Response(status: .seeOther, headers: [.location: action, .cacheControl: "no-store"])
                response.setCookie(try Self.sessionCookie(signedIn.ckWebAuthToken, containerID: containerID, environment: environment, secure: secureCookies))
                return response
            } catch let error as CloudKitError {
                let csrf = SecretGenerator.webAuthToken()
                var values = signInValues(request, containerID: containerID, environment: environment, csrf: csrf)
                values["error"] = error.reason
                values["username"] = form["username"] ?? ""
                var response = Self.render("account-signin", values, status: .init(code: error.code.httpStatus))
                response.setCookie(try SignInPageRoutes.csrfCookie(csrf, secure: secureCookies))
                return response
            }
        }
        return try await respond(request, context) { session, csrf in
            do {
                switch form["action"] {
                case "signout-session":
                    try await account.signOut(sessionID: form["session"] ?? "", of: session)
                    return try await page(session, request, csrf: csrf, notice: "That device is signed out.")
                case "reauthenticate":
                    try await account.reauthenticate(session, ReauthenticationRequest(password: form["password"] ?? ""), client: context.clientAddress)
                    return try await page(session, request, csrf: csrf, notice: "Thank you: for the next few minutes you can change how you sign in.")
                case "password":
                    try await account.changePassword(session, to: form["newPassword"] ?? "", proof: ReauthenticationRequest(), client: context.clientAddress)
                    return try await page(session, request, csrf: csrf, notice: "Your password is changed; your other devices are signed out.")
                case "reauthenticate-passkey":
                    let assertion = try SignInPageRoutes.credential(PasskeyAssertion.self, in: form)
                    try await account.reauthenticate(session, ReauthenticationRequest(passkey: assertion), client: context.clientAddress)
                    return try await page(session, request, csrf: csrf, notice: "Thank you: for the next few minutes you can change how you sign in.")
                case "add-passkey":
                    try await account.registerPasskey(try SignInPageRoutes.credential(PasskeyRegistration.self, in: form), session: session)
                    return try await page(session, request, csrf: csrf, notice: "The passkey is added: you can sign in with it.")
                case "remove-passkey":
                    try await account.removePasskey(id: form["passkey"] ?? "", session: session)
                    return try await page(session, request, csrf: csrf, notice: "The passkey is removed; your other devices are signed out.")
                case "unlink-provider":
                    try await account.unlinkOpenID(provider: form["provider"] ?? "", session: session)
                    return try await page(session, request, csrf: csrf, notice: "The provider is removed; your other devices are signed out.")
                case "unlink-apple":
                    try await account.unlinkApple(session)
                    return try await page(session, request, csrf: csrf, notice: "Sign in with Apple is removed; your other devices are signed out.")
                case "signout":
                    try await auth.signOut(session)
                    await hub.endSessions([session.tokenHash])
                    var response = Response(status: .seeOther, headers: [.location: action, .cacheControl: "no-store"])
                    response.setCookie(try Self.sessionCookie("", containerID: containerID, environment: environment, maxAge: 0, secure: secureCookies))
                    return response
                default:
                    throw CloudKitError.badRequest("unknown action")
                }
            } catch let error as CloudKitError {
                let reason = error.reason.hasPrefix("fresh proof required") ? "Confirm it's you first (below), then try again." : error.reason
                return try await page(session, request, csrf: csrf, error: reason, status: .init(code: error.code.httpStatus))
            }
        }
    }

    /// The page's session cookie (an empty value with `maxAge` 0 removes it).
    static func sessionCookie(_ token: String, containerID: String, environment: ContainerEnvironment, maxAge: Int? = nil, secure: Bool) throws -> Cookie {
        try Cookie.validated(name: Self.sessionCookie, value: token, maxAge: maxAge, path: "/auth/1/\(containerID)/\(environment.rawValue)/web/account",
                             secure: secure, httpOnly: true, sameSite: .strict)
    }

    private static func render(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        ConsoleRoutes.page(name, values, visit: nil, status: status)
    }
}
