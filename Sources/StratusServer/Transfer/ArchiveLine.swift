import Foundation
import StratusCore

/// Reads and writes ``ArchiveItem``s as JSON lines: `{"kind":"zone","changeSequence":12,…}`,
/// `"kind"` first and the other members in alphabetical order.
///
/// A record's fields (and a log entry's version's) go into its line as the stored bytes (a
/// `"fields"` object) and come back out the same, so a round trip changes no field, not even a
/// double's spelling.
enum ArchiveLine {
    /// The longest line a load accepts; a record's fields are far below it.
    static let maxBytes = 64 << 20

    static func encode(_ item: ArchiveItem) throws -> [UInt8] {
        switch item {
        case .container(let payload): try line(item.kind, payload)
        case .schema(let environment, let schema): try line(item.kind, SchemaPayload(environment: environment, text: SchemaText.format(schema)))
        case .user(let payload): try line(item.kind, payload)
        case .userRole(let payload): try line(item.kind, payload)
        case .passkey(let payload): try line(item.kind, payload)
        case .openIDIdentity(let payload): try line(item.kind, payload)
        case .serverKey(let payload): try line(item.kind, payload)
        case .session(let payload): try line(item.kind, payload)
        case .apnsCredentials(let payload): try line(item.kind, payload)
        case .apnsToken(let payload): try line(item.kind, payload)
        case .database(let payload): try line(item.kind, payload)
        case .zone(let payload): try line(item.kind, payload)
        case .asset(let payload): try line(item.kind, payload)
        case .record(let payload): try line(item.kind, payload, fields: payload.fields)
        case .logEntry(let payload): try line(item.kind, payload, fields: payload.version?.fields)
        case .share(let payload): try line(item.kind, payload)
        case .sharedZone(let payload): try line(item.kind, payload)
        case .subscription(let payload): try line(item.kind, payload)
        case .auditEntry(let payload): try line(item.kind, payload)
        case .webhookEndpoint(let payload): try line(item.kind, payload)
        }
    }

    /// Reads one line, or throws ``TransferError`` naming what is wrong with it.
    static func decode(_ line: [UInt8]) throws -> ArchiveItem {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw TransferError("a line is not JSON: \(error.reason)")
        }
        guard case .object(let object) = value, case .string(let kind)? = object["kind"] else {
            throw TransferError("a line is not a JSON object with a \"kind\"")
        }
        let data = Data(line)
        func storedFields(of what: String) throws -> [UInt8] {
            guard let fields = object["fields"], case .object = fields else { throw TransferError("\(what) has no \"fields\" object") }
            var writer = WireWriter(capacity: line.count)
            writer.json(fields)
            return writer.bytes
        }
        func payload<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try decoder.decode(type, from: data)
            } catch {
                throw TransferError("a \(kind) line does not read: \(error)")
            }
        }
        switch kind {
        case "container": return .container(try payload(StoredContainer.self))
        case "schema":
            let schema = try payload(SchemaPayload.self)
            do {
                return .schema(schema.environment, try SchemaText.parse(schema.text))
            } catch {
                throw TransferError("the \(schema.environment.rawValue) schema does not parse: \(error)")
            }
        case "user": return .user(try payload(ArchivedUser.self))
        case "userRole": return .userRole(try payload(ArchivedUserRole.self))
        case "passkey": return .passkey(try payload(StoredPasskey.self))
        case "openIDIdentity": return .openIDIdentity(try payload(StoredOpenIDIdentity.self))
        case "serverKey": return .serverKey(try payload(StoredServerKey.self))
        case "session": return .session(try payload(StoredSession.self))
        case "apnsCredentials": return .apnsCredentials(try payload(APNsCredentials.self))
        case "apnsToken": return .apnsToken(try payload(StoredAPNsToken.self))
        case "database": return .database(try payload(ArchivedDatabase.self))
        case "zone": return .zone(try payload(ArchivedZone.self))
        case "asset": return .asset(try payload(ArchivedAsset.self))
        case "record":
            var record = try payload(ArchivedRecord.self)
            record.fields = try storedFields(of: "record \(record.recordName)")
            return .record(record)
        case "logEntry":
            var entry = try payload(ArchivedLogEntry.self)
            if entry.version != nil { entry.version?.fields = try storedFields(of: "a log entry of \(entry.recordName)") }
            return .logEntry(entry)
        case "share": return .share(try payload(StoredShare.self))
        case "sharedZone": return .sharedZone(try payload(ArchivedSharedZone.self))
        case "auditEntry": return .auditEntry(try payload(StoredAuditEntry.self))
        case "subscription": return .subscription(try payload(StoredSubscription.self))
        case "webhookEndpoint": return .webhookEndpoint(try payload(ArchivedWebhookEndpoint.self))
        default: throw TransferError("a line has the unknown kind \"\(kind)\"")
        }
    }

    private struct SchemaPayload: Codable {
        var environment: ContainerEnvironment
        var text: String
    }

    private static let decoder = JSONDecoder()

    /// `{"kind":…` followed by the payload's members and, for a record, its stored fields.
    private static func line(_ kind: String, _ payload: some Encodable, fields: [UInt8]? = nil) throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted, so a container exports the same bytes every time.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let members = Array(try encoder.encode(payload).dropFirst().dropLast())
        var writer = WireWriter(capacity: members.count + (fields?.count ?? 0) + 32)
        writer.raw("{\"kind\":")
        writer.string(kind)
        if !members.isEmpty {
            writer.raw(",")
            writer.raw(members)
        }
        if let fields {
            writer.raw(",\"fields\":")
            writer.raw(fields)
        }
        writer.raw("}\n")
        return writer.bytes
    }
}
