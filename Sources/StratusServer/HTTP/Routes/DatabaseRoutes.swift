import Hummingbird
import StratusCore

/// CloudKit Web Services' database endpoints, at CloudKit's paths:
/// `/database/1/{container}/{environment}/{database}/…`. Each handler decodes, calls a service
/// and encodes.
struct DatabaseRoutes {
    let services: StratusServices
    let maxRequestBytes: Int
    let origin: ServerOrigin
    /// Permits for the requests that may hold much memory (see ``WorkPermits``).
    let permits: WorkPermits

    /// Endpoints whose answers can fill a response budget.
    static let largeAnswers: Set<String> = ["records/lookup", "records/query", "records/changes", "changes/zone"]
    /// Bodies larger than this take a permit whatever the endpoint.
    static let largeBody = 256 * 1024
    /// Answers up to this size give their permit back before they are written.
    static let smallAnswer = 64 * 1024

    func register(on router: Router<StratusRequestContext>) {
        let database = router.group("database/1/:container/:environment/:database")
            .add(middleware: DatabaseAuthenticator(auth: services.auth, serverKeys: services.serverKeys, maxRequestBytes: maxRequestBytes,
                                                   origin: origin))

        post(database, "records/modify") { (request: RecordsModifyBody, access) in
            let (response, stored) = try await services.records.modify(request, access) { results in
                (try JSONBody.response(writing: results), results.storedCount)
            }
            ServerMetrics.recordsWritten(stored)
            return response
        }
        post(database, "records/query") { (request: RecordsQueryRequest, access) in
            let results = try await services.query.query(request, access)
            ServerMetrics.recordsServed(results.rows.count, via: .query)
            return try JSONBody.response(writing: results)
        }
        post(database, "records/lookup") { (request: RecordsLookupRequest, access) in
            let results = try await services.records.lookup(request, access)
            ServerMetrics.recordsServed(results.storedCount, via: .lookup)
            return try JSONBody.response(writing: results)
        }
        post(database, "records/history") { try JSONBody.response(writing: try await services.history.history($0, $1)) }
        post(database, "records/history/purge") { try JSONBody.response(try await services.history.purge($0, $1)) }
        post(database, "records/deleted") { try JSONBody.response(try await services.history.deleted($0, $1)) }
        post(database, "records/restore") { try JSONBody.response(try await services.history.restore($0, $1)) }
        post(database, "records/changes") { (request: RecordsChangesRequest, access) in
            let changes = try await services.changes.recordChanges(request, access)
            ServerMetrics.recordsServed(changes.page.records.count, via: .changes)
            return try JSONBody.response(writing: changes)
        }
        post(database, "changes/zone") { (request: ZoneChangesRequest, access) in
            let changes = try await services.changes.zoneChanges(request, access)
            ServerMetrics.recordsServed(changes.zones.reduce(0) { $0 + ((try? $1.get())?.records.count ?? 0) }, via: .changes)
            return try JSONBody.response(writing: changes)
        }
        post(database, "changes/database") { try JSONBody.response(try await services.changes.databaseChanges($0, $1)) }
        post(database, "zones/changes") { (request: ZonesChangesRequest, access) in
            let changes = DatabaseChangesRequest(syncToken: request.metaSyncToken, resultsLimit: request.resultsLimit)
            return try JSONBody.response(ZonesChangesResponse(try await services.changes.databaseChanges(changes, access)))
        }
        post(database, "assets/upload") { try JSONBody.response(try await services.assets.uploadURLs($0, $1)) }
        post(database, "assets/rereference") { try JSONBody.response(try await services.assets.rereference($0, $1)) }
        post(database, "subscriptions/lookup") { try JSONBody.response(try await services.subscriptions.lookup($0, $1)) }
        post(database, "subscriptions/modify") { try JSONBody.response(try await services.subscriptions.modify($0, $1)) }
        database.get("subscriptions/list") { _, context in
            try JSONBody.response(try await services.subscriptions.list(try context.requireAccess()))
        }
        post(database, "records/resolve") { try JSONBody.response(try await services.sharing.resolve($0, $1)) }
        post(database, "records/accept") { try JSONBody.response(try await services.sharing.accept($0, $1)) }
        post(database, "zones/lookup") { try JSONBody.response(try await services.zones.lookup($0, $1)) }
        post(database, "zones/modify") { try JSONBody.response(try await services.zones.modify($0, $1)) }
        post(database, "zones/deleted") { try JSONBody.response(try await services.history.deletedZones($0, $1)) }
        post(database, "zones/restore") { try JSONBody.response(try await services.history.restoreZone($0, $1)) }
        database.get("zones/list") { _, context in
            try JSONBody.response(try await services.zones.list(try context.requireAccess()))
        }
        post(database, "users/discover") { try JSONBody.response(try await services.users.discover($0, $1)) }
        database.get("users/caller") { _, context in
            try JSONBody.response(try await services.users.caller(try context.requireAccess()))
        }
        database.get("users/current") { _, context in
            try JSONBody.response(CurrentUserResponse(userRecordName: try context.requireAccess().requireUser()))
        }
    }

    /// A POST route: decodes the body as `Body`, then answers with `respond`.
    private func post<Body: Decodable & Sendable>(
        _ group: RouterGroup<StratusRequestContext>, _ path: String,
        _ respond: @escaping @Sendable (Body, DatabaseAccess) async throws -> Response
    ) {
        let limit = maxRequestBytes
        let permits = self.permits
        let largeAnswer = Self.largeAnswers.contains(path)
        group.post(RouterPath(path)) { request, context in
            let access = try context.requireAccess()
            let declared = request.headers[.contentLength].flatMap { Int($0) } ?? Int.max
            // The body is in (``WholeRequestBody``) before a permit is taken: a client that
            // sends slowly never holds one.
            let decoded = try await JSONBody.decode(Body.self, from: request, limit: limit)
            guard largeAnswer || declared > Self.largeBody else { return try await respond(decoded, access) }
            let lease = try await permits.lease()
            var response = try await respond(decoded, access)
            // A small answer gives its permit back now and leaves in one write with its head; a
            // large one holds the permit until it is written to the socket.
            let body = response.body
            if let length = body.contentLength, length <= Self.smallAnswer {
                lease.release()
                return response
            }
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { lease.release() }
                try await body.write(writer)
            }
            return response
        }
    }
}
