import Crypto
import Foundation
import StratusCore

/// The token that authenticates a provider to APNs (a "token-based connection"): a JWT signed
/// with ES256 by the `.p8` key, header `{"alg":"ES256","kid":keyID}`, claims
/// `{"iss":teamID,"iat":seconds}`.
///
/// APNs refuses a token older than an hour, and a provider that makes new ones more often than
/// every 20 minutes; one is used for ``lifetime``.
struct APNsProviderToken: Sendable {
    static let lifetime: Int64 = 50 * 60

    /// The `authorization` header's value: `bearer <JWT>`.
    let authorization: String
    /// When it was made, in seconds since 1970.
    let issuedAt: Int64

    init(credentials: APNsCredentials, issuedAt: Int64) throws {
        let key = try P256.Signing.PrivateKey(pemRepresentation: credentials.privateKeyPEM)
        let header = Base64URL.encode(Data(#"{"alg":"ES256","kid":"\#(credentials.keyID)"}"#.utf8))
        let claims = Base64URL.encode(Data(#"{"iss":"\#(credentials.teamID)","iat":\#(issuedAt)}"#.utf8))
        let signature = try key.signature(for: Data("\(header).\(claims)".utf8))
        authorization = "bearer \(header).\(claims).\(Base64URL.encode(signature.rawRepresentation))"
        self.issuedAt = issuedAt
    }

    func isFresh(at now: Int64) -> Bool { now - issuedAt < Self.lifetime }

    /// Checks credentials before they are stored: key and team IDs of 10 letters or digits, a
    /// bundle ID for the topic, and a P-256 private key.
    static func validate(_ credentials: APNsCredentials) throws(CloudKitError) {
        func isID(_ text: String) -> Bool { text.count == 10 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        guard isID(credentials.keyID) else { throw .badRequest("the APNs key ID is 10 letters or digits, as Apple shows it") }
        guard isID(credentials.teamID) else { throw .badRequest("the team ID is 10 letters or digits, as Apple shows it") }
        guard !credentials.topic.isEmpty, credentials.topic.utf8.count <= 255,
              credentials.topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
            throw .badRequest("the topic is the app's bundle ID, such as com.example.notes")
        }
        guard (try? P256.Signing.PrivateKey(pemRepresentation: credentials.privateKeyPEM)) != nil else {
            throw .badRequest("the key is not a P-256 private key in PEM (an APNs .p8 file)")
        }
    }
}
