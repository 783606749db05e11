import Foundation
import HTTPTypes
import Hummingbird
import StratusCore

/// The web console at `/console`: server-rendered pages for the server's administrators (never
/// app users), each action a call to the service the CLI calls (``AdminService`` and the record
/// services as `stratus records` uses them).
///
/// Pages are plain HTML forms that work with the keyboard alone and on a narrow screen. Every
/// change is a `POST` carrying the session's CSRF token (``ConsoleVisit/csrf``); the session
/// cookie is `HttpOnly`, `SameSite=Strict`, scoped to `/console`, and `Secure` over HTTPS; sign-in
/// is throttled like app sign-ins. Responses forbid framing and caching.
struct ConsoleRoutes {
    let services: StratusServices
    let origin: ServerOrigin
    /// Whether browsers reach the server over HTTPS, its own or a proxy's (the cookie is then `Secure`).
    let secureCookies: Bool
    /// Notes left by changes for the next page of their session.
    let notices = ConsoleNotices()

    /// The largest form the console reads.
    static let maxFormBytes = 256 * 1024

    func register(on router: Router<StratusRequestContext>) {
        let console = router.group("console")
        console.get { request, _ in
            Self.redirect(await visit(request) == nil ? "/console/signin" : "/console/containers")
        }
        console.get("signin") { request, _ in
            if await visit(request) != nil { return Self.redirect("/console/containers") }
            return Self.page("console-signin", ["pageTitle": "Sign in"], visit: nil)
        }
        console.post("signin") { request, context in
            let form = try await ConsoleForm.read(request)
            do {
                let token = try await services.admin.signInToConsole(username: form["username"] ?? "", password: form["password"] ?? "",
                                                                     client: context.clientAddress)
                var response = Self.redirect("/console/containers")
                response.setCookie(try Cookie.validated(name: ConsoleVisit.cookieName, value: token, path: "/console", secure: secureCookies,
                                                        httpOnly: true, sameSite: .strict))
                return response
            } catch let error as CloudKitError {
                return Self.page("console-signin", ["pageTitle": "Sign in", "username": form["username"] ?? "", "error": error.reason],
                                 visit: nil, status: error.code == .throttled ? .tooManyRequests : .unauthorized)
            }
        }
        console.post("signout") { request, context in
            try await change(request, context) { visit, _ in
                try await services.admin.signOutOfConsole(token: visit.token)
                var response = Self.redirect("/console/signin")
                response.setCookie(try Cookie.validated(name: ConsoleVisit.cookieName, value: "", maxAge: 0, path: "/console",
                                                        secure: secureCookies, httpOnly: true, sameSite: .strict))
                return response
            }
        }
        ConsoleContainerRoutes(routes: self).register(on: console)
        ConsoleWebhookRoutes(routes: self).register(on: console)
        ConsoleUserRoutes(routes: self).register(on: console)
        let data = ConsoleDataRoutes(routes: self)
        data.register(on: console)
        ConsoleHistoryRoutes(routes: self, data: data).register(on: console)
        ConsoleActivityRoutes(routes: self).register(on: console)
        ConsoleSchemaRoutes(routes: self).register(on: console)
    }

    // MARK: Sessions, forms and pages

    /// The signed-in administrator of the request, if its cookie names a live session.
    func visit(_ request: Request) async -> ConsoleVisit? {
        guard let token = ConsoleVisit.token(of: request),
              let administrator = try? await services.admin.consoleAdministrator(token: token) else { return nil }
        return ConsoleVisit(administrator: administrator, token: token, notices: notices)
    }

    /// A page for a signed-in administrator, with the note a change left for it; others are sent
    /// to sign in.
    func show(_ request: Request, _ body: (ConsoleVisit) async throws -> Response) async throws -> Response {
        guard var visit = await visit(request) else { return Self.redirect("/console/signin") }
        visit.message = notices.take(for: visit.token)
        return try await body(visit)
    }

    /// A change: a signed-in administrator's form carrying the session's CSRF token; anything else
    /// is refused before `body` runs.
    func change(_ request: Request, _ context: StratusRequestContext,
                _ body: (ConsoleVisit, ConsoleForm) async throws -> Response) async throws -> Response {
        guard let visit = await visit(request) else { return Self.redirect("/console/signin") }
        let form = try await ConsoleForm.read(request)
        guard let csrf = form["csrf"], csrf == visit.csrf else {
            return Self.page("console-message", ["pageTitle": "Refused", "text": "The form was not sent from this console (its CSRF token is missing or wrong)."],
                             visit: visit, status: .forbidden)
        }
        // What the change does is recorded in the audit log as this administrator's, from this address.
        return try await AuditActor.$current.withValue(.administrator(visit.administrator, from: context.clientAddress)) {
            try await body(visit, form)
        }
    }

    static func page(_ name: String, _ values: [String: Any], visit: ConsoleVisit?, status: HTTPResponse.Status = .ok) -> Response {
        var values = values
        if let visit {
            values["administrator"] = visit.administrator
            values["csrf"] = visit.csrf
            values["message"] = visit.message
        }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: PageTemplates.render(name, values))))
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    static func date(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    /// A path parameter as the route names it, percent-decoded (``pathComponent(_:)`` encodes
    /// names such as `josé` or `spam<>` in the links the console writes).
    static func parameter(_ name: String, of context: StratusRequestContext) throws -> String {
        let raw = try context.parameters.require(name)
        guard let decoded = raw.removingPercentEncoding else { throw HTTPError(.badRequest, message: "the path is not valid percent-encoding") }
        return decoded
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    static func queryComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))) ?? text
    }
}
