import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore

/// *Extension*: the sign-in page behind an `AUTHENTICATION_REQUIRED` answer's `redirectURL`, for
/// web apps (CloudKit JS among them): `GET /auth/1/{container}/{environment}/web/signin` with
/// `ckAPIToken` and either `origin` (the app opened the page in a popup) or `callback` (the app
/// sent the whole page here).
///
/// The page signs the user in, or signs them up, with a password, a passkey, a provider the
/// container has (``OpenIDPageRoutes`` runs those), or, when the server sends mail, a mailed code
/// (``EmailCodeSignIn``) (and then links to
/// `…/web/password`, where a mailed code resets a forgotten password, ``PasswordReset``), and
/// hands the session back the two ways Apple
/// documents: to the popup's opener with `postMessage({ckSession, ckWebAuthToken}, origin)`, or
/// by sending the page to the app's callback URL with `?ckWebAuthToken=`. The origin, or the
/// callback's, must be one of the container's web origins (`stratus container web-origin add`,
/// never `*`); otherwise the page says so and sends nothing. Its form carries a CSRF token that
/// must match its cookie; sign-ins and sign-ups are throttled as the API's are; the page follows
/// the console's rules (escaped values, a strict CSP, no framing, no caching).
struct SignInPageRoutes {
    let auth: AuthService
    let containers: ContainerService
    let email: EmailVerification
    let passwordReset: PasswordReset
    let emailCodes: EmailCodeSignIn
    let passkeys: PasskeySignIn
    let openID: OpenIDSignIn
    /// Whether browsers reach the server over HTTPS (the cookie is then `Secure`).
    let secureCookies: Bool

    static let cookieName = "stratus_signin"
    /// The script that hands a popup's session to its opener (the CSP allows no inline script).
    static let scriptPath = "/auth/1/signin.js"

    func register(on router: Router<StratusRequestContext>) {
        router.get("auth/1/signin.js") { _, _ in Self.javaScript(Self.script) }
        router.get("auth/1/passkey.js") { _, _ in Self.javaScript(Self.passkeyScript) }
        let group = router.group("auth/1/:container/:environment/web")
        group.get("signin") { request, context in
            try await Self.refusing { try await show(request, context) }
        }
        group.post("signin") { request, context in
            try await Self.refusing { try await signIn(request, context) }
        }
        group.get("password") { request, context in
            try await Self.refusing { try await showPasswordReset(request, context) }
        }
        group.post("password") { request, context in
            try await Self.refusing { try await resetPassword(request, context) }
        }
    }

    /// The "forgot password" page: an email address to mail a reset code to.
    private func showPasswordReset(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let place = try await place(request, context)
        return try fresh("signin-password", place, request, ["pageTitle": "Reset your password", "signIn": place.signInPage])
    }

    /// Mails a reset code (`action=forgot`), or sets the password with one (`action=reset`).
    private func resetPassword(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let place = try await place(request, context)
        guard let (form, csrf) = try await Self.checkedForm(request) else { return Self.forged }
        var values = pageValues(place, csrf: csrf, request: request)
        values["pageTitle"] = "Reset your password"
        values["signIn"] = place.signInPage
        do {
            if form["action"] == "reset" {
                try await passwordReset.reset(code: form["code"] ?? "", password: form["password"] ?? "", containerID: place.containerID,
                                              client: context.clientAddress)
                values["done"] = true
            } else {
                try await passwordReset.requestReset(email: form["email"] ?? "", containerID: place.containerID, client: context.clientAddress)
                values["mailed"] = true
            }
        } catch let error as CloudKitError {
            values["error"] = error.reason
            values["mailed"] = form["action"] == "reset"
            return page("signin-password", values, status: .init(code: error.code.httpStatus))
        }
        return page("signin-password", values, status: .ok)
    }

    private static func javaScript(_ script: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "max-age=3600"],
                 body: .init(byteBuffer: ByteBuffer(string: script)))
    }

    /// The page, with a fresh CSRF token in its form and its cookie.
    private func show(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let place = try await place(request, context)
        return try fresh("signin-page", place, request, [:], formTarget: place.formTarget)
    }

    /// A new CSRF token's cookie, for a page whose form carries the token.
    static func csrfCookie(_ csrf: String, secure: Bool) throws -> Cookie {
        try Cookie.validated(name: cookieName, value: csrf, path: "/auth/1/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// A page with a form, with a new CSRF token in the form and in its cookie.
    private func fresh(_ name: String, _ place: Place, _ request: Request, _ extra: [String: Any], formTarget: String? = nil) throws -> Response {
        let csrf = SecretGenerator.webAuthToken()
        var response = page(name, pageValues(place, csrf: csrf, request: request).merging(extra) { $1 }, status: .ok, formTarget: formTarget)
        response.setCookie(try Self.csrfCookie(csrf, secure: secureCookies))
        return response
    }

    /// The posted form and its CSRF token, if the token is the one of the form's cookie. A form
    /// may carry a passkey's credential, percent-encoded JSON.
    static func checkedForm(_ request: Request) async throws -> (ConsoleForm, String)? {
        let form = try await ConsoleForm.read(request, limit: 3 * AuthRoutes.maxPasskeyRequestBytes)
        guard let csrf = form["csrf"], let cookie = request.cookies[Self.cookieName]?.value, !csrf.isEmpty, csrf == cookie else { return nil }
        return (form, csrf)
    }

    /// The answer to a form without its page's CSRF token.
    static var forged: Response {
        ConsoleRoutes.page("signin-refused", ["pageTitle": "Refused", "text": "This form was not sent from this page (its CSRF token is missing or wrong). Open the page again."],
                           visit: nil, status: .forbidden)
    }

    /// Signs the user in (or up) and hands the session to the app.
    private func signIn(_ request: Request, _ context: StratusRequestContext) async throws -> Response {
        let place = try await place(request, context)
        guard let (form, csrf) = try await Self.checkedForm(request) else { return Self.forged }
        let credentials = Credentials(username: form["username"] ?? "", password: form["password"] ?? "",
                                      email: (form["email"] ?? "").isEmpty ? nil : form["email"])
        let session: SignInResponse
        do {
            if form["action"] == "signup" {
                let (response, user) = try await auth.signUp(credentials, containerID: place.containerID, environment: place.environment,
                                                             from: SessionOrigin(request, context))
                await email.sendFirstCode(to: user, client: context.clientAddress)
                session = response
            } else if form["action"] == "passkey-signup" {
                var registration = try Self.credential(PasskeyRegistration.self, in: form)
                registration.username = credentials.username
                registration.email = credentials.email
                let (response, user) = try await passkeys.signUp(registration, containerID: place.containerID, environment: place.environment,
                                                                 from: SessionOrigin(request, context))
                await email.sendFirstCode(to: user, client: context.clientAddress)
                session = response
            } else if form["action"] == "email-code" {
                let email = (form["email"] ?? "").lowercased()
                try await emailCodes.requestCode(email: email, containerID: place.containerID, client: context.clientAddress)
                var values = pageValues(place, csrf: csrf, request: request)
                values["codeSent"] = email
                return page("signin-page", values, status: .ok, formTarget: place.formTarget)
            } else if form["action"] == "email-signin" {
                session = try await emailCodes.signIn(email: form["email"] ?? "", code: form["code"] ?? "", containerID: place.containerID,
                                                      environment: place.environment, from: SessionOrigin(request, context))
            } else if form["action"] == "passkey-signin" {
                session = try await passkeys.signIn(try Self.credential(PasskeyAssertion.self, in: form), containerID: place.containerID,
                                                    environment: place.environment, from: SessionOrigin(request, context))
            } else {
                session = try await auth.signIn(credentials, containerID: place.containerID, environment: place.environment,
                                                from: SessionOrigin(request, context))
            }
        } catch let error as CloudKitError {
            var values = pageValues(place, csrf: csrf, request: request)
            values["username"] = credentials.username
            values["error"] = error.reason
            if form["action"] == "email-signin" { values["codeSent"] = (form["email"] ?? "").lowercased() }
            return page("signin-page", values, status: .init(code: error.code.httpStatus), formTarget: place.formTarget)
        }
        return Self.handOff(session, to: place.handoff)
    }

    /// Hands a new session to the web app: to the popup's opener, or by sending the page to the
    /// app's callback URL.
    static func handOff(_ session: SignInResponse, to handoff: Handoff) -> Response {
        switch handoff {
        case .popup(let origin):
            return ConsoleRoutes.page("signin-handoff", ["pageTitle": "Signed in", "origin": origin, "token": session.ckWebAuthToken, "script": Self.scriptPath],
                                      visit: nil, status: .ok)
        case .redirect(let callback):
            let separator = callback.contains("?") ? "&" : "?"
            let token = session.ckWebAuthToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? session.ckWebAuthToken
            return Response(status: .seeOther, headers: [.location: callback + separator + "ckWebAuthToken=" + token, .cacheControl: "no-store"])
        }
    }

    /// The passkey credential a page's script put in its form (`credential`, as
    /// `PublicKeyCredential.toJSON()` gives it).
    static func credential<T: Decodable>(_ type: T.Type, in form: ConsoleForm) throws(CloudKitError) -> T {
        guard let json = form["credential"], json.utf8.count <= AuthRoutes.maxPasskeyRequestBytes,
              let credential = try? JSONDecoder().decode(T.self, from: Data(json.utf8)) else {
            throw .badRequest("the passkey's credential is missing or not WebAuthn's JSON")
        }
        return credential
    }

    /// The values of a page's passkey buttons: whether the container has passkeys, and where the
    /// script asks for sign-in and sign-up options (with the page's API token).
    static func passkeyValues(_ passkeys: PasskeySignIn, _ request: Request, containerID: String,
                              environment: ContainerEnvironment) -> [String: Any] {
        guard passkeys.isSetUp(for: containerID) else { return [:] }
        let token = DatabaseAuthenticator.escapedAPIToken(request)
        let base = "/auth/1/\(containerID)/\(environment.rawValue)/passkey/"
        return ["passkeys": true, "signInOptions": base + "signin/options?ckAPIToken=" + token, "signUpOptions": base + "signup/options?ckAPIToken=" + token]
    }

    /// What `body` answers, or a page titled `title` saying why the request was refused (a page
    /// opened by an app the container does not list, an unknown environment, a wrong API token): a
    /// person reads it, not a program.
    static func refusing(_ title: String = "Cannot sign in here", _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as CloudKitError {
            return ConsoleRoutes.page("signin-refused", ["pageTitle": title, "text": error.reason], visit: nil, status: .init(code: error.code.httpStatus))
        }
    }

    /// A page's values; the "forgot password" link only when the server sends mail, the passkey
    /// buttons only when the container has passkeys.
    private func pageValues(_ place: Place, csrf: String, request: Request) -> [String: Any] {
        var values = place.values(csrf: csrf).merging(Self.passkeyValues(passkeys, request, containerID: place.containerID,
                                                                          environment: place.environment)) { $1 }
        if passwordReset.outbox == nil { values["forgot"] = nil } else { values["emailCodes"] = true }
        let providers = openID.providers(for: place.containerID)
        if !providers.isEmpty {
            let base = "/auth/1/\(place.containerID)/\(place.environment.rawValue)/oidc/"
            values["hasProviders"] = true
            values["providers"] = providers.map { ["name": $0.name, "title": $0.title, "url": base + $0.name + "/start?" + (request.uri.query ?? "")] }
        }
        return values
    }

    /// Where a session goes once the user signed in.
    enum Handoff {
        /// To the page that opened the popup, of this origin.
        case popup(String)
        /// By sending the page to this URL.
        case redirect(String)

        /// The handoff as a web sign-in at a provider keeps it (``StoredOpenIDFlow/handoff``).
        var stored: String {
            switch self {
            case .popup(let origin): "popup:" + origin
            case .redirect(let url): "redirect:" + url
            }
        }

        /// The handoff a web sign-in kept; nil for one of another kind.
        init?(stored: String) {
            if stored.hasPrefix("popup:") {
                self = .popup(String(stored.dropFirst(6)))
            } else if stored.hasPrefix("redirect:") {
                self = .redirect(String(stored.dropFirst(9)))
            } else {
                return nil
            }
        }
    }

    /// What a request of the page names: the container, environment and handoff, checked.
    struct Place {
        var containerID: String
        var environment: ContainerEnvironment
        var handoff: Handoff
        /// The page's own URL, which its form posts to.
        var action: String

        /// The sign-in page of the same app, and its "forgot password" page.
        var signInPage: String { action.replacingOccurrences(of: "/web/password?", with: "/web/signin?") }
        var passwordPage: String { action.replacingOccurrences(of: "/web/signin?", with: "/web/password?") }

        /// The listed web origin the session goes to.
        var appOrigin: String

        /// The origin the form's answer sends the page on to, after a redirect sign-in.
        var formTarget: String? {
            if case .redirect = handoff { appOrigin } else { nil }
        }

        func values(csrf: String) -> [String: Any] {
            ["pageTitle": "Sign in", "csrf": csrf, "action": action, "forgot": passwordPage, "app": appOrigin]
        }
    }

    /// The request's container (by its API token), environment and handoff. A page opened by an
    /// app the container does not list answers `BAD_REQUEST` (as a page), and sends nothing.
    func place(_ request: Request, _ context: StratusRequestContext) async throws -> Place {
        let (containerID, environment) = try DatabaseAuthenticator.containerAndEnvironment(context)
        _ = try await auth.authenticate(apiToken: DatabaseAuthenticator.apiToken(request), webAuthToken: nil,
                                        containerID: containerID, environment: environment)
        let allowed = try await containers.container(id: containerID)?.webOrigins ?? []
        let query = request.uri.queryParameters
        let handoff: Handoff, appOrigin: String
        if let callback = query["callback"].map(String.init), let origin = WebOrigin.of(url: callback), allowed.contains(origin) {
            (handoff, appOrigin) = (.redirect(callback), origin)
        } else if let origin = query["origin"].flatMap({ WebOrigin.normalized(String($0)) }), allowed.contains(origin), query["callback"] == nil {
            (handoff, appOrigin) = (.popup(origin), origin)
        } else {
            throw CloudKitError.badRequest("this sign-in page was not opened by a web app of container '\(containerID)': "
                                           + "its origin or callback must be one of the container's web origins (stratus container web-origin add)")
        }
        return Place(containerID: containerID, environment: environment, handoff: handoff, action: request.uri.description, appOrigin: appOrigin)
    }

    /// A page under the console's rules; a form may also post to (and be sent on to) `formTarget`,
    /// the app's callback origin.
    private func page(_ name: String, _ values: [String: Any], status: HTTPResponse.Status, formTarget: String? = nil) -> Response {
        var response = ConsoleRoutes.page(name, values, visit: nil, status: status)
        if let formTarget, let policy = response.headers[.contentSecurityPolicy] {
            response.headers[.contentSecurityPolicy] = policy.replacingOccurrences(of: "form-action 'self'", with: "form-action 'self' \(formTarget)")
        }
        return response
    }

    /// The passkey buttons of the sign-in and account pages: each asks for options (from its
    /// `data-options`, or by posting to its `data-options-url`, with the username for a sign-up),
    /// has the browser make or use a passkey, and posts the credential's JSON in the page's passkey
    /// form, with the button's value as the form's action.
    static let passkeyScript = """
        const passkeyForm = document.getElementById("passkey-form");
        const passkeyError = (text) => {
          const line = document.getElementById("passkey-error");
          line.textContent = text;
          line.hidden = false;
        };
        for (const button of document.querySelectorAll("button[data-passkey]")) {
          button.addEventListener("click", async () => {
            try {
              let options;
              if (button.dataset.options) {
                options = JSON.parse(button.dataset.options);
              } else {
                const create = button.dataset.passkey === "create";
                const username = document.getElementById("username")?.value ?? "";
                if (create && !username) throw new Error("Choose a username first.");
                const answer = await fetch(button.dataset.optionsUrl, {
                  method: "POST", headers: { "Content-Type": "application/json" },
                  body: JSON.stringify(create ? { username } : {}),
                });
                options = await answer.json();
                if (!answer.ok) throw new Error(options.reason || "The server refused.");
                passkeyForm.elements.username.value = username;
                passkeyForm.elements.email.value = document.getElementById("email")?.value ?? "";
              }
              const credential = button.dataset.passkey === "create"
                ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
                : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
              passkeyForm.elements.action.value = button.value;
              passkeyForm.elements.credential.value = JSON.stringify(credential.toJSON());
              passkeyForm.submit();
            } catch (error) {
              passkeyError(error.message);
            }
          });
        }
        """

    /// Hands the session to the opener, at the origin the server checked, and closes the popup.
    static let script = """
        const handoff = document.getElementById("handoff");
        if (handoff && window.opener) {
          const token = handoff.dataset.token;
          window.opener.postMessage({ ckSession: token, ckWebAuthToken: token }, handoff.dataset.origin);
          window.close();
        }
        """
}
