import Crypto
import Foundation
import StratusCore

/// What an asset URL allows, signed into the URL itself so that it cannot be altered or forged.
///
/// An upload grant lets its bearer send one file for one record field of one database, on behalf
/// of the user who asked for the URL. A download grant lets the user it names (anyone, for the
/// public database) read one record's file. Both expire.
struct AssetGrant: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case upload
        case download
    }

    var kind: Kind
    var containerID: String
    var environment: ContainerEnvironment
    /// The user the grant was issued to; nil when a download needs no user (public database).
    var user: String?
    /// Milliseconds since 1970 after which the grant is refused.
    var expires: Int64
    /// Upload: the database row id and zone name the file is for.
    var databaseID: Int64?
    var zoneName: String?
    /// Download: the zone row id the record lives in, and the file's checksum.
    var zoneRowID: Int64?
    var checksum: String?
    var recordName: String
    var fieldName: String?

    private enum CodingKeys: String, CodingKey {
        case kind = "k", containerID = "c", environment = "e", user = "u", expires = "x", databaseID = "d"
        case zoneName = "z", zoneRowID = "zr", checksum = "h", recordName = "r", fieldName = "f"
    }
}

/// Signs and verifies ``AssetGrant``s with an HMAC-SHA256 key, the store's secret (see
/// ``StratusStorage/serverSecret()``), so that URLs stay valid across restarts and on every
/// instance, and sets how long new grants last.
struct AssetURLSigner: Sendable {
    private let key: SymmetricKey
    /// How long the URLs of new grants stay valid.
    let urlLifetime: Duration
    /// Whether download URLs of private data work only for the user they were issued to (with
    /// their `ckWebAuthToken`); otherwise the signed URL is the capability, as Apple's are.
    let bindsDownloadsToUser: Bool
    /// What grants expire by.
    let clock: ServerClock

    init(secret: [UInt8], urlLifetime: Duration, bindsDownloadsToUser: Bool = false, clock: ServerClock) {
        self.key = SymmetricKey(data: secret)
        self.urlLifetime = urlLifetime
        self.bindsDownloadsToUser = bindsDownloadsToUser
        self.clock = clock
    }

    /// When a grant made now expires.
    var newGrantExpiry: Int64 { clock.milliseconds + urlLifetime.milliseconds }

    /// A key of its own for another purpose (`label`), derived from the server's secret, so one
    /// secret protects every token the server hands out.
    func derivedKey(for label: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(label.utf8), outputByteCount: 32)
    }

    /// The grant as a URL path segment: base64url JSON, a dot, base64url signature.
    func token(for grant: AssetGrant) throws -> String {
        let payload = try JSONEncoder().encode(grant)
        let signature = HMAC<SHA256>.authenticationCode(for: payload, using: key)
        return Base64URL.encode(payload) + "." + Base64URL.encode(Data(signature))
    }

    /// The grant a token carries, once its signature, kind and lifetime are checked.
    func grant(from token: String, kind: AssetGrant.Kind) throws(CloudKitError) -> AssetGrant {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(String(parts[0])), let signature = Base64URL.decode(String(parts[1])),
              HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: payload, using: key),
              let grant = try? JSONDecoder().decode(AssetGrant.self, from: payload), grant.kind == kind else {
            throw .accessDenied("this asset \(kind.rawValue) URL is not valid")
        }
        guard clock.milliseconds <= grant.expires else {
            let remedy = kind == .upload ? "request a new one with assets/upload" : "fetch the record again for a new downloadURL"
            throw .accessDenied("this asset \(kind.rawValue) URL expired; \(remedy)")
        }
        return grant
    }
}
