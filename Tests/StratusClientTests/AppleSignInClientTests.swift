import Foundation
import StratusClient
import Testing
@testable import StratusServer
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
                #expect(try await laptop.signIn(appleIdentityToken: try await apple.token(subject: "001.dana", nonce: "n2"), nonce: "n2") == dana,
                        "the same Apple ID is the same user")
                await #expect { try await laptop.signIn(appleIdentityToken: token, nonce: "raw-nonce") } throws: { error in
                    (error as? CloudError)?.code == .notAuthenticated
                }
                await #expect { try await laptop.signIn(appleIdentityToken: try await apple.token(subject: "001.dana", nonce: "n3"), nonce: "another nonce") } throws: { error in
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

    /// An app sends the authorization code with the token; deleting the account, confirmed with a
    /// fresh credential, revokes the refresh token at Apple.
    @Test func deletingTheAccountRevokesItsAppleToken() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestCloud.with(configure: apple.configure) { cloud in
                let phone = await cloud.container()
                let code = apple.authorizationCode(for: "003.gus")
                let gus = try await phone.signIn(appleIdentityToken: try await apple.token(subject: "003.gus"), authorizationCode: code)
                let refreshToken = try #require(apple.exchanges.first { $0.code == code }?.refreshToken)
                try await phone.reauthenticate(appleIdentityToken: try await apple.token(subject: "003.gus"))
                try await phone.deleteAccount()
                await #expect(throws: CloudError.self, "signed out") { try await phone.currentUserRecordName() }
                for _ in 0..<600 where !apple.revocations.contains(where: { $0.token == refreshToken && $0.answered }) {
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(apple.revocations.filter(\.answered).map(\.token) == [refreshToken])
                #expect(try await cloud.container().signIn(appleIdentityToken: try await apple.token(subject: "003.gus")) != gus,
                        "the account is gone: the Apple ID signs up anew")
            }
        }
    }

    /// The account centre through the SDK: methods and sessions, one device signed out, and a
    /// change that needs fresh proof told apart from a failed sign-in.
    @Test(.enabled(if: TestCloud.runsServerInProcess, "moves the server's clock")) func theAccountCentre() async throws {
        try await AppleTestIssuer.with { apple in
            try await TestCloud.with(configure: apple.configure) { cloud in
                let phone = await cloud.container()
                let name = "frank-\(UUID().uuidString.prefix(6))"
                try await phone.signUp(username: name, password: "frank's password")
                let laptop = await cloud.container()
                try await laptop.signIn(username: name, password: "frank's password")

                let account = try await phone.account()
                #expect(account.username == name && account.signInMethods == ["password"] && account.sessions.count == 2)
                let other = try #require(account.sessions.first { !$0.isCurrent })
                try await phone.signOut(sessionID: other.id)
                await #expect { _ = try await laptop.privateCloudDatabase.allRecordZones() } throws: { error in
                    (error as? CloudError)?.code == .notAuthenticated
                }

                // Six minutes later the sign-in is no longer fresh proof.
                await cloud.advanceServerClock(by: .seconds(6 * 60))
                await #expect { try await phone.linkAppleID(identityToken: try await apple.token(subject: "003.frank")) } throws: { error in
                    (error as? CloudError)?.freshProofMethods == ["password"]
                }
                try await phone.reauthenticate(password: "frank's password")
                try await phone.linkAppleID(identityToken: try await apple.token(subject: "003.frank"))
                #expect(try await phone.account().signInMethods == ["password", "apple"])
            }
        }
    }
}
