import Foundation
import StratusCore

/// An opaque sync token: "changes after sequence N" of one zone, or of one database's zones.
///
/// A fetch without a token starts a device's first sync, and a device that never had a record
/// needs no news of its deletion: the feed then leaves out deletions already made when that sync
/// began. The tokens of its later pages carry that point, ``firstSyncHorizon``, until the feed
/// passes it.
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
    /// During a first sync: deletions at or before this sequence are of things the device never
    /// had, and are left out. Zero once the feed has passed it.
    package var firstSyncHorizon: Int64

    package var encoded: String {
        let horizon = firstSyncHorizon > sequence ? ".\(firstSyncHorizon)" : ""
        return Base64URL.encode(Data("1.\(kind.rawValue).\(ownerID).\(sequence)\(horizon)".utf8))
    }

    /// Parses a token of the given kind, or throws `BAD_REQUEST`.
    package init(decoding text: String, as kind: Kind) throws(CloudKitError) {
        guard let data = Base64URL.decode(text), let plain = String(data: data, encoding: .utf8) else {
            throw .badRequest("syncToken is not a valid token")
        }
        let parts = plain.split(separator: ".")
        guard parts.count == 4 || parts.count == 5, parts[0] == "1", let ownerID = Int64(parts[2]),
              let sequence = Int64(parts[3]), sequence >= 0 else {
            throw .badRequest("syncToken is not a valid token")
        }
        var horizon: Int64 = 0
        if parts.count == 5 {
            guard let value = Int64(parts[4]), value > sequence else { throw .badRequest("syncToken is not a valid token") }
            horizon = value
        }
        guard parts[1] == kind.rawValue else {
            throw .badRequest(kind == .zone ? "syncToken is a database token, not a zone token" : "syncToken is a zone token, not a database token")
        }
        self.init(kind: kind, ownerID: ownerID, sequence: sequence, firstSyncHorizon: horizon)
    }

    package init(kind: Kind, ownerID: Int64, sequence: Int64, firstSyncHorizon: Int64 = 0) {
        self.kind = kind
        self.ownerID = ownerID
        self.sequence = sequence
        self.firstSyncHorizon = firstSyncHorizon > sequence ? firstSyncHorizon : 0
    }
}
