import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore

/// *Extension*: the "your account" page, `GET /auth/1/{container}/{environment}/web/account` with
/// `ckAPIToken`: the account centre (``AccountCentre``) for a person in a browser. They sign in
/// on it; it lists how the account signs in and where it is signed in, signs out another device,
/// changes the password, removes Sign in with Apple, and asks them to confirm with their password
/// when a change needs fresh proof.
///
/// The page's session is its own: a web auth token in an `HttpOnly`, `SameSite=Strict` cookie
/// scoped to the page's path, opened by signing in on the page and ended by its sign-out. Every
/// form carries the sign-in page's CSRF token (its cookie and the form's must match), and the page
/// follows the console's rules (escaped values, a strict CSP, no framing, no caching).
struct AccountPageRoutes {
    let auth: AuthService
    let account: AccountCentre
    let hub: NotificationHub
    let secureCookies: Bool

    static let sessionCookie = "stratus_account"

    func register(on router: Router<StratusRequestContext>) {
        let group = router.group("auth/1/:container/:environment/web")
        group.get("account") { request, context in
            try await SignInPageRoutes.refusing("Your account") {
                try await respond(request, context) { session, csrf in
                    try await page(session, csrf: csrf, action: request.uri.description)
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
        if let session = try await session(request, containerID: containerID, environment: environment) {
            response = try await body(session, csrf)
        } else {
            response = Self.render("account-signin", ["pageTitle": "Your account", "csrf": csrf, "action": request.uri.description])
        }
        response.setCookie(try SignInPageRoutes.csrfCookie(csrf, secure: secureCookies))
        return response
    }

    /// The page's session, from its cookie, if it still holds.
    private func session(_ request: Request, containerID: String, environment: ContainerEnvironment) async throws -> StoredSession? {
        guard let token = request.cookies[Self.sessionCookie]?.value, !token.isEmpty else { return nil }
        return try? await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: token, containerID: containerID,
                                            environment: environment)
    }

    /// The account as the page shows it, with `notice` or `error` above it.
    private func page(_ session: StoredSession, csrf: String, action: String, notice: String? = nil, error: String? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let summary = try await account.account(session)
        let methods = summary.methods.map { method -> [String: Any] in
            ["name": method == "apple" ? "Sign in with Apple" : "Password", "removable": method == "apple" && summary.methods.count > 1,
             "csrf": csrf, "action": action]
        }
        let sessions = summary.sessions.map { other -> [String: Any] in
            ["id": other.id, "device": other.device.isEmpty ? "(unnamed)" : other.device, "clientAddress": other.clientAddress,
             "created": ConsoleRoutes.date(other.created), "lastUsed": ConsoleRoutes.date(other.lastUsed), "current": other.current,
             "csrf": csrf, "action": action]
        }
        var values: [String: Any] = ["pageTitle": "Your account", "username": summary.username, "emailVerified": summary.emailVerified,
                                     "methods": methods, "sessions": sessions, "csrf": csrf, "action": action]
        values["email"] = summary.email
        values["notice"] = notice
        values["error"] = error
        return Self.render("account-page", values, status: status)
    }

    /// A form of the page: signing in, or a change to the signed-in account.
    private func change(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        guard let (form, _) = try await SignInPageRoutes.checkedForm(request) else { return SignInPageRoutes.forged }
        let action = request.uri.description
        if form["action"] == "signin" {
            do {
                let signedIn = try await auth.signIn(Credentials(username: form["username"] ?? "", password: form["password"] ?? ""),
                                                     containerID: containerID, environment: environment, from: SessionOrigin(request, context))
                var response = Response(status: .seeOther, headers: [.location: action, .cacheControl: "no-store"])
                response.setCookie(try sessionCookie(signedIn.ckWebAuthToken, containerID: containerID, environment: environment))
                return response
            } catch let error as CloudKitError {
                let csrf = SecretGenerator.webAuthToken()
                var response = Self.render("account-signin", ["pageTitle": "Your account", "csrf": csrf, "action": action, "error": error.reason,
                                                              "username": form["username"] ?? ""], status: .init(code: error.code.httpStatus))
                response.setCookie(try SignInPageRoutes.csrfCookie(csrf, secure: secureCookies))
                return response
            }
        }
        return try await respond(request, context) { session, csrf in
            do {
                switch form["action"] {
                case "signout-session":
                    try await account.signOut(sessionID: form["session"] ?? "", of: session)
                    return try await page(session, csrf: csrf, action: action, notice: "That device is signed out.")
                case "reauthenticate":
                    try await account.reauthenticate(session, ReauthenticationRequest(password: form["password"] ?? ""), client: context.clientAddress)
                    return try await page(session, csrf: csrf, action: action, notice: "Thank you: for the next few minutes you can change how you sign in.")
                case "password":
                    try await account.changePassword(session, to: form["newPassword"] ?? "", proof: ReauthenticationRequest(), client: context.clientAddress)
                    return try await page(session, csrf: csrf, action: action, notice: "Your password is changed; your other devices are signed out.")
                case "unlink-apple":
                    try await account.unlinkApple(session)
                    return try await page(session, csrf: csrf, action: action, notice: "Sign in with Apple is removed; your other devices are signed out.")
                case "signout":
                    try await auth.signOut(session)
                    await hub.endSessions([session.tokenHash])
                    var response = Response(status: .seeOther, headers: [.location: action, .cacheControl: "no-store"])
                    response.setCookie(try sessionCookie("", containerID: containerID, environment: environment, maxAge: 0))
                    return response
                default:
                    throw CloudKitError.badRequest("unknown action")
                }
            } catch let error as CloudKitError {
                let reason = error.reason.hasPrefix("fresh proof required") ? "Confirm it's you first: enter your password below, then try again." : error.reason
                return try await page(session, csrf: csrf, action: action, error: reason, status: .init(code: error.code.httpStatus))
            }
        }
    }

    /// The page's session cookie (an empty value with `maxAge` 0 removes it).
    private func sessionCookie(_ token: String, containerID: String, environment: ContainerEnvironment, maxAge: Int? = nil) throws -> Cookie {
        try Cookie.validated(name: Self.sessionCookie, value: token, maxAge: maxAge, path: "/auth/1/\(containerID)/\(environment.rawValue)/web/account",
                             secure: secureCookies, httpOnly: true, sameSite: .strict)
    }

    private static func render(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        ConsoleRoutes.page(name, values, visit: nil, status: status)
    }
}
