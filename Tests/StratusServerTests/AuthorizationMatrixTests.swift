import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import StratusCore
@testable import StratusServer

/// Who may read what, route by route: every route the router registers is classified here (a
/// route added later and not classified fails the test), and every route that answers with record
/// fields, file URLs, files or notifications is called by every kind of caller, for every grant,
/// with records holding a secret text and a secret file. No caller without READ receives either;
/// each probe also shows it sees them where READ is held, so a probe that reaches nothing fails.
///
/// The push WebSocket is not a router route (an upgrade): it is probed with the notifications.
@Suite struct AuthorizationMatrixTests {
    /// What a route can answer with.
    enum Exposure {
        /// Record fields, file URLs, files or notifications: probed by ``Probe``.
        case recordData
        /// Nothing of any record: why.
        case none(String)
    }

    static let classification: [String: Exposure] = {
        let database = "/database/1/{container}/{environment}/{database}/"
        var routes: [String: Exposure] = [:]
        for (method, path) in [("POST", "records/modify"), ("POST", "records/query"), ("POST", "records/lookup"), ("POST", "records/changes"),
                               ("POST", "changes/zone"), ("POST", "records/resolve"), ("POST", "records/accept"), ("POST", "assets/rereference"),
                               ("POST", "records/history"), ("POST", "records/deleted"), ("POST", "records/restore")] {
            routes["\(method) \(database)\(path)"] = .recordData
        }
        for path in ["/assets/1/download/{token}", "/push/1/courier/{token}", "/share/{shortGUID}", "/console/containers/{container}/data",
                     "/console/containers/{container}/record", "/console/containers/{container}/query",
                     "/console/containers/{container}/history", "/console/containers/{container}/recovery"] {
            routes["GET \(path)"] = .recordData
        }
        routes["POST /console/containers/{container}/record"] = .recordData
        routes["POST /console/containers/{container}/history"] = .recordData
        let accounts = "accounts: a session or the caller's own account, no record"
        for path in ["signup", "email/send", "email/verify", "signin", "signout", "signout/all", "password", "password/forgot", "password/reset",
                     "account/delete", "apple", "apple/link", "apple/unlink", "account/reauthenticate", "account/reauthenticate/code", "email", "account/sessions/{session}/signout",
                     "passkey/register/options", "passkey/register", "passkey/signin/options", "passkey/signin", "passkey/signup/options",
                     "passkey/signup", "account/passkeys/{passkey}/delete", "oidc/{provider}", "oidc/{provider}/link",
                     "account/providers/{provider}/delete", "email/code", "email/signin"] {
            routes["POST /auth/1/{container}/{environment}/\(path)"] = .none(accounts)
        }
        routes["GET /auth/1/{container}/{environment}/account"] = .none(accounts)
        routes["POST /auth/1/{container}/{environment}/apple/notifications"] = .none("Apple's notifications: a JWS Apple signed changes the account of its Apple ID, no record")
        for method in ["GET", "POST"] {
            routes["\(method) /auth/1/{container}/{environment}/web/signin"] = .none(accounts)
            routes["\(method) /auth/1/{container}/{environment}/web/password"] = .none(accounts)
            routes["\(method) /auth/1/{container}/{environment}/web/account"] = .none(accounts)
        }
        for path in ["oidc/{provider}/start", "oidc/{provider}/callback", "web/account/oidc/{provider}"] {
            routes["GET /auth/1/{container}/{environment}/\(path)"] = .none(accounts)
        }
        routes["GET /auth/1/signin.js"] = .none("the sign-in page's script")
        routes["GET /auth/1/passkey.js"] = .none("the sign-in and account pages' passkey script")
        let zones = "zones and change tokens: names of zones the caller's own database or shares hold, no record"
        for path in ["changes/database", "zones/changes", "zones/lookup", "zones/modify"] { routes["POST \(database)\(path)"] = .none(zones) }
        routes["GET \(database)zones/list"] = .none(zones)
        routes["POST \(database)assets/upload"] = .none("upload URLs for the caller's own files")
        routes["POST \(database)records/history/purge"] = .none("removes the caller's own record's history; answers a count")
        routes["POST \(database)zones/deleted"] = .none(zones)
        routes["POST \(database)zones/restore"] = .none("restores a zone of the caller's own private database; answers its record names")
        let subscriptions = "the caller's own subscriptions (their notifications are probed through the courier, WebSocket and APNs)"
        for path in ["subscriptions/lookup", "subscriptions/modify"] { routes["POST \(database)\(path)"] = .none(subscriptions) }
        routes["GET \(database)subscriptions/list"] = .none(subscriptions)
        routes["POST \(database)users/discover"] = .none("user identities of discoverable users, no record")
        routes["GET \(database)users/caller"] = .none("the caller's own identity")
        routes["GET \(database)users/current"] = .none("the caller's own identity")
        for prefix in ["/database/1", "/device/1"] {
            routes["POST \(prefix)/{container}/{environment}/tokens/create"] = .none("a courier URL for the caller's own notifications")
            routes["POST \(prefix)/{container}/{environment}/tokens/register"] = .none("registers the caller's own APNs token")
        }
        routes["POST /assets/1/upload/{token}"] = .none("receives the caller's own file; answers with its receipt")
        routes["GET /.well-known/apple-app-site-association"] = .none("the app IDs of the server's configuration")
        routes["GET /healthz"] = .none("health")
        routes["GET /readyz"] = .none("readiness")
        let console = "console pages of administrators without record data (containers, settings, users, schema, activity counts)"
        for path in ["/console", "/console/signin", "/console/containers", "/console/containers/{container}", "/console/containers/{container}/users",
                     "/console/containers/{container}/users/{username}", "/console/containers/{container}/schema",
                     "/console/containers/{container}/schema/export", "/console/activity", "/console/activity/stream", "/console/activity.js",
                     "/console/containers/{container}/webhooks", "/console/containers/{container}/webhook-deliveries/{endpoint}"] {
            routes["GET \(path)"] = .none(console)
        }
        for path in ["/console/signin", "/console/signout", "/console/containers", "/console/containers/{container}/settings/{action}",
                     "/console/containers/{container}/users/{username}/{action}", "/console/containers/{container}/schema/{action}",
                     "/console/containers/{container}/webhooks/{action}"] {
            routes["POST \(path)"] = .none(console)
        }
        return routes
    }()

    @Test func everyRouteIsClassified() async throws {
        try await TestServer.with { server in
            let registered = Set(server.server.makeRouter().routes.map(\.description))
            let unclassified = registered.subtracting(Self.classification.keys).sorted()
            #expect(unclassified.isEmpty, "classify these routes in AuthorizationMatrixTests.classification: \(unclassified)")
            let gone = Set(Self.classification.keys).subtracting(registered).sorted()
            #expect(gone.isEmpty, "these classified routes are no longer registered: \(gone)")
            let dataRoutes = Set(Self.classification.compactMap { route, exposure in if case .recordData = exposure { route } else { nil } })
            #expect(dataRoutes == Set(Probe.allCases.map(\.route)), "every route with record data has a probe, and only those")
        }
    }

    /// The probes, one per route that answers with record data.
    enum Probe: CaseIterable {
        case modify, query, lookup, recordChanges, zoneChanges, resolve, accept, rereference, history, deleted, restore, download, courier, sharePage
        case consoleData, consoleRecord, consoleQuery, consoleSave, consoleHistory, consoleRecovery, consoleRestore

        var route: String {
            let database = "/database/1/{container}/{environment}/{database}/"
            switch self {
            case .modify: return "POST \(database)records/modify"
            case .query: return "POST \(database)records/query"
            case .lookup: return "POST \(database)records/lookup"
            case .recordChanges: return "POST \(database)records/changes"
            case .zoneChanges: return "POST \(database)changes/zone"
            case .resolve: return "POST \(database)records/resolve"
            case .accept: return "POST \(database)records/accept"
            case .rereference: return "POST \(database)assets/rereference"
            case .history: return "POST \(database)records/history"
            case .deleted: return "POST \(database)records/deleted"
            case .restore: return "POST \(database)records/restore"
            case .download: return "GET /assets/1/download/{token}"
            case .courier: return "GET /push/1/courier/{token}"
            case .sharePage: return "GET /share/{shortGUID}"
            case .consoleData: return "GET /console/containers/{container}/data"
            case .consoleRecord: return "GET /console/containers/{container}/record"
            case .consoleQuery: return "GET /console/containers/{container}/query"
            case .consoleSave: return "POST /console/containers/{container}/record"
            case .consoleHistory: return "GET /console/containers/{container}/history"
            case .consoleRecovery: return "GET /console/containers/{container}/recovery"
            case .consoleRestore: return "POST /console/containers/{container}/history"
            }
        }
    }

    // MARK: - Callers

    /// One caller as the matrix sees it: how it sends a request, and what it has seen.
    struct Principal: Sendable {
        var name: String
        var caller: Caller
        /// Signs requests with a server-to-server key instead of the API token.
        var backend: ServerKeyTests.Backend?

        func send(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> HTTPResult {
            let body = json.map { Data($0.utf8) }
            if let backend { return try await backend.send(caller, method, path, body: body) }
            return try await caller.send(method, path, body: body)
        }

        func post(_ database: DatabaseScope, _ endpoint: String, _ json: String) async throws -> HTTPResult {
            try await send(.POST, caller.path(database, endpoint), json: json)
        }
    }

    /// A record of a scenario: what its text field has held (the last is current) and its file.
    struct Secrets: Sendable {
        var texts: [String]
        var file: [UInt8]
        var checksum: String { TestFile.checksum(file) }
        var current: String { texts.last ?? "" }
    }

    /// Checks the answer of a probe about one record. Without READ: none of the texts the record
    /// has held, and no download URL or receipt of its file. With READ and `shows`: the current
    /// text (the probe reaches the record).
    static func check(_ result: HTTPResult, _ secrets: Secrets, canRead: Bool, shows: Bool, _ what: String) {
        if canRead {
            if shows { #expect(result.text.contains(secrets.current), "\(what): a reader should see the record: \(result.status) \(result.text.prefix(300))") }
        } else {
            for text in secrets.texts {
                #expect(!result.text.contains(text), "\(what): LEAK of the record's text: \(result.text.prefix(400))")
            }
            #expect(!assets(in: result).contains { $0.checksum == secrets.checksum },
                    "\(what): LEAK of the record's file: \(result.text.prefix(400))")
        }
    }

    /// The asset dictionaries of a response that give a file away: with a `downloadURL` (or in a
    /// notification, any) or a `receipt`.
    static func assets(in result: HTTPResult) -> [(checksum: String, downloadURL: String?)] {
        var found: [(checksum: String, downloadURL: String?)] = []
        for line in result.text.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { continue }
            func visit(_ value: Any) {
                if let dictionary = value as? [String: Any] {
                    if let checksum = dictionary["fileChecksum"] as? String, dictionary["downloadURL"] != nil || dictionary["receipt"] != nil {
                        found.append((checksum, dictionary["downloadURL"] as? String))
                    }
                    dictionary.values.forEach(visit)
                } else if let array = value as? [Any] {
                    array.forEach(visit)
                }
            }
            visit(object)
        }
        return found
    }

    /// The console's data pages, which only a console administrator's session opens: a caller of
    /// the database API gets nothing of the record from them, whatever it may read.
    static func checkConsole(_ principal: Principal, _ record: Secrets, database: String, recordName: String, recordType: String) async throws {
        let pages = "/console/containers/\(TestServer.containerID)/"
        for path in ["data?\(database)", "record?\(database)&recordName=\(recordName)", "query?\(database)&recordType=\(recordType)",
                     "history?\(database)&name=\(recordName)", "recovery?\(database)"] {
            check(try await principal.send(.GET, pages + path), record, canRead: false, shows: false, "\(principal.name) console \(path)")
        }
        check(try await principal.send(.POST, pages + "record", json: "\(database)&recordName=\(recordName)"), record, canRead: false, shows: false,
              "\(principal.name) console save")
        check(try await principal.send(.POST, pages + "history", json: "\(database)&op=restore&name=\(recordName)&tag=1"), record, canRead: false,
              shows: false, "\(principal.name) console restore")
    }

    /// Every download URL a caller was given serves only files it may read; a caller that may read
    /// a file was given one.
    static func checkDownloads(_ urls: Set<String>, by caller: Caller, _ name: String, readable: [[UInt8]]) async throws {
        for url in urls {
            let file = try await caller.download(url)
            #expect(file.status != 200 || readable.contains([UInt8](file.body)), "\(name) downloaded a file it may not read")
        }
        #expect(urls.isEmpty == readable.isEmpty, "\(name) was given \(urls.count) download URLs and may read \(readable.count) files")
    }

    /// Every `downloadURL` in a response.
    static func downloadURLs(in result: HTTPResult) -> [String] {
        assets(in: result).compactMap(\.downloadURL)
    }
}

extension AuthorizationMatrixTests {
    /// Polls a courier until a notification containing `marker` arrives; returns every
    /// notification it answered with.
    static func drain(_ url: String, until marker: String) async throws -> [String] {
        var messages: [String] = []
        for _ in 0..<60 {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
            if response.status.code == 200 {
                messages.append(body)
                if body.contains(marker) { return messages }
            }
        }
        throw TestFailure("the courier never answered with \(marker); it answered \(messages)")
    }

    /// The pushes the APNs endpoint received (after the first `skipped`), by device token, once each
    /// token got one containing `marker`.
    static func apnsPushes(_ endpoint: APNsTestEndpoint, tokens: [String], until marker: String,
                           after skipped: Int = 0) async throws -> [String: [String]] {
        for _ in 0..<1000 {
            var byToken: [String: [String]] = [:]
            for push in await endpoint.received.dropFirst(skipped) { byToken[push.deviceToken, default: []].append(String(decoding: push.body, as: UTF8.self)) }
            if tokens.allSatisfy({ byToken[$0]?.contains { $0.contains(marker) } == true }) { return byToken }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("APNs never received \(marker) for every token; refused: \(await endpoint.refusals)")
    }
}

/// What `stratus` answers to one caller, collected over all probes: the download URLs it was given.
actor SeenURLs {
    private(set) var urls: [String: Set<String>] = [:]
    func add(_ found: [String], for name: String) { urls[name, default: []].formUnion(found) }
}
