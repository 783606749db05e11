import Foundation
import HTTPTypes
import Testing
import StratusCore
@testable import StratusServer

/// Behind a trusted reverse proxy the client is the address it forwards for, walked from the
/// right of `X-Forwarded-For` (or `Forwarded`) past trusted proxies; from any other peer the
/// headers count for nothing.
@Suite struct TrustedProxyTests {
    static let proxies = ["10.0.0.0/8", "2001:db8::/32"].compactMap(IPAddressBlock.init)

    static func client(_ peer: String, _ fields: [(String, String)], header: ProxyHeader? = nil) -> String {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let header = header ?? (fields.contains { $0.0 == "Forwarded" } ? .forwarded : .xForwardedFor)
        return ClientAddressMiddleware.client(peer: peer, headers: headers, header: header, trusting: proxies)
    }

    @Test func blocksAndAddressesParse() throws {
        let block = try #require(IPAddressBlock("10.1.0.0/16"))
        #expect(block.contains(try #require(IPAddress("10.1.255.3"))))
        #expect(!block.contains(try #require(IPAddress("10.2.0.1"))))
        #expect(try #require(IPAddressBlock("0.0.0.0/0")).contains(try #require(IPAddress("192.0.2.1"))))
        #expect(try #require(IPAddressBlock("2001:db8::/32")).contains(try #require(IPAddress("2001:db8:1::5"))))
        #expect(try #require(IPAddressBlock("::ffff:10.0.0.0/104")).contains(try #require(IPAddress("10.9.9.9"))))
        #expect(IPAddress("::ffff:192.0.2.7")?.description == "192.0.2.7", "one client, one spelling")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        for bad in ["10.0.0.0/33", "example.com", "10.0.0.0/", "10.0.0/8", "::1/129", ""] { #expect(IPAddressBlock(bad) == nil, "\(bad)") }
    }

    @Test func theClientIsTheFirstUntrustedAddressFromTheRight() {
        // A direct client: its headers are its own to forge.
        #expect(Self.client("192.0.2.9", [("X-Forwarded-For", "203.0.113.1")]) == "192.0.2.9")
        // Through one trusted proxy.
        #expect(Self.client("10.0.0.2", [("X-Forwarded-For", "203.0.113.1")]) == "203.0.113.1")
        // A forged left-most entry changes nothing: the proxy appended the real address.
        #expect(Self.client("10.0.0.2", [("X-Forwarded-For", "198.51.100.66, 203.0.113.1")]) == "203.0.113.1")
        // Two trusted hops, two header lines.
        #expect(Self.client("10.0.0.2", [("X-Forwarded-For", "198.51.100.66, 203.0.113.1"), ("X-Forwarded-For", "10.3.3.3")]) == "203.0.113.1")
        // Every entry trusted: the left-most; an unreadable one: the trusted hop that wrote it.
        #expect(Self.client("10.0.0.2", [("X-Forwarded-For", "10.4.4.4")]) == "10.4.4.4")
        #expect(Self.client("10.0.0.2", [("X-Forwarded-For", "unknown")]) == "10.0.0.2")
        // RFC 7239, quoted, bracketed, with ports.
        #expect(Self.client("10.0.0.2", [("Forwarded", #"for=198.51.100.66, for="[2001:db8:cafe::17]:4711";proto=https, for=10.5.5.5"#)])
                == "198.51.100.66", "2001:db8:cafe::17 is a trusted proxy here")
        #expect(Self.client("10.0.0.2", [("Forwarded", #"for="203.0.113.43:47011""#)]) == "203.0.113.43")
        // Without a trusted peer, nothing is read.
        #expect(ClientAddressMiddleware.client(peer: "10.0.0.2", headers: [ClientAddressMiddleware.forwardedFor: "203.0.113.1"],
                                               header: .xForwardedFor, trusting: []) == "10.0.0.2")
    }

    /// Only the header the operator names is read: behind a proxy that writes `Forwarded`, the
    /// client's own `X-Forwarded-For` (passed on untouched) decides nothing, and the other way round.
    @Test func onlyTheNamedHeaderIsRead() {
        let forged = ("X-Forwarded-For", "198.51.100.66")
        let written = ("Forwarded", "for=203.0.113.1")
        #expect(Self.client("10.0.0.2", [forged, written], header: .forwarded) == "203.0.113.1")
        #expect(Self.client("10.0.0.2", [forged], header: .forwarded) == "10.0.0.2", "no Forwarded: the proxy is the client")
        #expect(Self.client("10.0.0.2", [written, ("X-Forwarded-For", "203.0.113.1")], header: .xForwardedFor) == "203.0.113.1")
        #expect(Self.client("10.0.0.2", [("Forwarded", "for=198.51.100.66")], header: .xForwardedFor) == "10.0.0.2")
        // X-Real-IP: one address, the proxy's line (the last); a client's own line before it counts for nothing.
        #expect(Self.client("10.0.0.2", [("X-Real-IP", "203.0.113.9")], header: .xRealIP) == "203.0.113.9")
        #expect(Self.client("10.0.0.2", [("X-Real-IP", "198.51.100.66"), ("X-Real-IP", "203.0.113.9")], header: .xRealIP) == "203.0.113.9")
        #expect(Self.client("10.0.0.2", [forged], header: .xRealIP) == "10.0.0.2")
        #expect(Self.client("192.0.2.9", [("X-Real-IP", "203.0.113.9")], header: .xRealIP) == "192.0.2.9", "an untrusted peer's header is its own")
    }

    /// Through the server with `--proxy-header forwarded`: wrong passwords under forged
    /// `X-Forwarded-For` addresses all count against the address `Forwarded` names.
    @Test func forgedXForwardedForBehindAForwardedProxyIsThrottled() async throws {
        try await TestServer.with(configure: {
            $0.trustedProxies = [IPAddressBlock("127.0.0.1")!]
            $0.proxyHeader = .forwarded
            $0.clock = ServerClock(stoppedAt: Date())
        }) { server in
            _ = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                Credentials(username: "owner", password: "right-password")).decode(SignInResponse.self)
            var codes: [ServerErrorCode?] = []
            for guess in 0..<12 {
                let result = try await server.anonymous.send(.POST, Self.signin, body: try JSONEncoder().encode(Credentials(username: "owner", password: "guess-\(guess)")),
                                                             headers: [("X-Forwarded-For", "198.51.100.\(guess)"), ("Forwarded", "for=203.0.113.7")])
                codes.append(result.errorCode)
            }
            #expect(codes.prefix(10).allSatisfy { $0 == .authenticationFailed } && codes.suffix(2).allSatisfy { $0 == .throttled }, "\(codes)")
        }
    }

    /// Through the server: a proxy on loopback forwards for two clients, and one client's wrong
    /// passwords throttle that client only; with no proxy configured, forged headers separate nothing.
    @Test func clientsBehindAProxyAreThrottledApart() async throws {
        // The server's clock stands still: no bucket refills mid-test, however slow the machine.
        try await TestServer.with(configure: {
            $0.trustedProxies = [IPAddressBlock("127.0.0.1")!]
            $0.clock = ServerClock(stoppedAt: Date())
        }) { server in
            _ = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                Credentials(username: "owner", password: "right-password")).decode(SignInResponse.self)
            var codes: [ServerErrorCode?] = []
            for guess in 0..<12 { codes.append(try await Self.attempt(server, from: "198.51.100.7", password: "guess-\(guess)").errorCode) }
            #expect(codes.prefix(10).allSatisfy { $0 == .authenticationFailed } && codes.suffix(2).allSatisfy { $0 == .throttled }, "\(codes)")
            #expect(try await Self.attempt(server, from: "198.51.100.7", password: "right-password").errorCode == .throttled)
            let owner = try await Self.attempt(server, from: "203.0.113.5", password: "right-password")
            #expect(owner.status == 200, "the owner, from their own address, signs in: \(owner.text)")
        }
        try await TestServer.with(configure: { $0.clock = ServerClock(stoppedAt: Date()) }) { server in
            _ = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                Credentials(username: "owner", password: "right-password")).decode(SignInResponse.self)
            for guess in 0..<10 { _ = try await Self.attempt(server, from: "198.51.100.\(guess)", password: "guess-\(guess)") }
            #expect(try await Self.attempt(server, from: "203.0.113.5", password: "right-password").errorCode == .throttled,
                    "without --trusted-proxy the header is the caller's own: every caller here is 127.0.0.1")
        }
    }

    /// An attacker with many addresses: once the account's failures across addresses are spent,
    /// each address that failed is refused, a new one gets a single guess, and the owner from an
    /// address that never failed still signs in.
    @Test func anAttackerFromManyAddressesStaysSlowAndTheOwnerGetsIn() async throws {
        try await TestServer.with(configure: { configuration in
            configuration.trustedProxies = [IPAddressBlock("127.0.0.1")!]
            configuration.signInFailuresPerAccountAndAddress = RateRule(burst: 3, perSecond: 0.0001)
            configuration.signInFailuresPerAccount = RateRule(burst: 6, perSecond: 0.0001)
        }) { server in
            @Sendable func attempt(from address: String, password: String) async throws -> ServerErrorCode? {
                try await Self.attempt(server, from: address, password: password).errorCode
            }
            _ = try await server.anonymous.post("/auth/1/\(TestServer.containerID)/development/signup",
                                                Credentials(username: "owner", password: "right-password")).decode(SignInResponse.self)
            var failures = 0
            for host in 1...40 {
                for guess in 0..<3 {
                    let code = try await attempt(from: "198.51.100.\(host)", password: "guess-\(host)-\(guess)")
                    if code == .authenticationFailed { failures += 1 } else { #expect(code == .throttled) }
                }
            }
            // Six within the account's limit, then one for each of the 38 or so addresses not yet seen.
            #expect(failures <= 6 + 40, "\(failures) wrong passwords were checked")
            #expect(try await attempt(from: "198.51.100.1", password: "right-password") == .throttled, "an address that failed stays refused")
            #expect(try await attempt(from: "203.0.113.5", password: "right-password") == nil, "the owner, from a clean address, gets in")
        }
    }

    static let signin = "/auth/1/\(TestServer.containerID)/development/signin"

    static func attempt(_ server: TestServer, from address: String, password: String) async throws -> HTTPResult {
        try await server.anonymous.send(.POST, signin, body: try JSONEncoder().encode(Credentials(username: "owner", password: password)),
                                        headers: [("X-Forwarded-For", address)])
    }
}
