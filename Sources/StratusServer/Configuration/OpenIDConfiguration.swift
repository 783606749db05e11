import Foundation

/// The OpenID Connect and GitHub providers users sign in with (``OpenIDSignIn``), by container.
public struct OpenIDConfiguration: Sendable {
    /// A provider the operator registered the server with.
    public struct Provider: Sendable, Equatable {
        /// How the provider says who the user is.
        public enum Kind: Sendable, Equatable {
            /// An OpenID provider found by discovery at `issuer`: an ID token says who the user is.
            case openID(issuer: String)
            /// GitHub's OAuth (no ID token): its user and verified-email APIs say who the user is.
            /// `webURL` is where users authorize (`https://github.com`), `apiURL` the REST API's base
            /// (`https://api.github.com`).
            case gitHub(webURL: String, apiURL: String)
        }

        /// The provider's name in URLs (`…/oidc/{name}`): lower-case letters, digits and `-`.
        public var name: String
        public var kind: Kind
        /// The client IDs the provider issued for the apps of the container: the first runs the
        /// web flow; an ID token's `aud` must name only these (a native app's client ID among them).
        public var clientIDs: [String]
        /// The web flow's client secret (never stored in the database); nil for a public client,
        /// which PKCE alone protects.
        public var clientSecret: String?
        /// Whether a first sign-in with an identity no account has creates an account
        /// (`serve --oidc-signup`); otherwise a user links the provider to their account first.
        public var allowsSignUp = false

        public init(name: String, kind: Kind, clientIDs: [String], clientSecret: String? = nil, allowsSignUp: Bool = false) {
            self.name = name
            self.kind = kind
            self.clientIDs = clientIDs
            self.clientSecret = clientSecret
            self.allowsSignUp = allowsSignUp
        }

        /// Google's issuer, which the provider named `google` has unless told another.
        public static let googleIssuer = "https://accounts.google.com"

        /// How the sign-in and account pages name the provider.
        public var title: String {
            switch name {
            case "google": "Google"
            case "github": "GitHub"
            default: name.prefix(1).uppercased() + name.dropFirst()
            }
        }

        /// The issuers an ID token of the provider may name: the discovered one, and for Google
        /// also its legacy form without the scheme.
        package func acceptedIssuers(discovered: String) -> Set<String> {
            discovered == Self.googleIssuer ? [discovered, "accounts.google.com"] : [discovered]
        }

        /// The issuer identities of the provider are keyed by (GitHub's web URL for GitHub).
        package var issuer: String {
            switch kind {
            case .openID(let issuer): issuer
            case .gitHub(let webURL, _): webURL
            }
        }
    }

    /// The providers of each container; the key ``AppleSignInConfiguration/everyContainer`` lists
    /// providers every container has.
    public var providersByContainer: [String: [Provider]] = [:]
    /// How soon a provider's keys (or its discovery document) may be fetched again: a token
    /// signed by a key not seen yet fetches them at most this often.
    public var refetchInterval: Duration = .seconds(60)

    public init(providersByContainer: [String: [Provider]] = [:]) {
        self.providersByContainer = providersByContainer
    }

    /// The providers of `containerID`, its own first.
    package func providers(for containerID: String) -> [Provider] {
        let own = providersByContainer[containerID] ?? []
        return own + (providersByContainer[AppleSignInConfiguration.everyContainer] ?? []).filter { shared in !own.contains { $0.name == shared.name } }
    }

    /// The provider of `containerID` named `name`.
    package func provider(named name: String, for containerID: String) -> Provider? {
        providers(for: containerID).first { $0.name == name }
    }

    /// Whether `name` may name a provider: 1–32 lower-case letters, digits and `-`.
    package static func isAcceptableName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A provider as `serve --oidc-provider` describes it: `[CONTAINER=]NAME` and then
    /// `key=value` words, `issuer=URL`, `client-id=ID` (repeatable), `client-secret-file=PATH`,
    /// `kind=github`, `github-url=URL`, `github-api-url=URL`. `google` has Google's issuer unless
    /// given one; `github` is GitHub's OAuth. Returns the container (nil: the default one) and the
    /// provider, or why the text is not one.
    package static func parse(_ text: String, readingFile: (String) throws -> String) throws(ConfigurationError) -> (String?, Provider) {
        var words = text.split(separator: " ").map(String.init)
        guard !words.isEmpty else { throw .init("an empty provider") }
        let head = words.removeFirst().split(separator: "=", maxSplits: 1).map(String.init)
        let (containerID, name) = head.count == 2 ? (Optional(head[0]), head[1]) : (nil, head[0])
        guard isAcceptableName(name), containerID.map({ !$0.isEmpty && $0 != AppleSignInConfiguration.everyContainer }) ?? true else {
            throw .init("'\(head.joined(separator: "="))' is not [CONTAINER=]NAME (a name of lower-case letters, digits and -)")
        }
        var options: [String: [String]] = [:]
        for word in words {
            let pair = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, ["issuer", "client-id", "client-secret-file", "kind", "github-url", "github-api-url"].contains(pair[0]) else {
                throw .init("'\(word)' is not one of issuer=, client-id=, client-secret-file=, kind=, github-url=, github-api-url=")
            }
            options[pair[0], default: []].append(pair[1])
        }
        guard let clientIDs = options["client-id"], !clientIDs.contains(where: \.isEmpty) else { throw .init("\(name) needs client-id=ID") }
        var secret: String?
        if let file = options["client-secret-file"]?.last {
            guard let text = try? readingFile(file) else { throw .init("\(name): cannot read client-secret-file \(file)") }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret?.isEmpty == false else { throw .init("\(name): client-secret-file \(file) is empty") }
        }
        let isGitHub = options["kind"]?.last.map { $0 == "github" } ?? (name == "github")
        if let kind = options["kind"]?.last, !["github", "openid"].contains(kind) { throw .init("kind is openid or github, not '\(kind)'") }
        let kind: Provider.Kind
        if isGitHub {
            let web = options["github-url"]?.last ?? "https://github.com", api = options["github-api-url"]?.last ?? "https://api.github.com"
            for url in [web, api] where !AppleSignInConfiguration.isAcceptableURL(url) {
                throw .init("\(name): '\(url)' is not an https URL (or http on loopback)")
            }
            kind = .gitHub(webURL: trimmed(web), apiURL: trimmed(api))
        } else {
            guard let issuer = options["issuer"]?.last ?? (name == "google" ? Provider.googleIssuer : nil) else {
                throw .init("\(name) needs issuer=URL (or kind=github)")
            }
            guard AppleSignInConfiguration.isAcceptableURL(issuer) else { throw .init("\(name): issuer '\(issuer)' is not an https URL (or http on loopback)") }
            kind = .openID(issuer: issuer)  // exactly as the provider writes it (Auth0's ends with /)
        }
        return (containerID, Provider(name: name, kind: kind, clientIDs: clientIDs, clientSecret: secret))
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}

/// Why the server's configuration was refused (an OpenID provider's description, the Sign in with
/// Apple key).
package struct ConfigurationError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
