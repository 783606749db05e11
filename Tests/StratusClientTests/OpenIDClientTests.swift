import Foundation
import StratusClient
import StratusServer
import StratusTesting
import Testing

/// The SDK's OpenID Connect calls against the real server, with ID tokens from a provider on a
/// loopback port (every token the server must refuse is `OpenIDTests` in the server's suite).
@Suite struct OpenIDClientTests {
    @Test func signInLinkProveAndUnlinkAProvider() async throws {
        try await OpenIDTestProvider.with { provider in
            try await TestCloud.with(configure: { provider.configure(&$0, signUp: true) }) { cloud in
                let nonce = UUID().uuidString
                let phone = await cloud.container()
                let hana = try await phone.signIn(provider: "corp",
                                                  idToken: try await provider.idToken(provider.claims(subject: "hana", email: "hana@example.com", nonce: nonce)),
                                                  nonce: nonce)
                _ = try await phone.privateCloudDatabase.allRecordZones()
                var account = try await phone.account()
                #expect(account.userRecordName == hana && account.signInMethods == ["oidc:corp"])
                #expect(account.providers.map(\.id) == ["corp"] && account.providers[0].email == "hana@example.com" && account.providers[0].isEmailVerified)

                let laptop = await cloud.container()
                #expect(try await laptop.signIn(provider: "corp", idToken: try await provider.idToken(provider.claims(subject: "hana", nonce: nonce)),
                                                nonce: nonce) == hana)
                await #expect { try await laptop.unlinkProvider("corp") } throws: { error in
                    (error as? CloudError)?.code == .invalidArguments
                }

                // Another user links the provider to their password account, proves it with the provider, and unlinks it.
                let desk = await cloud.container()
                _ = try await desk.signUp(username: "ivo-\(UUID().uuidString.prefix(6))", password: "password-ivo")
                try await desk.linkProvider("corp", idToken: try await provider.idToken(provider.claims(subject: "ivo", nonce: nonce)), nonce: nonce)
                account = try await desk.account()
                #expect(account.signInMethods == ["password", "oidc:corp"])
                try await desk.reauthenticate(provider: "corp", idToken: try await provider.idToken(provider.claims(subject: "ivo", nonce: nonce)),
                                              nonce: nonce)
                try await desk.unlinkProvider("corp")
                #expect(try await desk.account().providers.isEmpty)
                await #expect { try await cloud.container().signIn(provider: "corp", idToken: "not.a.token", nonce: nonce) } throws: { error in
                    (error as? CloudError)?.code == .notAuthenticated
                }
            }
        }
    }
}
