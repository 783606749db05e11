import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Sign in with Apple's server-to-server notifications over real HTTP, signed by a local stand-in
/// of Apple (``AppleTestIssuer``): each event type's effect, on accounts that sign in with Apple
/// only and on accounts with another method; duplicates and unknown types; notifications the
/// server must refuse.
@Suite struct AppleNotificationTests {
    static let auth = AppleSignInTests.auth
    static let path = "\(auth)/apple/notifications"

    /// Posts a notification as Apple does: no API token, no session.
    static func post(_ server: TestServer, _ body: [String: String]) async throws -> HTTPResult {
        try await server.anonymous.send(.POST, path, body: try JSONEncoder().encode(body), apiToken: .some(nil))
    }

    static func user(_ server: TestServer, _ recordName: String?) async throws -> StoredUser? {
        try await server.server.services.storage.read { try await $0.user(recordName: recordName!) }
    }

    /// A user who signs in with Apple only, and one who has a password too, each signed in.
    static func twoAccounts(_ server: TestServer, _ apple: AppleTestIssuer, _ name: String) async throws -> (appleOnly: Caller, withPassword: Caller) {
        let appleOnly = try AppleSignInTests.caller(server, try await server.anonymous.post(
            "\(auth)/apple", AppleSignInRequest(identityToken: try await apple.token(subject: "\(name).only"),
                                                authorizationCode: apple.authorizationCode(for: "\(name).only"))))
        let withPassword = try await server.signUp(name)
        #expect(try await withPassword.post("\(auth)/account/reauthenticate", ["password": "password-\(name)"]).status == 200)
        #expect(try await withPassword.post("\(auth)/apple/link", AppleSignInRequest(identityToken: try await apple.token(subject: "\(name).both"))).status == 200)
        return (appleOnly, withPassword)
    }

    static func sessionWorks(_ caller: Caller) async throws -> Bool {
        try await caller.get(caller.path(.private, "zones/list")).status == 200
    }

    @Test func consentRevokedEndsTheSessionsAndUnlinksWhereAnotherMethodRemains() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let (appleOnly, withPassword) = try await Self.twoAccounts(server, apple, "ivy")
            for subject in ["ivy.only", "ivy.both"] {
                let answer = try await Self.post(server, try await apple.notification("consent-revoked", subject: subject))
                #expect(answer.status == 200 && answer.text == "{}", "\(answer.text)")
            }
            let appleOnlyWorks = try await Self.sessionWorks(appleOnly), withPasswordWorks = try await Self.sessionWorks(withPassword)
            #expect(!appleOnlyWorks && !withPasswordWorks, "every session ended")
            let only = try await Self.user(server, appleOnly.userRecordName)
            #expect(only?.apple?.subject == "ivy.only" && only?.apple?.refreshToken == nil,
                    "an Apple-only account keeps its link (signing in again returns to it); its revoked token is forgotten")
            #expect(try await Self.user(server, withPassword.userRecordName)?.apple == nil, "unlinked: the password remains")
            let again = try AppleSignInTests.caller(server, try await AppleSignInTests.signIn(server, try await apple.token(subject: "ivy.only")))
            #expect(again.userRecordName == appleOnly.userRecordName)
            #expect(apple.revocations.isEmpty, "Apple revoked the tokens itself")
        }
    }

    @Test func accountDeleteDeletesAnAppleOnlyAccountAndUnlinksAnother() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let (appleOnly, withPassword) = try await Self.twoAccounts(server, apple, "jay")
            #expect(try await Self.post(server, try await apple.notification("account-delete", subject: "jay.only")).status == 200)
            #expect(try await Self.post(server, try await apple.notification("account-deleted", subject: "jay.both")).status == 200)

            #expect(try await Self.user(server, appleOnly.userRecordName) == nil, "deleted as account/delete deletes it")
            #expect(try await !Self.sessionWorks(appleOnly))
            let refreshToken = try #require(apple.exchanges.first?.refreshToken)
            #expect(try await AppleRevocationTests.revocations(apple, answered: 1, server: server).map(\.token) == [refreshToken])

            let kept = try await Self.user(server, withPassword.userRecordName)
            #expect(kept != nil && kept?.apple == nil, "unlinked, not deleted")
            #expect(try await Self.sessionWorks(withPassword))
        }
    }

    @Test func relayMailStopsAndResumesAndEachEventCountsOnce() async throws {
        try await AppleSignInTests.withServer { server, apple in
            let relay = "k7x2@privaterelay.appleid.com"
            _ = try await AppleSignInTests.signIn(server, try await apple.token(subject: "kim.relay", email: relay))
            let storage = server.server.services.storage
            /// Whether a mail to the relay address is written to the outbox (and takes it out again).
            @Sendable func mailIsWritten() async throws -> Bool {
                try await storage.write { transaction in
                    try await MailOutbox.enqueue(StoredMail(recipient: relay, subject: "s", body: "b", createdAt: server.now), in: transaction)
                    let claimed = try await transaction.claimMail(now: server.now, leaseUntil: server.now + 1, limit: 10)
                    for mail in claimed { try await transaction.deleteMail(id: mail.id) }
                    return !claimed.isEmpty
                }
            }
            #expect(try await mailIsWritten())
            let disabled = try await apple.notification("email-disabled", subject: "kim.relay", email: relay)
            #expect(try await Self.post(server, disabled).status == 200)
            #expect(try await !mailIsWritten(), "no mail to a relay address whose forwarding is off")
            #expect(try await Self.post(server, try await apple.notification("email-enabled", subject: "kim.relay", email: relay)).status == 200)
            #expect(try await mailIsWritten())

            // Apple sends an event again: it is recognised, and changes nothing.
            #expect(try await Self.post(server, disabled).status == 200)
            #expect(try await mailIsWritten(), "a duplicate email-disabled did not stop the mail again")

            let unknown = try await Self.post(server, try await apple.notification("something-new", subject: "kim.relay"))
            #expect(unknown.status == 200 && unknown.text == "{}", "an unknown type is answered 200: \(unknown.text)")
            #expect(try await Self.post(server, try await apple.notification("consent-revoked", subject: "nobody")).status == 200,
                    "an Apple ID no account has: nothing to do")
        }
    }

    @Test func notificationsTheServerMustRefuse() async throws {
        try await AppleSignInTests.withServer { server, apple in
            try await apple.addKey("forged", publishing: false)
            let forged = try await apple.sign(notification: try apple.notificationClaims("account-delete", subject: "s"), kid: "forged")
            #expect(try await Self.post(server, ["payload": forged]).status == 401)

            var otherApp = try apple.notificationClaims("account-delete", subject: "s")
            otherApp.aud = "com.example.other"
            #expect(try await Self.post(server, ["payload": try await apple.sign(notification: otherApp)]).status == 401)

            var notApple = try apple.notificationClaims("account-delete", subject: "s")
            notApple.iss = "https://appleid.example.com"
            #expect(try await Self.post(server, ["payload": try await apple.sign(notification: notApple)]).status == 401)

            var future = try apple.notificationClaims("account-delete", subject: "s")
            future.iat += 3600
            #expect(try await Self.post(server, ["payload": try await apple.sign(notification: future)]).status == 401)

            #expect(try await Self.post(server, ["payload": "not.a.jws"]).status == 401)
            let huge = try await Self.post(server, ["payload": String(repeating: "a", count: AppleNotifications.maxRequestBytes)])
            #expect(huge.status == 413 || huge.errorCode == .badRequest, "\(huge.status) \(huge.text)")
        }
    }
}
