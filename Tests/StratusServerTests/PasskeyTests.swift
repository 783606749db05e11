import Foundation
import Testing
import StratusCore
import StratusTesting
@testable import StratusServer

/// Passkeys over real HTTP, with credentials a software authenticator made (``SoftwareAuthenticator``;
/// `scripts/check-passkeys.sh` makes them with Chromium's virtual authenticator and PyPI's `fido2`
/// too): sign-up, sign-in and proof with each algorithm, registration on an account with fresh
/// proof, removal, and every check of WebAuthn §7.1 and §7.2 fed a credential that fails it.
@Suite struct PasskeyTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"
    static let origin = "http://localhost:8765"

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.webAuthn.relyingParties[TestServer.containerID] = .init(id: "localhost", origins: [origin])
    }

    static func post(_ caller: Caller, _ path: String, _ body: Data) async throws -> HTTPResult {
        try await caller.post(path, json: String(decoding: body, as: UTF8.self))
    }

    /// The JSON of `object` with `key` set to `value` (a sign-up's username, a passkey's name).
    static func adding(_ body: Data, _ pairs: [String: String]) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        for (key, value) in pairs { object[key] = value }
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Signs up `username` with a new passkey of `authenticator`; returns the caller.
    static func signUp(_ server: TestServer, _ username: String, _ authenticator: inout SoftwareAuthenticator,
                       algorithm: SoftwareAuthenticator.Algorithm = .es256) async throws -> Caller {
        let options = try await server.anonymous.post("\(auth)/passkey/signup/options", PasskeySignUpRequest(username: username))
        #expect(options.status == 200, "\(options.text)")
        let credential = try Self.adding(try authenticator.register(options: options.body, algorithm: algorithm), ["username": username])
        let answer = try await post(server.anonymous, "\(auth)/passkey/signup", credential)
        #expect(answer.status == 200, "\(answer.text)")
        let signedIn = try answer.decode(SignInResponse.self)
        return Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName, username: username)
    }

    /// An assertion for fresh sign-in options.
    static func assertion(_ server: TestServer, _ authenticator: inout SoftwareAuthenticator, passkey: Int? = nil,
                          faults: SoftwareAuthenticator.Faults = .init()) async throws -> Data {
        let options = try await server.anonymous.post("\(auth)/passkey/signin/options", [String: String]())
        #expect(options.status == 200, "\(options.text)")
        return try authenticator.assert(options: options.body, passkey: passkey, faults: faults)
    }

    /// Each algorithm signs up, signs in again and proves who the user is; the account centre
    /// shows the passkey and its use.
    @Test(arguments: [SoftwareAuthenticator.Algorithm.es256, .ed25519, .rs256])
    func signUpSignInAndProveWithEachAlgorithm(_ algorithm: SoftwareAuthenticator.Algorithm) async throws {
        try await TestServer.with(configure: Self.configure) { server in
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            let username = "pk-\(UUID().uuidString.prefix(8))"
            let alice = try await Self.signUp(server, username, &authenticator, algorithm: algorithm)

            let signIn = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &authenticator))
            #expect(signIn.status == 200, "\(signIn.text)")
            let again = try signIn.decode(SignInResponse.self)
            #expect(again.userRecordName == alice.userRecordName)
            let session = Caller(server: server.endpoint, webAuthToken: again.ckWebAuthToken, userRecordName: again.userRecordName)
            #expect(try await session.get(session.path(.private, "zones/list")).status == 200)

            let account = try await session.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.username == username && account.methods == ["passkey"], "\(account)")
            #expect(account.passkeys.count == 1 && account.passkeys[0].id == authenticator.passkeys[0].id && account.passkeys[0].lastUsed != nil)

            // A passkey is proof for the account centre.
            await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
            let stale = try await session.post("\(Self.auth)/passkey/register/options", [String: String]())
            #expect(stale.status == 421 && stale.error?.methods == ["passkey"], "\(stale.text)")
            let assertion = try JSONDecoder().decode(PasskeyAssertion.self, from: try await Self.assertion(server, &authenticator))
            let proved = try await session.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(passkey: assertion))
            #expect(proved.status == 200, "\(proved.text)")
            #expect(try await session.post("\(Self.auth)/passkey/register/options", [String: String]()).status == 200)
        }
    }

    /// A password account adds passkeys with fresh proof (the options exclude those it has and keep
    /// its user handle), lists them, and removes one; a passkey that is the account's last way to
    /// sign in stays; another account's passkey is no proof.
    @Test func anAccountAddsListsAndRemovesPasskeysWithFreshProof() async throws {
        try await TestServer.with(configure: Self.configure) { server in
            let alice = try await server.signUp("alice")
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            await server.advanceClock(by: server.server.configuration.freshProofWindow + .seconds(1))
            let stale = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]())
            #expect(stale.status == 421 && stale.errorCode == .authenticationRequired, "\(stale.text)")
            #expect(try await alice.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "password-alice")).status == 200)

            let first = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]())
            let firstOptions = try first.decode(PasskeyCreationOptions.self)
            #expect(firstOptions.excludeCredentials.isEmpty && firstOptions.user.name == alice.username && firstOptions.rp.id == "localhost")
            #expect(firstOptions.pubKeyCredParams.map(\.alg) == [-7, -8, -257] && firstOptions.attestation == "none")
            #expect(Base64URL.decode(firstOptions.user.id)?.count == 64, "the user handle is 64 random bytes")
            let registered = try await Self.post(alice, "\(Self.auth)/passkey/register",
                                                 try Self.adding(try authenticator.register(options: first.body), ["name": "Laptop"]))
            #expect(registered.status == 200, "\(registered.text)")

            let second = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]()).decode(PasskeyCreationOptions.self)
            #expect(second.excludeCredentials.map(\.id) == [authenticator.passkeys[0].id] && second.user.id == firstOptions.user.id)
            let secondBody = try JSONEncoder().encode(second)
            #expect(try await Self.post(alice, "\(Self.auth)/passkey/register", try authenticator.register(options: secondBody, algorithm: .ed25519)).status == 200)

            var account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.methods == ["password", "passkey"] && account.passkeys.map(\.name).first == "Laptop" && account.passkeys.count == 2)
            let overview = try await server.server.services.admin.overview(username: try #require(alice.username), containerID: TestServer.containerID,
                                                                           environment: .development)
            #expect(overview.signInMethods.prefix(2) == ["password", "passkey \"Laptop\""], "the console lists them: \(overview.signInMethods)")
            let removed = try await alice.post("\(Self.auth)/account/passkeys/\(authenticator.passkeys[0].id)/delete", [String: String]())
            #expect(removed.status == 200, "\(removed.text)")
            account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.passkeys.map(\.id) == [authenticator.passkeys[1].id])
            let gone = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &authenticator, passkey: 0))
            #expect(gone.status == 401, "a removed passkey signs in no more: \(gone.text)")
            let unknown = try await alice.post("\(Self.auth)/account/passkeys/nothing/delete", [String: String]())
            #expect(unknown.status == 404, "\(unknown.text)")

            // A passkey-only account keeps its last passkey; another account's passkey proves nothing.
            var bobsAuthenticator = SoftwareAuthenticator(origin: Self.origin)
            let bob = try await Self.signUp(server, "pk-bob-\(UUID().uuidString.prefix(8))", &bobsAuthenticator)
            let last = try await bob.post("\(Self.auth)/account/passkeys/\(bobsAuthenticator.passkeys[0].id)/delete", [String: String]())
            #expect(last.status == 400 && last.text.contains("last way to sign in"), "\(last.text)")
            let foreign = try JSONDecoder().decode(PasskeyAssertion.self, from: try await Self.assertion(server, &authenticator))
            let notHers = try await bob.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(passkey: foreign))
            #expect(notHers.status == 401, "\(notHers.text)")

            // Deleting the account deletes its passkeys.
            #expect(try await alice.post("\(Self.auth)/account/delete", ["password": "password-alice"]).status == 200)
            let afterDeletion = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &authenticator, passkey: 1))
            #expect(afterDeletion.status == 401, "\(afterDeletion.text)")
            let rows = try await server.server.services.storage.read { try await $0.passkeys(user: try #require(alice.userRecordName)) }
            #expect(rows.isEmpty)
        }
    }

    /// Every check of a new passkey (WebAuthn §7.1), each fed a credential that fails it:
    /// `BAD_REQUEST` with the reason (`EXISTS` for a passkey registered already), and nothing stored.
    @Test func everyBadRegistrationIsRefused() async throws {
        try await TestServer.with(configure: Self.configure) { server in
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            let alice = try await Self.signUp(server, "pk-\(UUID().uuidString.prefix(8))", &authenticator)
            func faults(_ change: (inout SoftwareAuthenticator.Faults) -> Void) -> SoftwareAuthenticator.Faults {
                var faults = SoftwareAuthenticator.Faults()
                change(&faults)
                return faults
            }
            let cases: [(String, SoftwareAuthenticator.Faults, SoftwareAuthenticator.Algorithm)] = [
                ("is of type 'webauthn.get'", faults { $0.clientDataType = "webauthn.get" }, .es256),
                ("not one this server issued", faults { $0.challenge = Base64URL.encode(Data(repeating: 7, count: 121)) }, .es256),
                ("origin 'https://evil.example' is not", faults { $0.origin = "https://evil.example" }, .es256),
                ("frame of another origin", faults { $0.crossOrigin = true }, .es256),
                ("another relying party", faults { $0.rpID = "evil.example" }, .es256),
                ("did not find the user present", faults { $0.flags = 0x44 }, .es256),
                ("did not verify the user", faults { $0.flags = 0x41 }, .es256),
                ("backed up but not eligible", faults { $0.flags = 0x55 }, .es256),
                ("attestation 'packed' is not accepted", faults { $0.attestationFormat = "packed" }, .es256),
                ("is none of ES256, EdDSA and RS256", faults { $0.coseAlgorithm = -35 }, .es256),
                ("(key type 2, algorithm -8) is none of", faults { $0.coseAlgorithm = -8 }, .es256),
                ("longer than 1,023 bytes", faults { $0.credentialIDLength = 1024 }, .es256),
                ("bytes its flags do not announce", faults { $0.flags = 0x05 }, .es256),
                ("registered already", faults { $0.credentialID = authenticator.passkeys[0].id }, .ed25519),
            ]
            for (reason, fault, algorithm) in cases {
                let options = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]())
                let answer = try await Self.post(alice, "\(Self.auth)/passkey/register", try authenticator.register(options: options.body, algorithm: algorithm, faults: fault))
                let code: ServerErrorCode = reason == "registered already" ? .exists : .badRequest
                #expect(answer.errorCode == code && answer.text.contains(reason), "\(reason): \(answer.text)")
            }

            // The challenge: once only, for this ceremony and caller, unexpired.
            let options = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]())
            let credential = try authenticator.register(options: options.body)
            #expect(try await Self.post(alice, "\(Self.auth)/passkey/register", credential).status == 200)
            let replayed = try await Self.post(alice, "\(Self.auth)/passkey/register", credential)
            #expect(replayed.status == 400 && replayed.text.contains("used already"), "\(replayed.text)")
            let bobsOptions = try await server.anonymous.post("\(Self.auth)/passkey/signup/options", PasskeySignUpRequest(username: "pk-bob"))
            let forBob = try await Self.post(alice, "\(Self.auth)/passkey/register", try authenticator.register(options: bobsOptions.body))
            #expect(forBob.status == 400 && forBob.text.contains("not one this server issued"), "another caller's challenge: \(forBob.text)")
            let stale = try await alice.post("\(Self.auth)/passkey/register/options", [String: String]())
            await server.advanceClock(by: .seconds(301))
            #expect(try await alice.post("\(Self.auth)/account/reauthenticate", ReauthenticationRequest(password: "x")).status == 401)
            let expired = try await Self.post(alice, "\(Self.auth)/passkey/register", try authenticator.register(options: stale.body))
            #expect(expired.status == 421, "proof went stale first: \(expired.text)")

            let account = try await alice.get("\(Self.auth)/account").decode(AccountResponse.self)
            #expect(account.passkeys.count == 2, "only the good registrations are stored: \(account.passkeys)")
        }
    }

    /// Every check of an assertion (WebAuthn §7.2), each fed one that fails it:
    /// `AUTHENTICATION_FAILED`, and an unknown passkey, a wrong user handle and a wrong signature
    /// answered alike.
    @Test func everyBadAssertionIsRefused() async throws {
        try await TestServer.with(configure: Self.configure) { server in
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            _ = try await Self.signUp(server, "pk-\(UUID().uuidString.prefix(8))", &authenticator)
            func signIn(_ change: (inout SoftwareAuthenticator.Faults) -> Void) async throws -> HTTPResult {
                var faults = SoftwareAuthenticator.Faults()
                change(&faults)
                return try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &authenticator, faults: faults))
            }
            let cases: [(String, (inout SoftwareAuthenticator.Faults) -> Void)] = [
                ("is of type 'webauthn.create'", { $0.clientDataType = "webauthn.create" }),
                ("not one this server issued", { $0.challenge = Base64URL.encode(Data(repeating: 7, count: 57)) }),
                ("origin 'http://localhost:9999' is not", { $0.origin = "http://localhost:9999" }),
                ("frame of another origin", { $0.crossOrigin = true }),
                ("another relying party", { $0.rpID = "evil.example" }),
                ("did not find the user present", { $0.flags = 0x04 }),
                ("did not verify the user", { $0.flags = 0x01 }),
                ("backed up but not eligible", { $0.flags = 0x15 }),
            ]
            for (reason, change) in cases {
                let answer = try await signIn(change)
                #expect(answer.status == 401 && answer.errorCode == .authenticationFailed && answer.text.contains(reason), "\(reason): \(answer.text)")
            }
            let wrongSignature = try await signIn { $0.corruptSignature = true }
            let unknown = try await signIn { $0.credentialID = Base64URL.encode(Data(repeating: 1, count: 32)) }
            let wrongHandle = try await signIn { $0.userHandle = Base64URL.encode(Data(repeating: 2, count: 64)) }
            let noHandle = try await signIn { $0.userHandle = "" }
            for answer in [wrongSignature, unknown, wrongHandle, noHandle] {
                #expect(answer.status == 401 && answer.error?.reason == wrongSignature.error?.reason, "answered alike: \(answer.text)")
            }
            #expect(wrongSignature.text.contains("not accepted"))

            // A challenge works once, even when the ceremony that used it failed; a counter that
            // does not grow is a clone.
            let options = try await server.anonymous.post("\(Self.auth)/passkey/signin/options", [String: String]())
            var corrupted = SoftwareAuthenticator.Faults()
            corrupted.corruptSignature = true
            #expect(try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try authenticator.assert(options: options.body, faults: corrupted)).status == 401)
            let afterFailure = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try authenticator.assert(options: options.body))
            #expect(afterFailure.status == 401 && afterFailure.text.contains("used already"), "\(afterFailure.text)")
            let assertion = try await Self.assertion(server, &authenticator)
            #expect(try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", assertion).status == 200)
            let replayed = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", assertion)
            #expect(replayed.status == 401 && replayed.text.contains("used already"), "\(replayed.text)")
            let counted = authenticator.passkeys[0].signCount
            let cloned = try await signIn { $0.signCount = counted }
            #expect(cloned.status == 401 && cloned.text.contains("may have been cloned"), "\(cloned.text)")
            #expect(try await signIn { _ in }.status == 200)
            let registrationChallenge = try await server.anonymous.post("\(Self.auth)/passkey/signup/options", PasskeySignUpRequest(username: "pk-x"))
                .decode(PasskeyCreationOptions.self).challenge
            let otherCeremony = try await signIn { $0.challenge = registrationChallenge }
            #expect(otherCeremony.status == 401 && otherCeremony.text.contains("not one this server issued"), "\(otherCeremony.text)")
        }
    }

    /// Synced passkeys always say 0: they sign in every time. A container without a relying party
    /// refuses passkeys; bodies are bounded; a taken username is refused before the ceremony.
    @Test func countersOfZeroBoundsAndAContainerWithoutPasskeys() async throws {
        try await TestServer.with(configure: Self.configure) { server in
            var synced = SoftwareAuthenticator(origin: Self.origin, countsSignatures: false)
            let carol = try await Self.signUp(server, "pk-\(UUID().uuidString.prefix(8))", &synced)
            for _ in 0..<2 {
                let answer = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &synced))
                #expect(answer.status == 200, "\(answer.text)")
            }
            let taken = try await server.anonymous.post("\(Self.auth)/passkey/signup/options", PasskeySignUpRequest(username: try #require(carol.username)))
            #expect(taken.status == 409 && taken.errorCode == .exists, "\(taken.text)")
            let large = try await server.anonymous.post("\(Self.auth)/passkey/signin", json: "{\"id\":\"" + String(repeating: "a", count: 17 * 1024) + "\"}")
            #expect(large.errorCode == .limitExceeded, "\(large.text)")
        }
        try await TestServer.with { server in
            let refused = try await server.anonymous.post("\(Self.auth)/passkey/signin/options", [String: String]())
            #expect(refused.status == 400 && refused.text.contains("passkeys are not set up"), "\(refused.text)")
        }
    }

    /// An archive carries passkeys (public keys, not secrets): the container imported into a new
    /// store signs its users in with them, and the new store counts on from their counters.
    @Test(.timeLimit(.minutes(2)))
    func passkeysTravelInArchives() async throws {
        let archive = TestServer.temporaryDirectory()
        let (userRecordName, kept) = try await TestServer.with(configure: Self.configure) { server in
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            let user = try await Self.signUp(server, "pk-\(UUID().uuidString.prefix(8))", &authenticator)
            _ = try await server.server.services.admin.exportContainer(id: TestServer.containerID, to: archive, includingSecrets: false, includingHistory: false) { _ in }
            return (try #require(user.userRecordName), authenticator)
        }
        #expect(try ArchiveTests.lines(archive).contains(#""kind":"passkey""#))
        let target = TestServer.temporaryDirectory().appendingPathComponent("new")
        let imported = try await ServerProcess.run(["import", "--data", target.path, "--from", archive.path])
        #expect(imported.status == 0, "\(imported.output)")
        try await TestServer.with(dataDirectory: target, configure: Self.configure) { server in
            var authenticator = kept
            let answer = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin", try await Self.assertion(server, &authenticator))
            #expect(answer.status == 200 && (try? answer.decode(SignInResponse.self).userRecordName) == userRecordName, "\(answer.text)")
            let counted = authenticator.passkeys[0].signCount
            let cloned = try await Self.post(server.anonymous, "\(Self.auth)/passkey/signin",
                                             try await Self.assertion(server, &authenticator, faults: { var f = SoftwareAuthenticator.Faults(); f.signCount = counted; return f }()))
            #expect(cloned.status == 401, "the counter came along: \(cloned.text)")
        }
    }
}
