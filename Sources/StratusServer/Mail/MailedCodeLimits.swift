import StratusCore

/// The bounds on codes mailed to people (email verification, password reset), counted by the one
/// ``RateLimiter`` across accounts and instances, so that neither many accounts nor many requests
/// make an address a target or a code guessable:
///
/// - an email address receives at most 10 codes an hour, of every kind together, and 3
///   verification mails;
/// - a client address asks for at most 20 codes an hour, whatever the accounts and addresses;
/// - a client address gets at most 20 wrong codes an hour, on top of each code's 5 tries.
///
/// Each charge comes before anything is looked up, so a throttled answer is the same whether or
/// not an account has the address.
struct MailedCodeLimits: Sendable {
    let limiter: RateLimiter

    static let codesPerEmail = RateRule(burst: 10, perSecond: 10.0 / 3600)
    static let verificationMailsPerEmail = RateRule(burst: 3, perSecond: 3.0 / 3600)
    static let codesPerClient = RateRule(burst: 20, perSecond: 20.0 / 3600)
    static let wrongCodesPerClient = RateRule(burst: 20, perSecond: 20.0 / 3600)

    /// Charges one code mailed to `email` at the request of `client`; `THROTTLED` past a bound,
    /// with nothing charged.
    func chargeCode(to email: String, containerID: String, client: String, verification: Bool) async throws {
        let email = email.lowercased()
        var buckets = [("codes|client|\(client)", Self.codesPerClient, "codes asked for from this address"),
                       ("codes|email|\(containerID)|\(email)", Self.codesPerEmail, "codes mailed to this email address")]
        if verification {
            buckets.append(("codes|verify|\(containerID)|\(email)", Self.verificationMailsPerEmail, "verification mails to this email address"))
        }
        for (index, (key, rule, what)) in buckets.enumerated() {
            guard let wait = try await limiter.takeAcrossInstances(key, rule) else { continue }
            for (taken, rule, _) in buckets.prefix(index) { await limiter.refundAcrossInstances(taken, rule) }
            throw RateLimiter.throttled(what, wait: wait)
        }
    }

    /// Takes one try of a code from `client`'s allowance; a right code gives it back (``refundTry(client:)``).
    func chargeTry(client: String) async throws {
        try await limiter.acquireAcrossInstances("codes|tries|\(client)", Self.wrongCodesPerClient, what: "wrong codes from this address")
    }

    /// Gives back the try of a code that was right.
    func refundTry(client: String) async {
        await limiter.refundAcrossInstances("codes|tries|\(client)", Self.wrongCodesPerClient)
    }
}
