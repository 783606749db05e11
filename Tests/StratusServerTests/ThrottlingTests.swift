import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// Floods are throttled with CloudKit's `THROTTLED` (HTTP 429) and a `retryAfter`, by one rate
/// limiter: wrong passwords per account, sign-ins and sign-ups per address, requests per user;
/// and a saturated server sheds load the same way.
@Suite struct ThrottlingTests {
    static let auth = "/auth/1/\(TestServer.containerID)/development"

    @Test func aPasswordFloodIsThrottledWithinTenFailures() async throws {
        // The server's clock stands still, so the bucket does not refill (one a minute) before the
        // tenth guess however slow the machine: the verdict does not depend on its speed.
        try await TestServer.with(configure: { $0.clock = ServerClock(stoppedAt: Date()) }) { server in
            _ = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "victim", password: "right-password"))
                .decode(SignInResponse.self)
            var failures = 0
            var throttled: HTTPResult?
            for attempt in 0..<30 {
                let response = try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: "victim", password: "guess-\(attempt)"))
                if response.errorCode == .throttled {
                    throttled = response
                    break
                }
                #expect(response.errorCode == .authenticationFailed)
                failures += 1
            }
            #expect(failures <= 10, "the account was tried \(failures) times before throttling")
            let refusal = try #require(throttled)
            #expect(refusal.status == 429)
            #expect((refusal.error?.retryAfter ?? 0) >= 1)
            #expect(refusal.headers.first(name: "Retry-After") != nil)
            // While throttled, even the right password waits: the flood cannot keep guessing.
            let right = try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: "victim", password: "right-password"))
            #expect(right.errorCode == .throttled)
            // Once the retry-after has passed on the server's clock, the right password signs in.
            await server.advanceClock(by: .seconds(Int64(refusal.error?.retryAfter ?? 60) + 1))
            _ = try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: "victim", password: "right-password"))
                .decode(SignInResponse.self)
            // Other accounts are not affected.
            _ = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "other", password: "other-password"))
                .decode(SignInResponse.self)
            _ = try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: "other", password: "other-password"))
                .decode(SignInResponse.self)
        }
    }

    @Test func concurrentGuessesCannotSlipPastTheLimit() async throws {
        try await TestServer.with { server in
            _ = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "victim", password: "right-password"))
                .decode(SignInResponse.self)
            let codes = try await withThrowingTaskGroup(of: ServerErrorCode?.self) { group in
                for attempt in 0..<30 {
                    group.addTask {
                        try await server.anonymous.post("\(Self.auth)/signin", Credentials(username: "victim", password: "guess-\(attempt)")).errorCode
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.filter { $0 == .authenticationFailed }.count <= 10)
            #expect(codes.filter { $0 == .throttled }.count >= 20)
        }
    }

    @Test func signUpsPerAddressAreThrottled() async throws {
        try await TestServer.with(configure: { $0.signUpsPerAddress = RateRule(burst: 3, perSecond: 0.001) }) { server in
            for index in 0..<3 {
                _ = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "u\(index)", password: "password-\(index)"))
                    .decode(SignInResponse.self)
            }
            let fourth = try await server.anonymous.post("\(Self.auth)/signup", Credentials(username: "u3", password: "password-3"))
            #expect(fourth.status == 429 && fourth.errorCode == .throttled && (fourth.error?.retryAfter ?? 0) >= 1)
        }
    }

    @Test func signInsPerAddressAreThrottled() async throws {
        try await TestServer.with(configure: { $0.signInsPerAddress = RateRule(burst: 2, perSecond: 0.001) }) { server in
            let credentials = Credentials(username: "alice", password: "alice-password")
            _ = try await server.anonymous.post("\(Self.auth)/signup", credentials).decode(SignInResponse.self)
            for _ in 0..<2 { _ = try await server.anonymous.post("\(Self.auth)/signin", credentials).decode(SignInResponse.self) }
            let third = try await server.anonymous.post("\(Self.auth)/signin", credentials)
            #expect(third.status == 429 && third.errorCode == .throttled)
        }
    }

    @Test func requestsPerUserAreThrottled() async throws {
        try await TestServer.with(configure: { $0.requestsPerUser = RateRule(burst: 5, perSecond: 0.01) }) { server in
            let alice = try await server.signUp("alice")
            let bob = try await server.signUp("bob")
            var codes: [Int] = []
            for _ in 0..<7 { codes.append(try await alice.get(alice.path(.private, "users/current")).status) }
            #expect(codes == [200, 200, 200, 200, 200, 429, 429])
            let over = try await alice.get(alice.path(.private, "users/current"))
            #expect(over.errorCode == .throttled && (over.error?.retryAfter ?? 0) >= 1)
            #expect(try await bob.get(bob.path(.private, "users/current")).status == 200, "each user has a rate of their own")
        }
    }

    /// While `maxRequestsInFlight` requests are being handled (here two whose bodies are still
    /// arriving), another is answered `THROTTLED` with `retryAfter` at once; once they end, it is
    /// served again. (A request that never waits is over before the next one starts on two cores,
    /// so requests whose bodies trickle in are what keeps the slots taken.)
    @Test func aSaturatedServerShedsLoad() async throws {
        try await TestServer.with(configure: { $0.maxRequestsInFlight = 2 }) { server in
            let alice = try await server.signUp("alice")
            _ = try await alice.save([.create("r", ["text": .string("t")])])
            let lookup = { try await alice.post(alice.path(.private, "records/lookup"), RecordsLookupRequest(records: [.init(recordName: "r")])) }
            let path = "/database/1/\(TestServer.containerID)/development/public/records/query?ckAPIToken=\(server.apiToken)"
            // Two slow requests at a time: one already answered (shed because the other slot was
            // taken when it came, or past its deadline on a busy machine) is replaced, until a lookup
            // finds both slots held.
            var slow: [StallTests.SlowSender] = []
            var answer = try await lookup()
            #expect(answer.status == 200)
            for _ in 0..<200 where answer.status == 200 {
                slow.removeAll { !$0.received().isEmpty }
                while slow.count < 2 { slow.append(try StallTests.SlowSender(server, path: path, body: "{", declaredLength: 200)) }
                try await Task.sleep(for: .milliseconds(50))
                answer = try await lookup()
            }
            #expect(answer.status == 429 && answer.errorCode == .throttled && answer.error?.retryAfter == 1, "\(answer.text)")
            #expect(answer.error?.reason.contains("at capacity") == true, "\(answer.text)")
            slow.removeAll()
            for _ in 0..<200 where answer.status != 200 {
                try await Task.sleep(for: .milliseconds(50))
                answer = try await lookup()
            }
            #expect(answer.status == 200, "the slots are free once the slow requests end")
        }
    }

    @Test func theLimiterForgetsRefilledKeysToStayBounded() throws {
        let clock = ServerClock(stoppedAt: Date(timeIntervalSince1970: 1_000))
        let limiter = RateLimiter(maxKeys: 100, clock: clock)
        let rule = RateRule(burst: 2, perSecond: 1)
        for key in 0..<1000 {
            try limiter.acquire("k\(key)", rule, what: "test requests")
            clock.advance(by: .milliseconds(10))
        }
        #expect(limiter.keyCount <= 100)
        try limiter.acquire("hot", rule, what: "x")
        try limiter.acquire("hot", rule, what: "x")
        #expect(throws: CloudKitError.self) { try limiter.acquire("hot", rule, what: "x") }
        clock.advance(by: .seconds(1))
        try limiter.acquire("hot", rule, what: "x")
    }
}
