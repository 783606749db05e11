import Foundation
import StratusCore

/// An opaque sync token: "changes after sequence N" of one zone, or of one database's zones.
///
/// Clients see a base64url string and must not look inside; the server validates every token it
/// is given (kind, owner and sequence) and answers `BAD_REQUEST` for anything else.
package struct ChangeToken: Equatable {
    package enum Kind: String {
        case zone = "z"
        case database = "d"
    }

    package var kind: Kind
    /// The zone's or the database's row id.
    package var ownerID: Int64
    package var sequence: Int64

    package var encoded: String {
        Base64URL.encode(Data("1.\(kind.rawValue).\(ownerID).\(sequence)".utf8))
    }

    /// Parses a token of the given kind, or throws `BAD_REQUEST`.
    package init(decoding text: String, as kind: Kind) throws(CloudKitError) {
        guard let data = Base64URL.decode(text), let plain = String(data: data, encoding: .utf8) else {
            throw .badRequest("syncToken is not a valid token")
        }
        let parts = plain.split(separator: ".")
        guard parts.count == 4, parts[0] == "1", let ownerID = Int64(parts[2]), let sequence = Int64(parts[3]),
              sequence >= 0 else {
            throw .badRequest("syncToken is not a valid token")
        }
        guard parts[1] == kind.rawValue else {
            throw .badRequest(kind == .zone ? "syncToken is a database token, not a zone token" : "syncToken is a zone token, not a database token")
        }
        self.init(kind: kind, ownerID: ownerID, sequence: sequence)
    }

    package init(kind: Kind, ownerID: Int64, sequence: Int64) {
        self.kind = kind
        self.ownerID = ownerID
        self.sequence = sequence
    }
}
