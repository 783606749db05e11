import Foundation
import Testing
import StratusCore
import StratusServer
import StratusTesting

/// An address in an invitation or in `users/discover` reaches only an account that proved it
/// receives mail there: codes are mailed through a real SMTP server (Python's aiosmtpd on
/// loopback, see ``MailSink``).
@Suite struct EmailVerificationTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"

    /// A line break in an address would end the mail's `To:` header (or the SMTP command) and
    /// start the sender's own: refused at the API, and by the mailer should one get past it.
    @Test func anEmailAddressWithAControlCharacterIsRefused() async throws {
        try await TestServer.with { server in
            let signup = "/auth/1/\(TestServer.containerID)/development/signup"
            for (index, email) in ["a@b.example\r\nBcc: c@d.example", "a@b.example\nRCPT TO:<c@d.example>", "a\t@b.example",
                                   "a\u{0}@b.example", "a@b.example\u{85}", "<a@b.example>"].enumerated() {
                let answer = try await server.anonymous.post(signup, Credentials(username: "mail\(index)", password: "password-1", email: email))
                #expect(answer.errorCode == .badRequest, "\(email.debugDescription): \(answer.text)")
            }
            let users = try await server.server.services.storage.read { try await $0.users(containerID: TestServer.containerID, matching: nil, limit: 100) }
            #expect(!users.contains { $0.username.hasPrefix("mail") })
        }
        let mailer = SMTPMailer(host: "127.0.0.1", port: 9, from: "stratus@localhost")
        do {
            try await mailer.send(to: "a@b.example\r\nBcc: c@d.example", subject: "code", body: "1")
            Issue.record("the mailer sent to an address with CR LF")
        } catch let error as CloudKitError {
            #expect(error.code == .badRequest, "refused before connecting: \(error)")
        }
    }

    @Test(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
    func anUnverifiedAddressReachesNobody() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        try await sink.ready()
        try await TestServer.with(configure: { $0.smtp = sink.mailer() }) { server in
            // Mallory claims the victim's address first; the claim blocks no one.
            let mallory = try await server.anonymous.post("\(Self.auth)/signup",
                                                          Credentials(username: "mallory", password: "mallory-password", email: "victim@example.com",
                                                                      discoverable: true)).decode(SignInResponse.self)
            let victim = try await server.anonymous.post("\(Self.auth)/signup",
                                                         Credentials(username: "victim", password: "victim-password", email: "victim@example.com",
                                                                     discoverable: true)).decode(SignInResponse.self)
            let alice = try await server.signUp("alice")
            try await alice.createZone("Z")
            _ = try await alice.save([RecordOperation(.create, SharingTests.record("root"))], zone: "Z")
            func invite(_ name: String) async throws -> [RecordResult] {
                var share = Record(recordName: name, recordType: ShareKeys.recordType)
                share.shareKeys = ShareKeys(forRecord: RecordPointer(recordName: "root"), participants: [
                    ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: "victim@example.com")), permission: .readOnly),
                ])
                return try await alice.modify([RecordOperation(.create, share)], zone: "Z", owner: nil)
            }
            func discover() async throws -> [String] {
                let request = UserDiscoveryRequest(lookupInfos: [LookupInfo(emailAddress: "victim@example.com")])
                return try await alice.post(alice.path(.public, "users/discover"), request).decode(UserIdentitiesResponse.self).users.compactMap(\.userRecordName)
            }
            #expect(try await invite("s1").first?.error?.serverErrorCode == .badRequest, "an unverified address matches no one")
            #expect(try await discover().isEmpty)

            // Both got a code by mail; the victim proves the address, Mallory cannot guess it.
            let codes = try await sink.codes(to: "victim@example.com", atLeast: 2)
            #expect(codes.count == 2)
            let malloryCaller = Caller(server: server.endpoint, webAuthToken: mallory.ckWebAuthToken, userRecordName: mallory.userRecordName)
            let victimCaller = Caller(server: server.endpoint, webAuthToken: victim.ckWebAuthToken, userRecordName: victim.userRecordName)
            let guess = try await malloryCaller.post("\(Self.auth)/email/verify", ["code": "000000" == codes.first ? "111111" : "000000"])
            #expect(guess.status == 400)
            let wrong = try await victimCaller.post("\(Self.auth)/email/verify", ["code": codes[1] == "999999" ? "999998" : "999999"])
            #expect(wrong.status == 400 && wrong.errorCode == .badRequest)
            let right = try await victimCaller.post("\(Self.auth)/email/verify", ["code": codes[1]])
            #expect(right.status == 200, "\(right.text)")

            #expect(try await discover() == [victim.userRecordName])
            let shared = try #require(try await invite("s2").first?.record)
            #expect(shared.shareKeys?.participants?.contains { $0.participantId == victim.userRecordName } == true)
            #expect(shared.shareKeys?.participants?.contains { $0.participantId == mallory.userRecordName } == false)
            // Mallory's own (correct) code no longer verifies: the address belongs to the victim now.
            let late = try await malloryCaller.post("\(Self.auth)/email/verify", ["code": codes[0]])
            #expect(late.errorCode == .exists)
        }
    }

    /// Codes are bounded by address, not only by account: ten sign-ups claiming one address mail
    /// it three verification codes, and one client address's wrong codes are throttled after
    /// twenty, whichever accounts they are tried on.
    @Test(.enabled(if: MailSink.isAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
    func codesAreBoundedPerEmailAndClientAddressAcrossAccounts() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        try await sink.ready()
        try await TestServer.with(configure: { $0.smtp = sink.mailer() }) { server in
            var callers: [Caller] = []
            for index in 0..<10 {
                let answer = try await server.anonymous.post("\(Self.auth)/signup",
                                                             Credentials(username: "claimer\(index)", password: "claimer-password", email: "target@example.com"))
                let signedIn = try answer.decode(SignInResponse.self)
                callers.append(Caller(server: server.endpoint, webAuthToken: signedIn.ckWebAuthToken, userRecordName: signedIn.userRecordName))
            }
            let more = try await callers[9].post("\(Self.auth)/email/send", [String: String]())
            #expect(more.errorCode == .throttled && more.error?.retryAfter != nil, "\(more.text)")
            try await sink.wait { $0.messages(to: "target@example.com").count >= 3 }
            #expect(sink.messages(to: "target@example.com").count == 3, "three verification mails an hour to one address")

            var codes: [ServerErrorCode?] = []
            for attempt in 0..<25 {
                codes.append(try await callers[attempt % callers.count].post("\(Self.auth)/email/verify", ["code": String(format: "%06d", attempt)]).errorCode)
            }
            #expect(codes.prefix(20).allSatisfy { $0 == .badRequest } && codes.suffix(5).allSatisfy { $0 == .throttled }, "\(codes)")
        }
    }
}
