import Foundation
import StratusCore

/// An opaque sync token: "changes after sequence N" of one zone, or of one database's zones.
///
/// A fetch without a token starts a device's first sync, and a device that never had a record
/// needs no news of its deletion: the feed then leaves out deletions already made when that sync
/// began. The tokens of its later pages carry that point, ``firstSyncHorizon``, until the feed
/// passes it.
///
/// A token also carries the store's ``StratusStorage/epoch`` (left out while it is 0, so tokens
/// from before epochs existed still read). A restore gives the store a new epoch, and a token of
/// another epoch answers `CHANGE_TOKEN_EXPIRED`: its device may have seen changes the restored
/// history never had, and must list from the start.
///
/// A token of the public database's feed carries ``rights``, a fingerprint of what its caller
/// could read when it was issued (``PublicPermissions/feedRights()``): once that changes, the
/// token answers `CHANGE_TOKEN_EXPIRED`, and the device lists again under its new rights.
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
    /// The epoch of the store that issued the token.
    package var epoch: Int64
    /// In the public database: the fingerprint of its caller's rights (16 hex digits).
    package var rights: String?

    package var encoded: String {
        let plain = if let rights {
            "3.\(kind.rawValue).\(ownerID).\(sequence).\(firstSyncHorizon).\(epoch).\(rights)"
        } else if epoch == 0 {
            "1.\(kind.rawValue).\(ownerID).\(sequence)" + (firstSyncHorizon > sequence ? ".\(firstSyncHorizon)" : "")
        } else {
            "2.\(kind.rawValue).\(ownerID).\(sequence).\(firstSyncHorizon).\(epoch)"
        }
        return Base64URL.encode(Data(plain.utf8))
    }

    /// Parses a token of the given kind, or throws `BAD_REQUEST`.
    package init(decoding text: String, as kind: Kind) throws(CloudKitError) {
        guard let data = Base64URL.decode(text), let plain = String(data: data, encoding: .utf8) else {
            throw .badRequest("syncToken is not a valid token")
        }
        let parts = plain.split(separator: ".")
        let invalid = CloudKitError.badRequest("syncToken is not a valid token")
        guard parts.count >= 4, let ownerID = Int64(parts[2]), let sequence = Int64(parts[3]), sequence >= 0 else { throw invalid }
        var horizon: Int64 = 0
        var epoch: Int64 = 0
        var rights: String?
        switch (parts[0], parts.count) {
        case ("1", 4):
            break
        case ("1", 5):
            guard let value = Int64(parts[4]), value > sequence else { throw invalid }
            horizon = value
        case ("2", 6):
            guard let value = Int64(parts[4]), value == 0 || value > sequence, let issuer = Int64(parts[5]), issuer != 0 else { throw invalid }
            horizon = value
            epoch = issuer
        case ("3", 7):
            guard let value = Int64(parts[4]), value == 0 || value > sequence, let issuer = Int64(parts[5]), issuer >= 0,
                  parts[6].utf8.count == 16, parts[6].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 >= 0x61 && $0 <= 0x66 }) else { throw invalid }
            horizon = value
            epoch = issuer
            rights = String(parts[6])
        default:
            throw invalid
        }
        guard parts[1] == kind.rawValue else {
            throw .badRequest(kind == .zone ? "syncToken is a database token, not a zone token" : "syncToken is a zone token, not a database token")
        }
        self.init(kind: kind, ownerID: ownerID, sequence: sequence, firstSyncHorizon: horizon, epoch: epoch, rights: rights)
    }

    package init(kind: Kind, ownerID: Int64, sequence: Int64, firstSyncHorizon: Int64 = 0, epoch: Int64, rights: String? = nil) {
        self.kind = kind
        self.ownerID = ownerID
        self.sequence = sequence
        self.firstSyncHorizon = firstSyncHorizon > sequence ? firstSyncHorizon : 0
        self.epoch = epoch
        self.rights = rights
    }
}
