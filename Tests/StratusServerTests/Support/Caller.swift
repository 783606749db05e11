import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StratusCore

/// Someone calling the server over real HTTP: the API token plus, when signed in, a user token.
struct Caller: Sendable {
    let server: ServerEndpoint
    var webAuthToken: String?
    var userRecordName: String?
    var environment = "development"
    /// The username it signed up with.
    var username: String?

    /// The path of a database endpoint, as CloudKit spells it.
    func path(_ database: DatabaseScope, _ endpoint: String) -> String {
        "/database/1/\(TestServer.containerID)/\(environment)/\(database.rawValue)/\(endpoint)"
    }

    func post(_ path: String, _ body: some Encodable) async throws -> HTTPResult {
        try await send(.POST, path, body: try JSONEncoder().encode(body))
    }

    func post(_ path: String, json: String) async throws -> HTTPResult {
        try await send(.POST, path, body: Data(json.utf8))
    }

    func get(_ path: String) async throws -> HTTPResult {
        try await send(.GET, path, body: nil)
    }

    /// Sends a request; `apiToken` and `webAuthToken` default to the caller's own.
    func send(_ method: HTTPMethod, _ path: String, body: Data?, apiToken: String?? = .none, headers: [(String, String)] = []) async throws -> HTTPResult {
        var query: [String] = []
        if let apiToken = apiToken ?? server.apiToken { query.append("ckAPIToken=\(apiToken)") }
        if let webAuthToken { query.append("ckWebAuthToken=\(Self.percentEncode(webAuthToken))") }
        var request = HTTPClientRequest(url: server.baseURL + path + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: bytes), headers: response.headers)
    }

    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    // MARK: Typed CloudKit calls

    func modify(_ operations: [RecordOperation], zone: String = ZoneID.defaultZoneName, atomic: Bool? = nil,
                database: DatabaseScope = .private) async throws -> [RecordResult] {
        let request = RecordsModifyRequest(operations: operations, zoneID: ZoneID(zoneName: zone), atomic: atomic)
        return try await post(path(database, "records/modify"), request).decode(RecordsResponse.self).records
    }

    /// Saves records and returns them, failing if any operation failed.
    func save(_ operations: [RecordOperation], zone: String = ZoneID.defaultZoneName, database: DatabaseScope = .private) async throws -> [Record] {
        try await modify(operations, zone: zone, database: database).map { result in
            guard let record = result.record else { throw TestFailure("operation failed: \(String(describing: result.error))") }
            return record
        }
    }

    func lookup(_ names: [String], zone: String = ZoneID.defaultZoneName, database: DatabaseScope = .private) async throws -> [RecordResult] {
        let request = RecordsLookupRequest(records: names.map { .init(recordName: $0) }, zoneID: ZoneID(zoneName: zone))
        return try await post(path(database, "records/lookup"), request).decode(RecordsResponse.self).records
    }

    func createZone(_ name: String) async throws {
        let response = try await post(path(.private, "zones/modify"), ZonesModifyRequest(operations: [.init(.create, ZoneID(zoneName: name))]))
        guard try response.decode(ZonesResponse.self).zones.first?.zone != nil else { throw TestFailure("zone not created") }
    }

    func zoneChanges(_ zone: String, token: String? = nil, limit: Int? = nil, database: DatabaseScope = .private) async throws -> ZoneChangesResult {
        let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: zone), syncToken: token, resultsLimit: limit)])
        let zones = try await post(path(database, "changes/zone"), request).decode(ZoneChangesResponse.self).zones
        guard let first = zones.first else { throw TestFailure("no zone in changes/zone response") }
        return first
    }

    /// Follows `moreComing` to the end and returns every change and the final token.
    func allZoneChanges(_ zone: String, from token: String? = nil, limit: Int? = nil,
                        database: DatabaseScope = .private) async throws -> (records: [Record], token: String) {
        var token = token
        var records: [Record] = []
        while true {
            guard let page = try await zoneChanges(zone, token: token, limit: limit, database: database).changes else { throw TestFailure("zone changes failed") }
            records += page.records
            token = page.syncToken
            if !page.moreComing { return (records, page.syncToken) }
        }
    }

    func databaseChanges(token: String? = nil, limit: Int? = nil, database: DatabaseScope = .private) async throws -> DatabaseChangesResponse {
        try await post(path(database, "changes/database"), DatabaseChangesRequest(syncToken: token, resultsLimit: limit))
            .decode(DatabaseChangesResponse.self)
    }
}

/// A response: status, body and headers, with CloudKit-aware accessors.
struct HTTPResult: Sendable {
    var status: Int
    var body: Data
    var headers: HTTPHeaders

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard status == 200 else { throw TestFailure("HTTP \(status): \(text)") }
        return try JSONDecoder().decode(T.self, from: body)
    }

    /// The request-level CloudKit error dictionary.
    var error: ErrorDictionary? { try? JSONDecoder().decode(ErrorDictionary.self, from: body) }
    var errorCode: ServerErrorCode? { error?.serverErrorCode }
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension RecordOperation {
    static func create(_ name: String, type: String = "Note", _ fields: [String: FieldValue] = [:]) -> RecordOperation {
        RecordOperation(.create, Record(recordName: name, recordType: type, fields: fields))
    }
}
