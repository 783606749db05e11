import Foundation
import StratusCore

/// The signed-in user's account as the server's account centre shows it: how it signs in, its
/// email address, and where it is signed in.
public struct Account: Sendable, Equatable {
    /// The user's record name (CloudKit's `userRecordID`).
    public var userRecordName: String
    /// The name the user signs in with (made up for an account Sign in with Apple created).
    public var username: String
    /// The email address the user gave, if any.
    public var email: String?
    /// Whether the user proved they receive mail at ``email``.
    public var isEmailVerified: Bool
    /// The ways the account signs in: `password`, `apple` (Sign in with Apple), `passkey`, and
    /// `oidc:NAME` for each linked provider.
    public var signInMethods: [String]
    /// The account's sessions, newest first.
    public var sessions: [AccountSession]
    /// The account's passkeys, oldest first.
    public var passkeys: [AccountPasskey]
    /// The OpenID Connect and GitHub identities linked to the account, oldest first.
    public var providers: [AccountProvider]
}

/// One place the account is signed in, as ``Account/sessions`` lists it.
public struct AccountSession: Sendable, Equatable, Identifiable {
    /// What ``Container/signOut(sessionID:)`` takes.
    public var id: String
    /// What the device said it is when it signed in (its `User-Agent`).
    public var device: String
    /// The client address it signed in from.
    public var clientAddress: String
    /// When it signed in.
    public var created: Date
    /// When it was last used (to within ten minutes).
    public var lastUsed: Date
    /// Whether it is this container's own session.
    public var isCurrent: Bool
}

extension Container {
    /// The signed-in user's account: sign-in methods, email and sessions (the server's account
    /// centre, a Stratus extension).
    public func account() async throws -> Account {
        let body = try await send(path: "/auth/1/\(containerIdentifier)/\(environment.rawValue)/account", body: .none)
        let account = try Self.decode(AccountResponse.self, from: body)
        return Account(userRecordName: account.userRecordName, username: account.username, email: account.email,
                       isEmailVerified: account.emailVerified, signInMethods: account.methods,
                       sessions: account.sessions.map { session in
                           AccountSession(id: session.id, device: session.device, clientAddress: session.clientAddress,
                                          created: Date(timeIntervalSince1970: Double(session.created) / 1000),
                                          lastUsed: Date(timeIntervalSince1970: Double(session.lastUsed) / 1000), isCurrent: session.current)
                       },
                       passkeys: account.passkeys.map { passkey in
                           AccountPasskey(id: passkey.id, name: passkey.name, created: Date(timeIntervalSince1970: Double(passkey.created) / 1000),
                                          lastUsed: passkey.lastUsed.map { Date(timeIntervalSince1970: Double($0) / 1000) })
                       },
                       providers: account.providers.map { provider in
                           AccountProvider(id: provider.provider, email: provider.email, isEmailVerified: provider.emailVerified,
                                           linked: Date(timeIntervalSince1970: Double(provider.linked) / 1000),
                                           lastUsed: provider.lastUsed.map { Date(timeIntervalSince1970: Double($0) / 1000) })
                       })
    }

    /// Signs out one of the account's sessions (another device), by its ``AccountSession/id``.
    public func signOut(sessionID: String) async throws {
        let id = sessionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? sessionID
        _ = try await send(path: "/auth/1/\(containerIdentifier)/\(environment.rawValue)/account/sessions/\(id)/signout", body: .bytes(Array("{}".utf8)))
    }

    /// Proves who the user is again with their password, so that for the next few minutes this
    /// session may change how the account signs in (link or unlink an Apple ID, set a password,
    /// add or remove a passkey, delete the account); such a change without it fails with ``CloudError/freshProofMethods``.
    public func reauthenticate(password: String) async throws {
        try await reauthenticate(ReauthenticationRequest(password: password))
    }

    /// Proves who the user is again with a fresh Sign in with Apple identity token of the linked
    /// Apple ID (and the nonce whose hash it carries), as ``reauthenticate(password:)`` does. With
    /// the credential's `authorizationCode`, the server keeps a refresh token to revoke: how an
    /// app about to delete an account that has none (it signed in without a code) gets one.
    public func reauthenticate(appleIdentityToken: String, nonce: String? = nil, authorizationCode: String? = nil) async throws {
        try await reauthenticate(ReauthenticationRequest(identityToken: appleIdentityToken, nonce: nonce, authorizationCode: authorizationCode))
    }

    /// Deletes the signed-in account and everything private to it, once the session's proof is
    /// fresh (``reauthenticate(password:)`` and its siblings): its Sign in with Apple token is
    /// revoked at Apple after, and this device is signed out.
    public func deleteAccount() async throws {
        _ = try await send(path: authPath("account/delete"), body: .bytes(Array("{}".utf8)))
        forgetSession()
    }

    func reauthenticate(_ request: ReauthenticationRequest) async throws {
        _ = try await send(path: "/auth/1/\(containerIdentifier)/\(environment.rawValue)/account/reauthenticate",
                           body: .bytes(Array(try JSONEncoder().encode(request))))
    }
}
