import Crypto
import Foundation
import StratusCore
import StratusServer

/// One input reader the fuzzer attacks, with the property it must keep on every input.
///
/// A target traps (`preconditionFailure`) when its property breaks; otherwise an input that the
/// reader refuses is fine. The same code runs under libFuzzer (`scripts/fuzz.sh`) and, for the
/// corpus kept in the repository, in the ordinary test suite.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// ``JSONParser``: whatever it accepts survives a round trip through `JSONEncoder`.
    case json
    /// Every request body the server reads: the first byte picks the request type, the rest is
    /// the body, read the way the server reads it.
    case request
    /// ``SchemaText``: a schema it reads, formatted and read again, is the same schema.
    case schema
    /// Query continuation markers: only markers the server sealed open; a sealed marker's
    /// contents are read without crashing whatever they are.
    case marker
    /// Sync tokens: a token that decodes encodes to a token that decodes to the same position.
    case token

    /// Runs the target on one input.
    package func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .json: Self.json(input)
        case .request: Self.request(input)
        case .schema: Self.schema(input)
        case .marker: Self.marker(input)
        case .token: Self.token(input)
        }
    }

    private static func json(_ input: UnsafeRawBufferPointer) {
        guard let value = try? JSONParser.parse(input.assumingMemoryBound(to: UInt8.self)) else { return }
        guard let encoded = try? JSONEncoder().encode(value) else { preconditionFailure("a parsed value does not encode") }
        guard let again = try? JSONParser.parse(Array(encoded)) else {
            preconditionFailure("the encoding of a parsed value does not parse: \(String(decoding: encoded, as: UTF8.self))")
        }
        precondition(canonical(again) == canonical(value), "a parsed value changed in a round trip")
    }

    /// The value as `JSONEncoder` keeps it: object members by name, a repeated name's last value,
    /// and a whole double as the integer it is written as (`3.1e9` comes back as `3100000000`).
    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let number) where number == number.rounded() && !(number == 0 && number.sign == .minus):
            if let integer = Int64(exactly: number) { return .integer(integer) }
            return value
        case .array(let elements): return .array(elements.map(canonical))
        case .object(let object):
            var byName: [String: JSONValue] = [:]
            for member in object.members { byName[member.key] = canonical(member.value) }
            return .object(JSONObject(byName.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        default: return value
        }
    }

    /// The request bodies the server's routes read, in a fixed order (the corpus depends on it).
    private static let requestReaders: [@Sendable (UnsafeRawBufferPointer) throws -> Void] = [
        { _ = try JSONBody.decode(RecordsModifyRequest.self, from: $0) },
        { _ = try JSONBody.decode(RecordsLookupRequest.self, from: $0) },
        { _ = try JSONBody.decode(RecordsQueryRequest.self, from: $0) },
        { _ = try JSONBody.decode(RecordsChangesRequest.self, from: $0) },
        { _ = try JSONBody.decode(ZoneChangesRequest.self, from: $0) },
        { _ = try JSONBody.decode(DatabaseChangesRequest.self, from: $0) },
        { _ = try JSONBody.decode(ZonesLookupRequest.self, from: $0) },
        { _ = try JSONBody.decode(ZonesModifyRequest.self, from: $0) },
        { _ = try JSONBody.decode(SubscriptionsLookupRequest.self, from: $0) },
        { _ = try JSONBody.decode(SubscriptionsModifyRequest.self, from: $0) },
        { _ = try JSONBody.decode(AssetUploadRequest.self, from: $0) },
        { _ = try JSONBody.decode(AssetRereferenceRequest.self, from: $0) },
        { _ = try JSONBody.decode(ShortGUIDsRequest.self, from: $0) },
        { _ = try JSONBody.decode(UserDiscoveryRequest.self, from: $0) },
        { _ = try JSONBody.decode(TokenCreateRequest.self, from: $0) },
        { _ = try JSONBody.decode(Credentials.self, from: $0) },
    ]

    /// The number of request types `request` reads.
    package static var requestTypeCount: Int { requestReaders.count }

    private static func request(_ input: UnsafeRawBufferPointer) {
        guard let selector = input.first else { return }
        let reader = requestReaders[Int(selector) % requestReaders.count]
        do {
            try reader(UnsafeRawBufferPointer(rebasing: input.dropFirst()))
        } catch let error as CloudKitError {
            precondition(error.code == .badRequest, "a request body was refused with \(error.code), not BAD_REQUEST")
        } catch {
            preconditionFailure("a request body was refused with \(error), not a CloudKit error")
        }
    }

    private static func schema(_ input: UnsafeRawBufferPointer) {
        guard let text = String(validating: input.assumingMemoryBound(to: UInt8.self), as: UTF8.self),
              let schema = try? SchemaText.parse(text) else { return }
        let formatted = SchemaText.format(schema)
        guard let again = try? SchemaText.parse(formatted) else { preconditionFailure("a formatted schema does not parse:\n\(formatted)") }
        precondition(again == schema, "a schema changed when formatted and read again:\n\(formatted)")
    }

    /// The key markers are sealed with here; the server makes its own at start.
    private static let markerKey = SymmetricKey(data: [UInt8](repeating: 7, count: 32))

    private static func marker(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        precondition((try? ContinuationMarker(unsealing: text, with: markerKey)) == nil, "a marker the server did not seal was opened")
        // The same bytes as the contents of a genuinely sealed marker, so the reader behind the
        // seal sees arbitrary input too.
        guard let box = try? ChaChaPoly.seal(Data(input), using: markerKey) else { preconditionFailure("sealing failed") }
        _ = try? ContinuationMarker(unsealing: Base64URL.encode(box.combined), with: markerKey)
    }

    private static func token(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        for kind in [ChangeToken.Kind.zone, .database] {
            guard let token = try? ChangeToken(decoding: text, as: kind) else { continue }
            guard let again = try? ChangeToken(decoding: token.encoded, as: kind) else { preconditionFailure("an encoded token does not decode") }
            precondition(again == token, "a token changed in a round trip")
        }
    }
}
