import StratusCore

/// Sign-in by a code mailed to the account's verified address, for users without a password (or
/// who forgot it): `email/code` `{"email"}` mails a six-digit code, `email/signin`
/// `{"email", "code"}` answers a session as `signin` does.
///
/// `email/code` answers the same for every address, with the same seal and write (a decoy where
/// no mail goes), so nothing tells who has an account; only a verified address of an enabled
/// account gets a sign-in code. The code is the account's proof code (``MailedCode``,
/// ``UserCodePurpose/proof``): ten minutes, five tries, once, and also good as
/// `account/reauthenticate`'s `emailCode`. With ``allowsSignUp`` (`serve --email-code-signup`), an
/// address no account has gets a code that makes an account for it on first use, its address
/// verified by that code. Codes are bounded as every mailed code is (``MailedCodeLimits``: per
/// address, per client address, wrong tries per client address) and sign-ins throttled per client
/// address as passwords are.
package struct EmailCodeSignIn: Sendable {
    let storage: any StratusStorage
    /// Where codes are mailed through; nil when the server sends no mail.
    let outbox: MailOutbox?
    let limiter: RateLimiter
    let auth: AuthService
    /// Whether a code to an address no account has makes an account (`--email-code-signup`).
    let allowsSignUp: Bool
    let clock: ServerClock

    /// How long a sign-in code works.
    static let codeLifetime: Duration = .seconds(10 * 60)

    /// `email/code`: mails a sign-in code to `email` if an account of the container verified it
    /// (or a sign-up code, where allowed, if no account has it).
    package func requestCode(email: String, containerID: String, client: String) async throws {
        let email = email.lowercased()
        try AuthService.validateEmail(email)
        guard let outbox else { throw CloudKitError.badRequest("this server sends no mail: sign in another way") }
        try await MailedCodeLimits(limiter: limiter).chargeCode(to: email, containerID: containerID, client: client, verification: false)
        let owner = try await storage.read { try await $0.user(containerID: containerID, email: email) }
        let account = owner.flatMap { $0.emailVerified && $0.disabledAt == nil ? $0 : nil }
        let signsUp = owner == nil && allowsSignUp
        // The same seal and write whether or not a code is sent (a decoy sealed for the container).
        let container = KeyScope.container(containerID)
        let sealer = try await outbox.keys.sealer(for: account.map { .user($0.userRecordName) } ?? container, orElse: container)
        let now = clock.milliseconds
        try await storage.write { transaction in
            if let account {
                try await MailedCode.issue(to: account.userRecordName, at: email, for: .proof, lifetime: Self.codeLifetime, now: now, mail: { code in
                    ("Your sign-in code: \(code)", "Enter this code to sign in as \(account.username): \(code)\n\nIt is valid for 10 minutes, once. "
                        + "If you did not ask for it, ignore this mail: nobody can sign in without the code.\n")
                }, sealedWith: sealer, in: transaction)
            } else if signsUp {
                try await MailedCode.issue(to: MailedCode.signUpHolder(email: email, containerID: containerID), at: email, for: .signUp,
                                           lifetime: Self.codeLifetime, now: now, mail: { code in
                    ("Your sign-up code: \(code)", "Enter this code to create your account: \(code)\n\nIt is valid for 10 minutes, once. "
                        + "If you did not ask for it, ignore this mail: no account is made without the code.\n")
                }, sealedWith: sealer, in: transaction)
            } else {
                try await MailOutbox.enqueue(StoredMail(recipient: email, subject: "", body: "", isDecoy: true,
                                                        codeExpiresAt: now + Self.codeLifetime.milliseconds, createdAt: now),
                                             sealedWith: sealer, in: transaction)
            }
        }
        outbox.nudge()
    }

    /// `email/signin`: a session for the account whose verified address got the code (or a new
    /// account, for a sign-up code). A wrong, used or expired code is `AUTHENTICATION_FAILED`.
    package func signIn(email: String, code: String, containerID: String, environment: ContainerEnvironment,
                        from origin: SessionOrigin) async throws -> SignInResponse {
        let email = email.lowercased()
        guard email.utf8.count <= 255, code.utf8.count <= 16 else { throw CloudKitError.badRequest("email is limited to 255 bytes and code to 16") }
        let limits = MailedCodeLimits(limiter: limiter)
        try await limits.chargeTry(client: origin.client)
        try await auth.throttleSignIn(from: origin.client)
        let owner = try await storage.read { try await $0.user(containerID: containerID, email: email) }
        if owner == nil, allowsSignUp { try await auth.throttleSignUp(from: origin.client) }
        let now = clock.milliseconds
        // A wrong code spends a try, kept: the transaction commits and answers nil.
        let response: SignInResponse? = try await storage.write { [auth] transaction in
            if let user = try await transaction.user(containerID: containerID, email: email) {
                guard user.emailVerified,
                      case .right = try await MailedCode.check(code, user: user.userRecordName, for: .proof, now: now, in: transaction) else { return nil }
                return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
            }
            guard allowsSignUp, case .right = try await MailedCode.check(code, user: MailedCode.signUpHolder(email: email, containerID: containerID),
                                                                          for: .signUp, now: now, in: transaction) else { return nil }
            let user = StoredUser(userRecordName: SecretGenerator.userRecordName(), containerID: containerID,
                                  username: "email-" + SecretGenerator.typedCode().lowercased().replacingOccurrences(of: "-", with: ""),
                                  passwordHash: "", createdAt: now, email: email, emailVerified: true)
            try await transaction.insertUser(user)
            return try await auth.openSession(for: user, environment: environment, from: origin, in: transaction)
        }
        guard let response else {
            throw CloudKitError(.authenticationFailed, "the code is wrong, used or expired: ask for a new one with email/code")
        }
        await limits.refundTry(client: origin.client)
        return response
    }
}
