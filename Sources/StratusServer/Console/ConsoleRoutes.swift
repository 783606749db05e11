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
/// cookie is `HttpOnly`, `SameSite=Strict`, scoped to `/console`, and `Secure` over TLS; sign-in
/// is throttled like app sign-ins. Responses forbid framing and caching.
struct ConsoleRoutes {
    let services: StratusServices
    let origin: ServerOrigin
    /// Whether the server speaks TLS (the cookie is then `Secure`).
    let secureCookies: Bool

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
            let form = try await ConsoleForm.read(request, context: context)
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
        registerContainers(on: console)
        registerUsers(on: console)
        ConsoleDataRoutes(routes: self).register(on: console)
        ConsoleActivityRoutes(routes: self).register(on: console)
        ConsoleSchemaRoutes(routes: self).register(on: console)
    }

    // MARK: Containers

    private func registerContainers(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers") { request, _ in
            try await show(request) { visit in
                let containers = try await services.admin.listContainers().map { ["id": $0.id, "created": Self.date($0.createdAt)] }
                return Self.page("console-containers", ["pageTitle": "Containers", "containers": containers,
                                                        "message": request.uri.queryParameters["message"].map(String.init) ?? ""], visit: visit)
            }
        }
        console.post("containers") { request, context in
            try await change(request, context) { _, form in
                let id = form["id"] ?? ""
                do {
                    _ = try await services.admin.createContainer(id: id)
                    return Self.redirect("/console/containers/\(Self.pathComponent(id))")
                } catch let error as CloudKitError {
                    return Self.redirect("/console/containers", message: error.reason)
                }
            }
        }
        console.get("containers/:container") { request, context in
            try await show(request) { visit in
                let id = try context.parameters.require("container")
                guard let container = try await services.containers.container(id: id) else { throw HTTPError(.notFound) }
                var values: [String: Any] = ["pageTitle": id, "container": id, "containerPath": Self.pathComponent(id),
                                             "apiToken": container.apiToken, "created": Self.date(container.createdAt),
                                             "message": Self.message(request)]
                values["keys"] = try await services.serverKeys.list(containerID: id).map { key -> [String: Any] in
                    ["keyID": key.keyID, "created": Self.date(key.createdAt), "revoked": key.revokedAt.map(Self.date) ?? ""]
                }
                if let apns = try await services.apns.credentials(containerID: id) {
                    values["apns"] = ["keyID": apns.keyID, "teamID": apns.teamID, "topic": apns.topic]
                }
                return Self.page("console-container", values, visit: visit)
            }
        }
        console.post("containers/:container/settings/:action") { request, context in
            try await change(request, context) { _, form in
                let id = try context.parameters.require("container")
                let back = "/console/containers/\(Self.pathComponent(id))"
                do {
                    switch try context.parameters.require("action") {
                    case "rotate-token":
                        _ = try await services.admin.rotateAPIToken(containerID: id)
                        return Self.redirect(back, message: "The API token was replaced; apps with the old one are refused.")
                    case "add-key":
                        let key = try await services.serverKeys.add(containerID: id, publicKeyPEM: form["publicKey"] ?? "")
                        return Self.redirect(back, message: "Server-to-server key \(key.keyID) added.")
                    case "revoke-key":
                        let revoked = try await services.serverKeys.revoke(keyID: form["keyID"] ?? "", containerID: id)
                        return Self.redirect(back, message: revoked ? "The key is revoked." : "There is no such live key.")
                    case "set-apns":
                        let credentials = APNsCredentials(keyID: form["keyID"] ?? "", teamID: form["teamID"] ?? "", topic: form["topic"] ?? "",
                                                          privateKeyPEM: form["privateKey"] ?? "")
                        try await services.apns.setCredentials(credentials, containerID: id)
                        return Self.redirect(back, message: "APNs credentials set.")
                    case "remove-apns":
                        try await services.apns.setCredentials(nil, containerID: id)
                        return Self.redirect(back, message: "APNs credentials removed.")
                    default:
                        throw HTTPError(.notFound)
                    }
                } catch let error as CloudKitError {
                    return Self.redirect(back, message: error.reason)
                }
            }
        }
    }

    // MARK: Users

    private func registerUsers(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/users") { request, context in
            try await show(request) { visit in
                let id = try context.parameters.require("container")
                let search = request.uri.queryParameters["search"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
                let users = try await services.admin.listUsers(containerID: id, matching: search).map { user -> [String: Any] in
                    ["username": user.username, "path": Self.pathComponent(user.username), "recordName": user.userRecordName, "email": user.email ?? "",
                     "created": Self.date(user.createdAt), "disabled": user.disabledAt != nil]
                }
                return Self.page("console-users", ["pageTitle": "Users of \(id)", "container": id, "containerPath": Self.pathComponent(id),
                                                   "search": search ?? "", "users": users, "message": Self.message(request)], visit: visit)
            }
        }
        console.get("containers/:container/users/:username") { request, context in
            try await show(request) { visit in
                let id = try context.parameters.require("container")
                let username = try context.parameters.require("username")
                let environment = ContainerEnvironment(rawValue: request.uri.queryParameters["environment"].map(String.init) ?? "") ?? .development
                let overview: UserOverview
                do {
                    overview = try await services.admin.overview(username: username, containerID: id, environment: environment)
                } catch let error as CloudKitError {
                    return Self.page("console-message", ["pageTitle": "No such user", "text": error.reason], visit: visit, status: .notFound)
                }
                func name(_ recordName: String) -> String { overview.usernames[recordName] ?? recordName }
                let data = "/console/containers/\(Self.pathComponent(id))/data?environment=\(environment.rawValue)&database=private&user=\(Self.queryComponent(username))"
                let zones = overview.zones.map { zone -> [String: Any] in
                    ["name": zone.name, "link": data + "&zone=" + Self.queryComponent(zone.name),
                     "shares": zone.shares.map { share -> [String: Any] in
                         ["record": share.rootRecordName ?? "the whole zone", "publicPermission": share.publicPermission.rawValue,
                          "participants": share.participants.map { ["name": name($0.userRecordName), "permission": $0.permission.rawValue,
                                                                    "status": $0.status.rawValue] }]
                     }]
                }
                let values: [String: Any] = [
                    "pageTitle": username, "container": id, "containerPath": Self.pathComponent(id), "username": username,
                    "userPath": Self.pathComponent(username), "recordName": overview.user.userRecordName,
                    "email": overview.user.email ?? "", "environment": environment.rawValue,
                    "production": environment == .production, "disabled": overview.user.disabledAt != nil, "zones": zones,
                    "sharedWithThem": overview.sharedWithThem.map { ["owner": name($0.owner), "zone": $0.zone] },
                    "subscriptions": overview.subscriptions.map { ["id": $0.subscription.subscriptionID, "type": $0.subscription.subscriptionType.rawValue,
                                                                   "zone": $0.subscription.zoneID?.zoneName ?? ""] },
                    "devices": overview.apnsTokens.map { ["token": String($0.token.prefix(12)) + "…", "apnsEnvironment": $0.apnsEnvironment.rawValue,
                                                          "registered": Self.date($0.registeredAt)] },
                    "pushConnections": overview.pushConnections,
                ]
                return Self.page("console-user", values, visit: visit)
            }
        }
        console.post("containers/:container/users/:username/:action") { request, context in
            try await change(request, context) { _, form in
                let id = try context.parameters.require("container")
                let username = try context.parameters.require("username")
                let back = "/console/containers/\(Self.pathComponent(id))/users"
                do {
                    switch try context.parameters.require("action") {
                    case "disable":
                        _ = try await services.admin.setDisabled(true, username: username, containerID: id)
                        return Self.redirect(back, message: "\(username) is disabled: signed out everywhere, and sign-in is refused.")
                    case "enable":
                        _ = try await services.admin.setDisabled(false, username: username, containerID: id)
                        return Self.redirect(back, message: "\(username) is enabled.")
                    case "reset-password":
                        try await services.admin.resetPassword(username: username, containerID: id, to: form["password"] ?? "")
                        return Self.redirect(back, message: "\(username) has a new password; their sessions ended.")
                    case "delete":
                        guard form["confirm"] == username else {
                            return Self.redirect(back, message: "Type the username to confirm deleting \(username).")
                        }
                        try await services.admin.deleteUser(username: username, containerID: id)
                        return Self.redirect(back, message: "\(username) and their private data are deleted.")
                    default:
                        throw HTTPError(.notFound)
                    }
                } catch let error as CloudKitError {
                    return Self.redirect(back, message: error.reason)
                }
            }
        }
    }

    // MARK: Sessions, forms and pages

    /// The signed-in administrator of the request, if its cookie names a live session.
    func visit(_ request: Request) async -> ConsoleVisit? {
        guard let token = ConsoleVisit.token(of: request),
              let administrator = try? await services.admin.consoleAdministrator(token: token) else { return nil }
        return ConsoleVisit(administrator: administrator, token: token)
    }

    /// A page for a signed-in administrator; others are sent to sign in.
    func show(_ request: Request, _ body: (ConsoleVisit) async throws -> Response) async throws -> Response {
        guard let visit = await visit(request) else { return Self.redirect("/console/signin") }
        return try await body(visit)
    }

    /// A change: a signed-in administrator's form carrying the session's CSRF token; anything else
    /// is refused before `body` runs.
    func change(_ request: Request, _ context: StratusRequestContext,
                _ body: (ConsoleVisit, ConsoleForm) async throws -> Response) async throws -> Response {
        guard let visit = await visit(request) else { return Self.redirect("/console/signin") }
        let form = try await ConsoleForm.read(request, context: context)
        guard let csrf = form["csrf"], csrf == visit.csrf else {
            return Self.page("console-message", ["pageTitle": "Refused", "text": "The form was not sent from this console (its CSRF token is missing or wrong)."],
                             visit: visit, status: .forbidden)
        }
        return try await body(visit, form)
    }

    static func page(_ name: String, _ values: [String: Any], visit: ConsoleVisit?, status: HTTPResponse.Status = .ok) -> Response {
        // Mustache shows a section for an empty string: notes that say nothing go.
        var values = values.filter { key, value in !(["message", "error"].contains(key) && (value as? String)?.isEmpty == true) }
        if let visit {
            values["administrator"] = visit.administrator
            values["csrf"] = visit.csrf
        }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: PageTemplates.render(name, values))))
    }

    static func redirect(_ location: String, message: String? = nil) -> Response {
        var target = location
        if let message { target += (location.contains("?") ? "&" : "?") + "message=" + queryComponent(message) }
        return Response(status: .seeOther, headers: [.location: target])
    }

    static func message(_ request: Request) -> String {
        request.uri.queryParameters["message"].map(String.init) ?? ""
    }

    static func date(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    static func pathComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }

    static func queryComponent(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))) ?? text
    }
}
