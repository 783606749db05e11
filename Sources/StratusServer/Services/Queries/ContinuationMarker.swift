import Crypto
import Foundation
import StratusCore

/// Where a query's next page starts: the sort values, name and zone of the last record returned,
/// and the fingerprint of the query it belongs to.
///
/// Sealed (a ``SealedMarker``) under a key of the server's.
package struct ContinuationMarker: SealedMarker {
    package var fingerprint: String
    package var values: [IndexValue]
    package var recordName: String
    /// The zone's row id; absent in markers sealed before queries spanned zones.
    package var zoneRowID: Int64?

    package init(fingerprint: String, position: RecordQuery.Position) {
        self.fingerprint = fingerprint
        values = position.values
        recordName = position.recordName
        zoneRowID = position.zoneRowID
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
