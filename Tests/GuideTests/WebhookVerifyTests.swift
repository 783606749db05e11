import Foundation
import Testing

/// docs/webhooks.md's Swift receiver check (`verifyWebhook`, generated from the guide) against
/// Standard Webhooks' test vector, a rotation's two entries, a changed body and a stale timestamp.
@Suite struct WebhookVerifyTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let id = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let body = Data(#"{"test": 2432232314}"#.utf8)
    static let sent = Date(timeIntervalSince1970: 1614265330)

    @Test func theGuidesVerifierAcceptsTheStandardsVectorAndNothingElse() {
        let signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        #expect(verifyWebhook(secret: Self.secret, id: Self.id, timestamp: "1614265330", signatures: signature, body: Self.body, now: Self.sent))
        #expect(verifyWebhook(secret: Self.secret, id: Self.id, timestamp: "1614265330", signatures: "v1,AAAA " + signature, body: Self.body,
                              now: Self.sent), "any matching entry of a rotation")
        #expect(!verifyWebhook(secret: Self.secret, id: Self.id, timestamp: "1614265330", signatures: signature, body: Data("{}".utf8), now: Self.sent))
        #expect(!verifyWebhook(secret: Self.secret, id: Self.id, timestamp: "1614265330", signatures: signature, body: Self.body,
                               now: Self.sent.addingTimeInterval(301)), "more than five minutes off")
    }
}
