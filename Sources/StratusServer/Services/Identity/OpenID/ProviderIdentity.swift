/// Whom a provider vouched for: the provider, its issuer's identifier of the user (`sub`, or
/// GitHub's numeric `id`), and the email it gave, verified only when it said so.
struct ProviderIdentity: Sendable {
    var provider: OpenIDConfiguration.Provider
    var subject: String
    var email: String?
    var emailVerified: Bool

    /// The email as kept: lower case, and only a plausible address (at most 255 bytes, no
    /// control characters); nil otherwise.
    static func keptEmail(_ email: String?) -> String? {
        email.flatMap { email in
            email.utf8.count <= 255 && email.contains("@") && !email.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                ? email.lowercased() : nil
        }
    }
}
