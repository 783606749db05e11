import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StratusCore
import StratusPostgreSQL
import StratusSQLite
import StratusServer
import StratusTesting

/// `stratus-bench identity`: whether an answer's timing tells who has an account. Two pairs of
/// requests, taken in turns, each from a client address of its own (behind a trusted proxy on
/// loopback, so no per-address throttle is reached) and for a name or address of its own:
///
/// - `password/forgot` for a verified address of an account, against one no account has;
/// - `signin` with the username of an account Sign in with Apple made (no password), against an
///   unknown username (the password hash at its default cost);
/// - `passkey/signin` with an assertion of a passkey no account has, against one of an account's
///   passkey with a wrong signature (each to fresh options).
///
/// Each pair's ratio of medians should be 1; its distance from 1 is the figure with a target. A good
/// passkey sign-in's median is printed beside them, what a passkey costs where a password costs a hash.
struct IdentityTimingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "identity", abstract: "Whether timing tells who has an account.")

    @Option(help: "Requests of each kind for password/forgot.") var forgotRequests = 400
    @Option(help: "Requests of each kind for signin (each costs a password hash).") var signInRequests = 100
    @Option(help: "Requests of each kind for passkey/signin.") var passkeyRequests = 300

    static let containerID = "iCloud.bench.identity"
    static let origin = "https://localhost"

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        var configuration = ServerConfiguration(dataDirectory: directory, port: 0)
        configuration.storageDrivers = [.sqlite, .postgreSQL]
        configuration.trustedProxies = [IPAddressBlock("127.0.0.1")!]
        // Mail goes nowhere (nothing listens there) and is retried an hour later: the requests never wait for it.
        var mailer = SMTPMailer(host: "127.0.0.1", port: 9, from: "bench@localhost")
        mailer.timeout = .seconds(1)
        configuration.smtp = mailer
        configuration.mailRetryInterval = .seconds(3600)
        configuration.webAuthn.relyingParties[Self.containerID] = .init(id: "localhost", origins: [Self.origin])
        let (forgotRequests, signInRequests, passkeyRequests) = (self.forgotRequests, self.signInRequests, self.passkeyRequests)
        let figures = try await InProcessServer.with(configuration, containerID: Self.containerID, logger: BenchmarkServer.quietLogger) { running in
            let storage = running.server.services.storage
            let count = max(forgotRequests, signInRequests) + 50
            try await storage.write { transaction in
                for index in 0..<count {
                    let known = StoredUser(userRecordName: "_known\(index)", containerID: Self.containerID, username: "known\(index)",
                                           passwordHash: "", createdAt: 0, email: "known\(index)@example.com", emailVerified: true)
                    try await transaction.insertUser(known)
                    try await transaction.insertUser(StoredUser(userRecordName: "_apple\(index)", containerID: Self.containerID,
                                                                username: "apple-\(index)", passwordHash: "", createdAt: 0,
                                                                apple: StoredAppleIdentity(subject: "apple.\(index)", email: nil, emailVerified: false)))
                }
            }
            let base = "\(running.baseURL)/auth/1/\(Self.containerID)/development"
            var address = 0
            func request(_ path: String, _ body: Data, refused: Bool = false) async throws -> (milliseconds: Double, answer: Data) {
                address += 1
                var request = HTTPClientRequest(url: "\(base)/\(path)?ckAPIToken=\(running.apiToken)")
                request.method = .POST
                request.headers.add(name: "X-Forwarded-For", value: "10.\(address / 65536 % 256).\(address / 256 % 256).\(address % 256)")
                request.body = .bytes(ByteBuffer(bytes: body))
                var answer = ByteBuffer()
                let seconds = try await Stopwatch.seconds {
                    let response = try await BenchmarkServer.client.execute(request, timeout: .seconds(120))
                    answer = try await response.body.collect(upTo: 1 << 20)
                    guard response.status == (refused ? .unauthorized : .ok) else {
                        throw BenchmarkError("\(path): HTTP \(response.status.code): \(String(buffer: answer))")
                    }
                }
                return (seconds * 1000, Data(buffer: answer))
            }
            func timed(_ path: String, _ body: Data) async throws -> Double {
                try await request(path, body, refused: path == "signin").milliseconds
            }
            var forgot: ([Double], [Double]) = ([], [])
            for index in -50..<forgotRequests {     // 50 warm-up rounds
                let slot = index + 50
                let known = try await timed("password/forgot", try JSONEncoder().encode(["email": "known\(slot)@example.com"]))
                let unknown = try await timed("password/forgot", try JSONEncoder().encode(["email": "nobody\(slot)@example.com"]))
                if index >= 0 { forgot.0.append(known); forgot.1.append(unknown) }
            }
            var signIn: ([Double], [Double]) = ([], [])
            for index in -5..<signInRequests {
                let slot = index + 5
                let noHash = try await timed("signin", try JSONEncoder().encode(Credentials(username: "apple-\(slot)", password: "a guess \(slot)")))
                let unknown = try await timed("signin", try JSONEncoder().encode(Credentials(username: "nobody-\(slot)", password: "a guess \(slot)")))
                if index >= 0 { signIn.0.append(noHash); signIn.1.append(unknown) }
            }
            // A passkey's sign-ins: good, of an unknown passkey, and with a wrong signature.
            var authenticator = SoftwareAuthenticator(origin: Self.origin)
            let signUpOptions = try await request("passkey/signup/options", try JSONEncoder().encode(PasskeySignUpRequest(username: "passkey-user")))
            var registration = try JSONSerialization.jsonObject(with: try authenticator.register(options: signUpOptions.answer)) as? [String: Any] ?? [:]
            registration["username"] = "passkey-user"
            _ = try await request("passkey/signup", try JSONSerialization.data(withJSONObject: registration))
            var unknownPasskey = SoftwareAuthenticator(origin: Self.origin)
            _ = try unknownPasskey.register(options: signUpOptions.answer)
            var badSignature = SoftwareAuthenticator.Faults()
            badSignature.corruptSignature = true
            var passkeys: ([Double], [Double], [Double]) = ([], [], [])
            for index in -20..<passkeyRequests {
                let unknown = try await request("passkey/signin", try unknownPasskey.assert(options: try await request("passkey/signin/options", Data("{}".utf8)).answer),
                                                refused: true).milliseconds
                let wrong = try await request("passkey/signin", try authenticator.assert(options: try await request("passkey/signin/options", Data("{}".utf8)).answer,
                                                                                         faults: badSignature), refused: true).milliseconds
                let good = try await request("passkey/signin", try authenticator.assert(options: try await request("passkey/signin/options", Data("{}".utf8)).answer))
                    .milliseconds
                if index >= 0 { passkeys.0.append(unknown); passkeys.1.append(wrong); passkeys.2.append(good) }
            }
            return (median(forgot.0), median(forgot.1), median(signIn.0), median(signIn.1), median(passkeys.0), median(passkeys.1), median(passkeys.2))
        }
        let (forgotKnown, forgotUnknown, signInNoHash, signInUnknown, passkeyUnknown, passkeyWrong, passkeyGood) = figures
        print(String(format: "password/forgot p50: %.3f ms with an account, %.3f ms without; signin p50: %.2f ms for an account without a password, %.2f ms for an unknown name",
                     forgotKnown, forgotUnknown, signInNoHash, signInUnknown))
        Report.figure("forgot_known_p50_ms", forgotKnown, decimals: 3)
        Report.figure("forgot_unknown_p50_ms", forgotUnknown, decimals: 3)
        Report.ratio("forgot_known_vs_unknown_p50", forgotKnown / forgotUnknown, of: "forgot_known_p50_ms", to: "forgot_unknown_p50_ms")
        Report.figure("forgot_timing_gap", abs(forgotKnown / forgotUnknown - 1))
        Report.figure("signin_nohash_p50_ms", signInNoHash, decimals: 3)
        Report.figure("signin_unknown_p50_ms", signInUnknown, decimals: 3)
        Report.ratio("signin_nohash_vs_unknown_p50", signInNoHash / signInUnknown, of: "signin_nohash_p50_ms", to: "signin_unknown_p50_ms")
        Report.figure("signin_timing_gap", abs(signInNoHash / signInUnknown - 1))
        print(String(format: "passkey/signin p50: %.3f ms for an unknown passkey, %.3f ms for a wrong signature, %.3f ms signed in",
                     passkeyUnknown, passkeyWrong, passkeyGood))
        Report.figure("passkey_unknown_p50_ms", passkeyUnknown, decimals: 3)
        Report.figure("passkey_wrong_signature_p50_ms", passkeyWrong, decimals: 3)
        Report.ratio("passkey_unknown_vs_wrong_signature_p50", passkeyUnknown / passkeyWrong, of: "passkey_unknown_p50_ms",
                     to: "passkey_wrong_signature_p50_ms")
        Report.figure("passkey_timing_gap", abs(passkeyUnknown / passkeyWrong - 1))
        Report.figure("passkey_signin_p50_ms", passkeyGood, decimals: 3)
    }
}
