/// The OpenID Connect and GitHub identities users sign in with, and the web sign-ins under way.
package protocol OpenIDStore {
    /// Links an identity; `EXISTS` when it signs in to an account already, or the user has one of
    /// that provider.
    func insertOpenIDIdentity(_ identity: StoredOpenIDIdentity) async throws
    /// The identity the issuer knows by `subject` in the container, if linked.
    func openIDIdentity(containerID: String, issuer: String, subject: String) async throws -> StoredOpenIDIdentity?
    /// A user's identities, oldest first.
    func openIDIdentities(user: String) async throws -> [StoredOpenIDIdentity]
    /// A container's identities (an archive's).
    func openIDIdentities(containerID: String) async throws -> [StoredOpenIDIdentity]
    /// Records a sign-in by the identity, with the email the provider gave this time.
    func setOpenIDIdentityUsed(containerID: String, issuer: String, subject: String, email: String?, emailVerified: Bool, at time: Int64) async throws
    /// Unlinks the user's identity of `provider`; false when they have none.
    func deleteOpenIDIdentity(user: String, provider: String) async throws -> Bool
    /// Keeps a web sign-in until its callback, removing up to 100 that expired before `now`.
    func insertOpenIDFlow(_ flow: StoredOpenIDFlow, now: Int64) async throws
    /// Takes the web sign-in of this state hash out: it is found once.
    func takeOpenIDFlow(stateHash: String) async throws -> StoredOpenIDFlow?
}
