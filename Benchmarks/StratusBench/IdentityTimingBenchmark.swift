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
///   unknown username (the password hash at its default cost).
///
/// Each pair's ratio of medians should be 1; its distance from 1 is the figure with a target.
struct IdentityTimingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "identity", abstract: "Whether timing tells who has an account.")

    @Option(help: "Requests of each kind for password/forgot.") var forgotRequests = 400
    @Option(help: "Requests of each kind for signin (each costs a password hash).") var signInRequests = 100

    static let containerID = "iCloud.bench.identity"

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
        let (forgotRequests, signInRequests) = (self.forgotRequests, self.signInRequests)
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
            func timed(_ path: String, _ body: Data) async throws -> Double {
                address += 1
                var request = HTTPClientRequest(url: "\(base)/\(path)?ckAPIToken=\(running.apiToken)")
                request.method = .POST
                request.headers.add(name: "X-Forwarded-For", value: "10.\(address / 65536 % 256).\(address / 256 % 256).\(address % 256)")
                request.body = .bytes(ByteBuffer(bytes: body))
                return try await Stopwatch.seconds {
                    let response = try await BenchmarkServer.client.execute(request, timeout: .seconds(120))
                    let answer = try await response.body.collect(upTo: 1 << 20)
                    guard response.status == .ok || path == "signin" && response.status == .unauthorized else {
                        throw BenchmarkError("\(path): HTTP \(response.status.code): \(String(buffer: answer))")
                    }
                } * 1000
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
            return (median(forgot.0), median(forgot.1), median(signIn.0), median(signIn.1))
        }
        let (forgotKnown, forgotUnknown, signInNoHash, signInUnknown) = figures
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
    }
}
