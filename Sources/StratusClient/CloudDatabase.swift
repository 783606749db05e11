import Foundation
import StratusCore

/// One of a container's databases — private, public or shared — with CloudKit's operations as
/// async methods (CloudKit's `CKDatabase`). A value: cheap to copy, sending through its container.
public struct CloudDatabase: Sendable {
    /// The container the database belongs to; requests carry its session.
    public let container: Container
    /// Which of the container's databases this is: private, public or shared.
    public let scope: DatabaseScope

    /// POSTs a JSON body to an endpoint of this database and decodes the answer.
    func post<Response: Decodable>(_ endpoint: String, _ body: some Encodable, as type: Response.Type) async throws -> Response {
        let encoded: [UInt8]
        if let writable = body as? any WireWritable {
            var writer = WireWriter(capacity: 16 * 1024)
            try writable.write(to: &writer)
            encoded = writer.bytes
        } else {
            encoded = Array(try JSONEncoder().encode(body))
        }
        return try Container.decode(Response.self, from: try await container.send(path: path(endpoint), body: .bytes(encoded)))
    }

    /// GETs an endpoint of this database and decodes the answer.
    func get<Response: Decodable>(_ endpoint: String, as type: Response.Type) async throws -> Response {
        try Container.decode(Response.self, from: try await container.send(path: path(endpoint), body: .none))
    }

    /// A zone ID as this client names it. In the private database every zone is the signed-in
    /// user's, so the owner is left out (as CloudKit's default owner): a zone the server names and
    /// the same zone the app names are equal.
    func normalized(_ zoneID: ZoneID) -> ZoneID {
        scope == .private ? ZoneID(zoneName: zoneID.zoneName) : zoneID
    }

    private func path(_ endpoint: String) -> String {
        "/database/1/\(container.containerIdentifier)/\(container.environment.rawValue)/\(scope.rawValue)/\(endpoint)"
    }
}

/// Per-item outcomes keyed by ID, as CloudKit's batch operations report them.
public typealias ItemResults<ID: Hashable, Value> = [ID: Result<Value, CloudError>]

extension CloudError {
    /// The client error of one failed item.
    init(_ error: RecordError) {
        self.init(server: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter)
    }
}
