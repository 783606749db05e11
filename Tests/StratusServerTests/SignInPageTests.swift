import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import StratusCore
@testable import StratusServer

/// The sign-in page behind `AUTHENTICATION_REQUIRED`'s `redirectURL`, over real HTTP: it hands the
/// session to a popup's opener or back to a callback URL, only for the container's web origins.
@Suite struct SignInPageTests {
    static let app = "https://app.example"

    /// A browser's request: the page's cookie sent back, a form posted, no redirect followed.
    static func browse(_ method: HTTPMethod, _ url: String, form: String? = nil, cookie: String? = nil,
                       headers: [(String, String)] = []) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: "\(SignInPageRoutes.cookieName)=\(cookie)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await ConsoleTests.client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 22)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: body), headers: response.headers)
    }

    /// The page's CSRF token, from its form and its cookie (which must agree).
    static func csrf(of page: HTTPResult) throws -> String {
        let field = try #require(page.text.components(separatedBy: "name=\"csrf\" value=\"").dropFirst().first?.components(separatedBy: "\"").first)
        let cookie = try #require(page.headers["Set-Cookie"].first { $0.hasPrefix(SignInPageRoutes.cookieName + "=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        #expect(cookie.hasPrefix("\(SignInPageRoutes.cookieName)=\(field);"), "\(cookie)")
        return field
    }

    static func form(_ fields: [String: String]) -> String {
        fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
    }

    @Test func aPopupOfAListedOriginGetsTheSessionAndNoOtherDoes() async throws {
        try await TestServer.with { server in
            _ = try await server.server.services.admin.addWebOrigin("https://APP.example:443/", containerID: TestServer.containerID)
            #expect(try await server.server.services.admin.webOrigins(containerID: TestServer.containerID) == [Self.app])
            let alice = try await server.signUp("alice")
            let username = try #require(alice.username)

            // The library's call without a session names the page, with the page's origin.
            let database = "\(server.endpoint.baseURL)/database/1/\(TestServer.containerID)/development"
            let refused = try await Self.browse(.GET, "\(database)/private/zones/list?ckAPIToken=\(server.apiToken)", headers: [("Origin", Self.app)])
            #expect(refused.status == 421)
            let redirect = try #require(refused.error?.redirectURL)
            #expect(redirect == "\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?ckAPIToken=\(server.apiToken)&origin=https%3A%2F%2Fapp.example")

            let page = try await Self.browse(.GET, redirect)
            #expect(page.status == 200 && page.text.contains("<strong>\(Self.app)</strong>"), "\(page.text)")
            let policy = page.headers["Content-Security-Policy"].first ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && policy.contains("form-action 'self';"), "\(policy)")
            #expect(page.headers["Cache-Control"].first == "no-store")
            let csrf = try Self.csrf(of: page)

            let forged = try await Self.browse(.POST, redirect, form: Self.form(["csrf": "forged", "username": username, "password": "password-alice"]), cookie: csrf)
            #expect(forged.status == 403 && !forged.text.contains("data-token"))
            let noCookie = try await Self.browse(.POST, redirect, form: Self.form(["csrf": csrf, "username": username, "password": "password-alice"]))
            #expect(noCookie.status == 403)
            let wrong = try await Self.browse(.POST, redirect, form: Self.form(["csrf": csrf, "username": username, "password": "not her password"]), cookie: csrf)
            #expect(wrong.status == 401 && wrong.text.contains("id=\"error\"") && !wrong.text.contains("data-token"), "\(wrong.text)")
            let hostile = try await Self.browse(.POST, redirect, form: Self.form(["csrf": csrf, "username": "\"><script>alert(1)</script>", "password": "x"]), cookie: csrf)
            #expect(!hostile.text.contains("<script>alert(1)") && hostile.text.contains("&lt;script&gt;"), "values are escaped")

            let signedIn = try await Self.browse(.POST, redirect, form: Self.form(["csrf": csrf, "username": username, "password": "password-alice", "action": "signin"]), cookie: csrf)
            #expect(signedIn.status == 200 && signedIn.text.contains("data-origin=\"\(Self.app)\""), "\(signedIn.text)")
            #expect(signedIn.text.contains("<script src=\"\(SignInPageRoutes.scriptPath)\"></script>"))
            let token = try #require(signedIn.text.components(separatedBy: "data-token=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let current = try await Self.browse(.GET, "\(database)/public/users/current?ckAPIToken=\(server.apiToken)&ckSession=\(Caller.percentEncode(token))")
            let userRecordName = try #require(alice.userRecordName)
            #expect(current.status == 200 && current.text.contains(userRecordName), "the handed session is alice's")

            let script = try await Self.browse(.GET, server.endpoint.baseURL + SignInPageRoutes.scriptPath)
            #expect(script.status == 200 && script.text.contains("postMessage({ ckSession: token, ckWebAuthToken: token }, handoff.dataset.origin)"))

            // A page opened for an origin the container does not list sends nothing.
            for other in ["https://evil.example", "*", "null"] {
                let url = "\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?ckAPIToken=\(server.apiToken)&origin=\(Caller.percentEncode(other))"
                let refusedPage = try await Self.browse(.GET, url)
                #expect(refusedPage.status == 400 && !refusedPage.text.contains("<form") && refusedPage.headers["Set-Cookie"].isEmpty, "\(other): \(refusedPage.text)")
                let post = try await Self.browse(.POST, url, form: Self.form(["csrf": csrf, "username": username, "password": "password-alice"]), cookie: csrf)
                #expect(post.status == 400 && !post.text.contains("data-token"), "\(other)")
            }
            let noToken = try await Self.browse(.GET, "\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?origin=\(Caller.percentEncode(Self.app))")
            #expect(noToken.status == 401 && !noToken.text.contains("<form"))
        }
    }

    @Test func aFullPageSignInGoesBackToTheCallbackAndSignUpWorksToo() async throws {
        try await TestServer.with { server in
            _ = try await server.server.services.admin.addWebOrigin(Self.app, containerID: TestServer.containerID)
            let callback = "\(Self.app)/signed-in?from=stratus"
            let url = "\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?ckAPIToken=\(server.apiToken)&callback=\(Caller.percentEncode(callback))"
            let page = try await Self.browse(.GET, url)
            #expect(page.status == 200)
            #expect(page.headers["Content-Security-Policy"].first?.contains("form-action 'self' \(Self.app)") == true, "the form's answer may go on to the app")
            let csrf = try Self.csrf(of: page)
            let username = "carol-\(UUID().uuidString.prefix(8))"
            let signedUp = try await Self.browse(.POST, url, form: Self.form(["csrf": csrf, "username": username, "password": "password-carol", "action": "signup"]), cookie: csrf)
            #expect(signedUp.status == 303, "\(signedUp.text)")
            let location = try #require(signedUp.headers["Location"].first)
            #expect(location.hasPrefix("\(callback)&ckWebAuthToken="), "\(location)")
            let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "ckWebAuthToken" }?.value)
            let caller = Caller(server: server.endpoint, webAuthToken: token, userRecordName: nil)
            #expect(try await caller.get(caller.path(.private, "zones/list")).status == 200, "the new account's session works")

            let elsewhere = "\(server.endpoint.baseURL)/auth/1/\(TestServer.containerID)/development/web/signin?ckAPIToken=\(server.apiToken)&callback=\(Caller.percentEncode("https://evil.example/x"))"
            #expect(try await Self.browse(.GET, elsewhere).status == 400)
        }
    }

    @Test func webOriginsAreOriginsAndTheConsoleManagesThem() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { server in
            let admin = server.server.services.admin
            for bad in ["*", "app.example", "ftp://app.example", "https://app.example/path", "https://user@app.example", "https://"] {
                await #expect(throws: CloudKitError.self, "\(bad)") { try await admin.addWebOrigin(bad, containerID: TestServer.containerID) }
            }
            #expect(try await admin.addWebOrigin("http://localhost:3000", containerID: TestServer.containerID) == ["http://localhost:3000"])
            await #expect(throws: CloudKitError.self) { try await admin.removeWebOrigin("https://never.example", containerID: TestServer.containerID) }

            let (token, csrf) = try await ConsoleTests.administrator(server, directory: directory)
            let settings = "/console/containers/\(TestServer.containerID)/settings"
            _ = try await ConsoleTests.request(server, .POST, "\(settings)/add-web-origin", form: "csrf=\(csrf)&origin=https%3A%2F%2Fweb.example", cookie: token)
            let page = try await ConsoleTests.request(server, .GET, "/console/containers/\(TestServer.containerID)", cookie: token)
            #expect(page.text.contains("<code>https://web.example</code>") && page.text.contains("<code>http://localhost:3000</code>"), "\(page.text)")
            _ = try await ConsoleTests.request(server, .POST, "\(settings)/remove-web-origin", form: "csrf=\(csrf)&origin=http%3A%2F%2Flocalhost%3A3000", cookie: token)
            #expect(try await admin.webOrigins(containerID: TestServer.containerID) == ["https://web.example"])
        }
    }
}
