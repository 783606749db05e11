import Foundation
import Testing
import StratusClient
import StratusServer
import StratusTesting

/// The SDK's Sign in with Apple calls against the real server, with tokens from a local issuer
/// (every token the server must refuse is `AppleSignInTests` in the server's suite).
@Suite struct AppleSignInClientTests {
    @Test func signInLinkAndUnlink() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestCloud.with(configure: apple.configure) { cloud in
                let phone = await cloud.container()
                let token = try await apple.token(subject: "001.dana", email: "dana@privaterelay.appleid.com", nonce: "raw-nonce")
                let dana = try await phone.signIn(appleIdentityToken: token, nonce: "raw-nonce")
                #expect(try await phone.currentUserRecordName() == dana)
                _ = try await phone.privateCloudDatabase.allRecordZones()

                let laptop = await cloud.container()
                #expect(try await laptop.signIn(appleIdentityToken: token) == dana, "the same Apple ID is the same user")
                await #expect { try await laptop.signIn(appleIdentityToken: token, nonce: "another nonce") } throws: { error in
                    (error as? CloudError)?.code == .notAuthenticated
                }
                await #expect(throws: CloudError.self, "an account without a password keeps its Apple ID") { try await phone.unlinkAppleID() }

                let tablet = await cloud.container()
                let erin = try await tablet.signUp(username: "erin", password: "erin's password")
                try await tablet.linkAppleID(identityToken: try await apple.token(subject: "002.erin"))
                #expect(try await cloud.container().signIn(appleIdentityToken: try await apple.token(subject: "002.erin")) == erin)
                try await tablet.unlinkAppleID()
                #expect(try await cloud.container().signIn(appleIdentityToken: try await apple.token(subject: "002.erin")) != erin)
            }
        }
    }
}
