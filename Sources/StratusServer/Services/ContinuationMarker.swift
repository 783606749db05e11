import Foundation
import StratusCore

/// Where a query's next page starts: the sort values and name of the last record returned, and
/// the fingerprint of the query it belongs to. Opaque to clients (base64url of JSON).
struct ContinuationMarker: Codable {
    var fingerprint: String
    var values: [IndexValue]
    var recordName: String

    init(fingerprint: String, values: [IndexValue], recordName: String) {
        self.fingerprint = fingerprint
        self.values = values
        self.recordName = recordName
    }

    var encoded: String {
        Base64URL.encode((try? JSONEncoder().encode(self)) ?? Data())
    }

    init(decoding text: String) throws(CloudKitError) {
        guard let data = Base64URL.decode(text), let marker = try? JSONDecoder().decode(Self.self, from: data) else {
            throw .badRequest("continuationMarker is not valid")
        }
        self = marker
    }
}

extension IndexValue: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        switch try container.decode(String.self) {
        case "i": self = .integer(try container.decode(Int64.self))
        case "r": self = .real(try container.decode(Double.self))
        case "t": self = .text(try container.decode(String.self))
        default: self = .missing
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .integer(let number): try container.encode("i"); try container.encode(number)
        case .real(let number): try container.encode("r"); try container.encode(number)
        case .text(let text): try container.encode("t"); try container.encode(text)
        case .missing: try container.encode("m")
        }
    }
}
