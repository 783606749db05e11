import Foundation
import StratusClient
import StratusServer
import StratusTesting
import Testing

/// The SDK's passkey calls against the real server, with a software authenticator handing the
/// platform's JSON through unchanged (every credential the server must refuse is `PasskeyTests` in
/// the server's suite).
@Suite struct PasskeyClientTests {
    static let origin = "https://localhost"

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.webAuthn.relyingParties[TestCloud.containerID] = .init(id: "localhost", origins: [origin])
    }

    @Test func signUpSignInAddAndRemovePasskeys() async throws {
        try await TestCloud.with(configure: Self.configure) { cloud in
            var phoneAuthenticator = SoftwareAuthenticator(origin: Self.origin)
            let phone = await cloud.container()
            let name = "gina-\(UUID().uuidString.prefix(6))"
            let gina = try await phone.signUp(passkey: try phoneAuthenticator.register(options: try await phone.passkeySignUpOptions(username: name)),
                                              username: name)
            _ = try await phone.privateCloudDatabase.allRecordZones()

            let laptop = await cloud.container()
            #expect(try await laptop.signIn(passkey: try phoneAuthenticator.assert(options: try await laptop.passkeySignInOptions())) == gina)

            // A second passkey, from another authenticator, named; then the first one removed.
            var laptopAuthenticator = SoftwareAuthenticator(origin: Self.origin)
            try await laptop.addPasskey(try laptopAuthenticator.register(options: try await laptop.passkeyRegistrationOptions(), algorithm: .ed25519),
                                        name: "Laptop")
            var account = try await laptop.account()
            #expect(account.signInMethods == ["passkey"] && account.passkeys.map(\.name).last == "Laptop" && account.passkeys.count == 2)
            try await laptop.reauthenticate(passkey: try laptopAuthenticator.assert(options: try await laptop.passkeySignInOptions()))
            try await laptop.removePasskey(id: phoneAuthenticator.passkeys[0].id)
            account = try await laptop.account()
            #expect(account.passkeys.map(\.id) == [laptopAuthenticator.passkeys[0].id])
            await #expect(throws: CloudError.self, "the last passkey stays") { try await laptop.removePasskey(id: laptopAuthenticator.passkeys[0].id) }
            await #expect { try await cloud.container().signIn(passkey: try phoneAuthenticator.assert(options: try await laptop.passkeySignInOptions())) } throws: { error in
                (error as? CloudError)?.code == .notAuthenticated
            }
            await #expect(throws: CloudError.self, "not WebAuthn's JSON") { try await laptop.signIn(passkey: Data("{}".utf8)) }
        }
    }
}
