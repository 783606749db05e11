import Foundation
import Logging
import StratusCore

/// Users, sessions and the checks every request goes through: the container's API token, then
/// the user's web auth token where one is given or needed.
///
/// Sign-in and sign-up are throttled through the server's ``RateLimiter``, by who fails rather
/// than whom they target (``checkPassword(_:against:account:client:)``): wrong passwords per
/// account and client address, and per account across addresses; sign-ins and sign-ups per
/// client address.
package struct AuthService: Sendable {
    let storage: any StratusStorage
    let hasher: PasswordHasher
    let sessionLifetime: Duration
    let limiter: RateLimiter
    let signInFailuresPerAccountAndAddress: RateRule
    let signInFailuresPerAccount: RateRule
    let signInsPerAddress: RateRule
    let signUpsPerAddress: RateRule
    let requestsPerUser: RateRule
    let clock: ServerClock

    static let authenticationRequired = CloudKitError(.authenticationRequired, "request needs authorization: sign in and pass ckWebAuthToken")

    /// The user a web auth token belongs to, or `AUTHENTICATION_FAILED` for an unknown, expired
    /// or foreign token.
    package func user(webAuthToken: String, containerID: String, environment: ContainerEnvironment) async throws -> String {
        let hash = SecretGenerator.digest(webAuthToken)
        let session = try await storage.read { try await $0.session(tokenHash: hash) }
        return try check(session, containerID: containerID, environment: environment).userRecordName
    }

    /// Checks the API token (in constant time) and, when one is given, the web auth token, in
    /// one read: the caller's session, or nil for an API-token-only caller.
    package func authenticate(apiToken: String?, webAuthToken: String?, containerID: String,
                              environment: ContainerEnvironment) async throws -> StoredSession? {
        guard let apiToken, !apiToken.isEmpty else {
            throw CloudKitError(.authenticationFailed, "ckAPIToken is missing")
        }
        // Checked before it reaches the store (PostgreSQL refuses a NUL in text outright).
        try NameRules.validateContainerID(containerID)
        let hash = webAuthToken.map(SecretGenerator.digest)
        let (container, session) = try await storage.read { transaction in
            (try await transaction.container(id: containerID), try await hash.asyncFlatMap { try await transaction.session(tokenHash: $0) })
        }
        try Self.check(container, apiToken: apiToken, containerID: containerID)
        guard hash != nil else { return nil }
        let checked = try check(session, containerID: containerID, environment: environment)
        let now = clock.milliseconds
        if now - checked.lastUsedAt >= Self.lastUseResolution {
            // What the account centre shows; a request never fails for want of it.
            try? await storage.write { try await $0.setSessionUsed(tokenHash: checked.tokenHash, at: now) }
        }
        return checked
    }

    /// How often a session's last use is written: at most once in ten minutes.
    static let lastUseResolution: Int64 = 10 * 60 * 1000

    private static func check(_ container: StoredContainer?, apiToken: String, containerID: String) throws(CloudKitError) {
        guard let container, PasswordHasher.constantTimeEquals(Array(container.apiToken.utf8), Array(apiToken.utf8)) else {
            throw CloudKitError(.authenticationFailed, "ckAPIToken is not valid for container '\(containerID)'")
        }
    }

    private func check(_ session: StoredSession?, containerID: String, environment: ContainerEnvironment) throws(CloudKitError) -> StoredSession {
        guard let session, session.containerID == containerID, session.environment == environment else {
            throw CloudKitError(.authenticationFailed, "ckWebAuthToken is not valid")
        }
        guard session.expiresAt > clock.milliseconds else {
            throw CloudKitError(.authenticationFailed, "ckWebAuthToken has expired; sign in again")
        }
        return session
    }

    /// Charges one request to a signed-in user's rate, or throws `THROTTLED`.
    package func admitRequest(user: String, containerID: String) throws(CloudKitError) {
        try limiter.acquire("requests|\(containerID)|\(user)", requestsPerUser, what: "requests from this user")
    }

    /// Creates an account and signs it in; returns the answer and the new user (whose email
    /// address, if any, is not verified yet).
    package func signUp(_ credentials: Credentials, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> (SignInResponse, StoredUser) {
        try Self.validateUsername(credentials.username)
        try await throttleSignUp(from: origin.client)
        let user = try await newUser(credentials, containerID: containerID)
        let token = SecretGenerator.webAuthToken()
        let session = makeSession(token: token, user: user.userRecordName, containerID: containerID, environment: environment, origin: origin)
        try await storage.write { transaction in
            try await transaction.insertUser(user)
            try await transaction.insertSession(session)
        }
        return (SignInResponse(ckWebAuthToken: token, userRecordName: user.userRecordName), user)
    }

    /// A new account's row (not stored yet), after checking the credentials and hashing the password.
    func newUser(_ credentials: Credentials, containerID: String) async throws -> StoredUser {
        try Self.validate(credentials)
        return StoredUser(userRecordName: SecretGenerator.userRecordName(), containerID: containerID,
                          username: credentials.username, passwordHash: try await hashPassword(credentials.password),
                          createdAt: clock.milliseconds, email: credentials.email, discoverable: credentials.discoverable ?? false)
    }

    /// The stored hash of a new password, after checking its length.
    func hashPassword(_ password: String) async throws -> String {
        guard password.count >= 8, password.utf8.count <= 1024 else {
            throw CloudKitError.badRequest("password must be at least 8 characters long")
        }
        return try await hasher.hash(password)
    }

    /// Whether `password` is the user's, charged to the failed-sign-in limits like a sign-in from
    /// `client` (so no endpoint that checks a password lets guesses through faster).
    func verifyPassword(_ password: String, of user: StoredUser, client: String) async throws -> Bool {
        try await checkPassword(password, against: user.passwordHash, account: "\(user.containerID)|\(user.username)", client: client)
    }

    /// Whether `password` is the administrator's (false without one), throttled as sign-ins are:
    /// per address, and by failures per administrator name and address.
    func checkAdministratorPassword(_ password: String, of administrator: StoredAdministrator?, username: String,
                                    client: String) async throws -> Bool {
        try await limiter.acquireAcrossInstances("console-signin|\(client)", signInsPerAddress, what: "console sign-ins from this address")
        return try await checkPassword(password, against: administrator?.passwordHash, account: "(console)|\(username)", client: client)
    }

    /// Whether `password` matches `hash` (false without one), throttled by who fails:
    ///
    /// - each (account, client address) pair allows ``ServerConfiguration/signInFailuresPerAccountAndAddress``
    ///   wrong passwords, so one address's guesses never lock the owner out of their account;
    /// - across addresses the account allows ``ServerConfiguration/signInFailuresPerAccount``;
    ///   past it, an address that failed for the account within the hour is refused, while an
    ///   address with no failure for it may still try (once: a wrong password marks it too).
    ///
    /// Every attempt pays before the password is checked, so concurrent guesses cannot slip past
    /// a limit, and a right password gives back what it paid.
    private func checkPassword(_ password: String, against hash: String?, account: String, client: String) async throws -> Bool {
        let pair = "signin-failures|\(account)|\(client)"
        let accountKey = "signin-failures|\(account)"
        let failedHere = "signin-failed|\(account)|\(client)"
        try await limiter.acquireAcrossInstances(pair, signInFailuresPerAccountAndAddress, what: "failed sign-ins for this account from this address")
        let withinAccountLimit = try await limiter.takeAcrossInstances(accountKey, signInFailuresPerAccount) == nil
        // One token an hour: present while this address has not failed for the account lately.
        let addressWait = try await limiter.takeAcrossInstances(failedHere, Self.oneFailurePerHour)
        let cleanAddress = addressWait == nil
        if !withinAccountLimit, let addressWait {
            await limiter.refundAcrossInstances(pair, signInFailuresPerAccountAndAddress)
            throw RateLimiter.throttled("failed sign-ins for this account from this address", wait: addressWait)
        }
        // An unknown username, and an account without a password (Sign in with Apple made it), cost
        // one hash too, so timing does not tell which usernames exist or how they sign in.
        let stored = hash.flatMap { $0.isEmpty ? nil : $0 }
        guard try await hasher.verify(password, against: stored ?? unknownUserHash), stored != nil else { return false }
        await limiter.refundAcrossInstances(pair, signInFailuresPerAccountAndAddress)
        if withinAccountLimit { await limiter.refundAcrossInstances(accountKey, signInFailuresPerAccount) }
        if cleanAddress { await limiter.refundAcrossInstances(failedHere, Self.oneFailurePerHour) }
        return true
    }

    /// The bucket that remembers an address failed for an account: one token, back after an hour.
    static let oneFailurePerHour = RateRule(burst: 1, perSecond: 1.0 / 3600)

    /// Checks a username and password and opens a new session.
    ///
    /// An address that failed too often for the account is refused with `THROTTLED` before the
    /// password is even checked (``checkPassword(_:against:account:client:)``).
    package func signIn(_ credentials: Credentials, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> SignInResponse {
        // Before anything else: a username is also a rate limiter's key.
        try Self.validateUsername(credentials.username)
        try await throttleSignIn(from: origin.client)
        let user = try await storage.read { try await $0.user(containerID: containerID, username: credentials.username) }
        guard try await checkPassword(credentials.password, against: user?.passwordHash, account: "\(containerID)|\(credentials.username)",
                                      client: origin.client), let user else {
            throw CloudKitError(.authenticationFailed, "unknown username or wrong password")
        }
        return try await storage.write { transaction in
            try await transaction.deleteExpiredSessions(before: clock.milliseconds)
            return try await openSession(for: user, environment: environment, from: origin, in: transaction)
        }
    }

    /// Sign-ups from one client address, whatever their method: `THROTTLED` past the limit.
    func throttleSignUp(from client: String) async throws {
        try await limiter.acquireAcrossInstances("signup|\(client)", signUpsPerAddress, what: "sign-ups from this address")
    }

    /// Sign-ins from one client address, whatever their method: `THROTTLED` past the limit.
    func throttleSignIn(from client: String) async throws {
        try await limiter.acquireAcrossInstances("signin|\(client)", signInsPerAddress, what: "sign-ins from this address")
    }

    /// A new session for a user who proved who they are (its proof is fresh); `AUTHENTICATION_FAILED`
    /// if an administrator disabled the account.
    func openSession(for user: StoredUser, environment: ContainerEnvironment, from origin: SessionOrigin,
                     in transaction: any StorageTransaction) async throws -> SignInResponse {
        guard user.disabledAt == nil else {
            throw CloudKitError(.authenticationFailed, "this account is disabled; ask the app's administrator")
        }
        let token = SecretGenerator.webAuthToken()
        try await transaction.insertSession(makeSession(token: token, user: user.userRecordName, containerID: user.containerID,
                                                        environment: environment, origin: origin))
        return SignInResponse(ckWebAuthToken: token, userRecordName: user.userRecordName)
    }

    /// Revokes a session (its web auth token stops working).
    package func signOut(_ session: StoredSession) async throws {
        try await storage.write { try await $0.deleteSession(tokenHash: session.tokenHash) }
    }

    private func makeSession(token: String, user: String, containerID: String, environment: ContainerEnvironment,
                             origin: SessionOrigin) -> StoredSession {
        let now = clock.milliseconds
        return StoredSession(tokenHash: SecretGenerator.digest(token), userRecordName: user, containerID: containerID,
                             environment: environment, expiresAt: now + sessionLifetime.milliseconds, createdAt: now, lastUsedAt: now,
                             provenAt: now, device: origin.device, clientAddress: origin.client)
    }

    /// The username rule, checked first on every route that takes one: 1 to 64 characters, no
    /// spaces or control characters.
    static func validateUsername(_ username: String) throws(CloudKitError) {
        guard username.utf8.count <= 256, (1...64).contains(username.count),
              username.unicodeScalars.allSatisfy({ !CharacterSet.whitespacesAndNewlines.contains($0) && !CharacterSet.controlCharacters.contains($0) }) else {
            throw .badRequest("username must be 1 to 64 characters without spaces")
        }
    }

    private static func validate(_ credentials: Credentials) throws(CloudKitError) {
        try validateUsername(credentials.username)
        if let email = credentials.email { try validateEmail(email) }
    }

    /// The email address rule: one `@` with a local part and a dotted domain, at most 255 bytes,
    /// and nothing that could end a mail header or an SMTP command (spaces, control characters
    /// such as CR and LF, angle brackets).
    static func validateEmail(_ email: String) throws(CloudKitError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), email.utf8.count <= 255,
              email.unicodeScalars.allSatisfy({ !CharacterSet.whitespacesAndNewlines.contains($0) && !CharacterSet.controlCharacters.contains($0)
                                                   && $0 != "<" && $0 != ">" }) else {
            throw .badRequest("the email address is not valid: one @, no spaces, control characters or angle brackets")
        }
    }

    /// A hash no password matches (a zero salt and key) at the current cost, checked when the
    /// username is unknown.
    private var unknownUserHash: String {
        "scrypt$\(hasher.log2Cost)$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
    }
}
