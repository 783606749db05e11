import Foundation
import JWTKit
import Logging
import StratusCore

/// Sign in with Apple's server-to-server notifications, posted by Apple to
/// `apple/notifications` as `{"payload": JWS}` when a user changes how their Apple ID works with
/// the app.
///
/// The JWS must verify against Apple's published keys (RS256), be issued by Apple for one of the
/// container's client IDs, and be current (a minute's skew); its `events` claim (a JSON string,
/// or an object) names the event:
///
/// - `consent-revoked`: the user stopped using their Apple ID with the app. Every session of the
///   account ends and the refresh token is forgotten (Apple revoked it). An account with another
///   way to sign in is unlinked from the Apple ID and its owner mailed; an account that signs in
///   with Apple only keeps the link, so that signing in with Apple again (granting consent anew)
///   returns to it rather than to a new, empty account.
/// - `account-delete` (and `account-deleted`, as one copy of Apple's article spells it): the
///   user deleted their Apple ID. An account that signs in with Apple only is deleted exactly as
///   `account/delete` deletes it (``AdminService/deleteAccount(user:containerID:)``); another is
///   unlinked and its owner mailed.
/// - `email-disabled`, `email-enabled`: mail forwarding to the relay address stopped or resumed;
///   meanwhile no mail is written for that address (``MailOutbox/enqueue(_:sealedWith:in:)``).
///
/// An event for an Apple ID no account has changes nothing. Each event takes effect once: a
/// duplicate (by `sub`, `type` and `event_time`) is recognised in the replay store, across
/// restarts and instances, and answered 200 like an unknown type (which is logged).
package struct AppleNotifications: Sendable {
    let apple: AppleSignIn
    let admin: AdminService
    let storage: any StratusStorage
    let notices: SecurityNotices
    let logger: Logger

    /// The largest notification accepted (Apple's are about 1 KB).
    static let maxRequestBytes = 16 * 1024
    /// How long an event is remembered against duplicates.
    static let replayWindow: Int64 = 30 * 24 * 3600 * 1000

    /// The body Apple posts.
    package struct Notification: Decodable {
        package var payload: String
    }

    /// What an event says.
    struct Event: Decodable, Equatable {
        var type: String
        var sub: String
        var event_time: Int64?
        var email: String?
    }

    /// The JWS's claims.
    struct Claims: AppleSignedClaims {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim?
        var jti: String?
        var events: Event

        enum CodingKeys: String, CodingKey { case iss, aud, iat, exp, jti, events }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            iss = try container.decode(IssuerClaim.self, forKey: .iss)
            aud = try container.decode(AudienceClaim.self, forKey: .aud)
            iat = try container.decode(IssuedAtClaim.self, forKey: .iat)
            exp = try container.decodeIfPresent(ExpirationClaim.self, forKey: .exp)
            jti = try container.decodeIfPresent(String.self, forKey: .jti)
            // Apple sends `events` as a JSON string to parse again; an object is read as well.
            if let text = try? container.decode(String.self, forKey: .events) {
                events = try JSONDecoder().decode(Event.self, from: Data(text.utf8))
            } else {
                events = try container.decode(Event.self, forKey: .events)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(iss, forKey: .iss)
            try container.encode(aud, forKey: .aud)
            try container.encode(iat, forKey: .iat)
            try container.encodeIfPresent(exp, forKey: .exp)
            try container.encodeIfPresent(jti, forKey: .jti)
        }

        func verify(using _: some JWTAlgorithm) throws {}

        var issuerName: String { iss.value }
        var audiences: [String] { aud.value }

        func timeProblem(at now: Date, skew: TimeInterval) -> String? {
            if iat.value > now + skew { return "it was issued in the future" }
            if let exp, exp.value < now - skew { return "it has expired" }
            return nil
        }
    }

    /// Checks a notification and acts on its event (see the type's description).
    package func receive(_ notification: Notification, containerID: String) async throws {
        let event = try await verify(notification.payload, containerID: containerID)
        let key = "apple-event:" + SecretGenerator.digest("\(containerID)|\(event.sub)|\(event.type)|\(event.event_time ?? 0)")
        let now = apple.clock.milliseconds
        guard try await storage.write({ try await $0.useOnce(key, until: now + Self.replayWindow, now: now) }) else {
            logger.info("a Sign in with Apple notification (\(event.type)) was received again; it was acted on already")
            return
        }
        switch event.type {
        case "consent-revoked":
            try await revokeConsent(event.sub, containerID: containerID)
        case "account-delete", "account-deleted":
            try await deleteAppleID(event.sub, containerID: containerID)
        case "email-disabled", "email-enabled":
            try await setRelayMail(disabled: event.type == "email-disabled", subject: event.sub, containerID: containerID)
        default:
            logger.notice("a Sign in with Apple notification of an unknown type (\(event.type)) was ignored")
        }
    }

    /// The event of a notification whose JWS verifies (see the type's description).
    func verify(_ payload: String, containerID: String) async throws -> Event {
        let claims = try await apple.verifiedClaims(of: payload, as: Claims.self, containerID: containerID, what: "the notification")
        guard !claims.events.sub.isEmpty, claims.events.sub.utf8.count <= 256, claims.events.type.utf8.count <= 64 else {
            throw CloudKitError.badRequest("the notification's event names no Apple ID")
        }
        return claims.events
    }

    /// `consent-revoked`.
    private func revokeConsent(_ subject: String, containerID: String) async throws {
        let user: StoredUser? = try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(containerID: containerID, appleSubject: subject) else { return nil }
            if try await AccountCentre.methods(of: user, in: transaction).count > 1 {
                try await transaction.setAppleIdentity(user: user.userRecordName, nil)
                try await notices.notify(user, "Sign in with Apple was removed from your account (you stopped using your Apple ID with the app)",
                                         in: transaction)
            } else if var identity = user.apple {
                identity.refreshToken = nil
                try await transaction.setAppleIdentity(user: user.userRecordName, identity)
            }
            return user
        }
        notices.sent()
        guard let user else { return logger.info("consent-revoked for an Apple ID no account has") }
        let ended = try await admin.signOutEverywhere(user: user.userRecordName)
        logger.info("consent-revoked: \(ended) sessions ended")
    }

    /// `account-delete`, `account-deleted`.
    private func deleteAppleID(_ subject: String, containerID: String) async throws {
        enum Outcome { case none, unlinked, delete(String) }
        let outcome: Outcome = try await storage.write { [notices] transaction in
            guard let user = try await transaction.user(containerID: containerID, appleSubject: subject) else { return .none }
            guard try await AccountCentre.methods(of: user, in: transaction).count > 1 else { return .delete(user.userRecordName) }
            try await transaction.setAppleIdentity(user: user.userRecordName, nil)
            try await notices.notify(user, "Sign in with Apple was removed from your account (your Apple ID was deleted)", in: transaction)
            return .unlinked
        }
        notices.sent()
        switch outcome {
        case .none: logger.info("account-delete for an Apple ID no account has")
        case .unlinked: logger.info("account-delete: an Apple ID was unlinked from an account with other sign-in methods")
        case .delete(let user):
            try await admin.deleteAccount(user: user, containerID: containerID)
            logger.info("account-delete: an account that signed in with Apple only was deleted")
        }
    }

    /// `email-disabled`, `email-enabled`.
    private func setRelayMail(disabled: Bool, subject: String, containerID: String) async throws {
        try await storage.write { transaction in
            guard let user = try await transaction.user(containerID: containerID, appleSubject: subject), var identity = user.apple else { return }
            identity.relayMailDisabled = disabled
            try await transaction.setAppleIdentity(user: user.userRecordName, identity)
        }
    }
}
