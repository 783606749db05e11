import Hummingbird
import StratusCore

/// CloudKit Web Services' database endpoints, at CloudKit's paths:
/// `/database/1/{container}/{environment}/{database}/…`. Each handler decodes, calls a service
/// and encodes.
struct DatabaseRoutes {
    let services: StratusServices
    let maxRequestBytes: Int

    func register(on router: Router<StratusRequestContext>) {
        let database = router.group("database/1/:container/:environment/:database")
            .add(middleware: DatabaseAuthenticator(auth: services.auth))

        postWriting(database, "records/modify", RecordsModifyRequest.self) { try await services.records.modify($0, $1) }
        postWriting(database, "records/lookup", RecordsLookupRequest.self) { try await services.records.lookup($0, $1) }
        postWriting(database, "records/changes", RecordsChangesRequest.self) { try await services.changes.recordChanges($0, $1) }
        postWriting(database, "changes/zone", ZoneChangesRequest.self) { try await services.changes.zoneChanges($0, $1) }
        post(database, "changes/database", DatabaseChangesRequest.self) { try await services.changes.databaseChanges($0, $1) }
        post(database, "zones/lookup", ZonesLookupRequest.self) { try await services.zones.lookup($0, $1) }
        post(database, "zones/modify", ZonesModifyRequest.self) { try await services.zones.modify($0, $1) }
        database.get("zones/list") { _, context in
            try JSONBody.response(try await services.zones.list(try context.requireAccess()))
        }
        database.get("users/current") { _, context in
            try JSONBody.response(CurrentUserResponse(userRecordName: try context.requireAccess().requireUser()))
        }
    }

    /// A POST route whose answer writes itself (records and change pages).
    private func postWriting<Body: Decodable & Sendable, Result: WireWritable>(
        _ group: RouterGroup<StratusRequestContext>, _ path: RouterPath, _ body: Body.Type,
        _ handle: @escaping @Sendable (Body, DatabaseAccess) async throws -> Result
    ) {
        let limit = maxRequestBytes
        group.post(path) { request, context in
            let access = try context.requireAccess()
            let decoded = try await JSONBody.decode(Body.self, from: request, limit: limit)
            return try JSONBody.response(writing: try await handle(decoded, access))
        }
    }

    /// A POST route whose answer is encoded with `JSONEncoder`.
    private func post<Body: Decodable & Sendable, Result: Encodable>(
        _ group: RouterGroup<StratusRequestContext>, _ path: RouterPath, _ body: Body.Type,
        _ handle: @escaping @Sendable (Body, DatabaseAccess) async throws -> Result
    ) {
        let limit = maxRequestBytes
        group.post(path) { request, context in
            let access = try context.requireAccess()
            let decoded = try await JSONBody.decode(Body.self, from: request, limit: limit)
            return try JSONBody.response(try await handle(decoded, access))
        }
    }
}
