import Foundation
import Testing
import StratusCore
import StratusServer
import StratusTesting

/// An address in an invitation or in `users/discover` reaches only an account that proved it
/// receives mail there: codes are mailed through a real SMTP server (Python's aiosmtpd on
/// loopback, which `scripts/test.sh` installs from `requirements.txt`).
@Suite struct EmailVerificationTests {
    static var aiosmtpdAvailable: Bool {
        (try? ChildProcess.run("python3", ["-c", "import aiosmtpd"]).status) == 0
    }

    /// A real SMTP server on a free loopback port, printing every message it receives.
    final class MailSink: @unchecked Sendable {
        let port: Int
        private let child: ChildProcess
        private let lock = NSLock()
        private var text = ""
        /// Signalled when the reader has read the server's output to its end.
        private let outputEnded = DispatchSemaphore(value: 0)

        init() throws {
            port = try Self.freePort()
            child = try ChildProcess("python3", ["-u", "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Debugging"])
            Thread.detachNewThread { [child, lock, outputEnded] in
                while let chunk = child.readChunk() {
                    lock.withLock { self.text += chunk }
                }
                outputEnded.signal()
            }
        }

        func stop() {
            child.send(SIGKILL)
            outputEnded.wait()
            child.wait()
        }

        /// Waits until it is listening.
        func ready() async throws {
            for _ in 0..<100 {
                if let socket = LoopbackSocket.connect(port: port) {
                    close(socket)
                    return
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw TestFailure("aiosmtpd did not start")
        }

        /// The messages mailed to an address so far, oldest first.
        func messages(to address: String) -> [String] {
            lock.withLock { text }.components(separatedBy: "---------- MESSAGE FOLLOWS ----------").filter { $0.contains("To: <\(address)>") }
        }

        /// The verification codes mailed to an address so far, oldest first.
        func codes(to address: String) -> [String] {
            messages(to: address).compactMap { message in
                message.range(of: #"code: \d{6}"#, options: .regularExpression).map { String(message[$0].suffix(6)) }
            }
        }

        static func freePort() throws -> Int {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
                }
            }
            guard bound else { throw TestFailure("no free port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

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

    @Test(.enabled(if: aiosmtpdAvailable, "needs the aiosmtpd package (scripts/test.sh installs it)"))
    func anUnverifiedAddressReachesNobody() async throws {
        let sink = try MailSink()
        defer { sink.stop() }
        try await sink.ready()
        try await TestServer.with(configure: { $0.smtp = SMTPMailer(host: "127.0.0.1", port: sink.port, from: "stratus@example.com") }) { server in
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
            for _ in 0..<50 where sink.codes(to: "victim@example.com").count < 2 { try await Task.sleep(for: .milliseconds(100)) }
            let codes = sink.codes(to: "victim@example.com")
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
}
