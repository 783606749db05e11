import Foundation
import StratusServer

/// The `stratus serve` options that give a child server what a test cloud's configuration asks
/// for: how ``TestCloud`` runs its server on PostgreSQL, as a process of its own (this target links
/// the SQLite driver only). Only what the options say can be given; a configuration that changes
/// anything else is refused, naming it, rather than silently served without it.
enum ChildServerOptions {
    /// The options for `configuration`, whose container is `containerID`.
    static func arguments(for configuration: ServerConfiguration, containerID: String) throws -> [String] {
        var arguments = ["--container", containerID, "--password-hash-cost", String(configuration.passwordHashLog2Cost),
                         "--push-connections-per-user", String(configuration.maxPushConnectionsPerUser)]
        if let smtp = configuration.smtp {
            guard smtp.credentials == nil, smtp.certificateAuthorities == nil, !smtp.allowsCleartext else {
                throw ChildProcessError("a child stratus serve is given an SMTP server's host, port and sender only")
            }
            arguments += ["--smtp-host", smtp.host, "--smtp-port", String(smtp.port), "--smtp-from", smtp.from]
        }
        let apple = configuration.appleSignIn
        for (container, clientIDs) in apple.clientIDsByContainer.sorted(by: { $0.key < $1.key }) {
            let named = container == AppleSignInConfiguration.everyContainer ? containerID : container
            arguments += clientIDs.flatMap { ["--apple-client-id", "\(named)=\($0)"] }
        }
        arguments += ["--apple-url", apple.baseURL, "--apple-revocation-retry-seconds", String(max(1, apple.revocationRetryInterval.components.seconds))]
            + (apple.requiresNonce ? ["--apple-require-nonce"] : [])
        if let key = apple.clientSecretKey {
            try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true)
            let file = configuration.dataDirectory.appendingPathComponent("apple-key.p8")
            try Data(key.privateKeyPEM.utf8).write(to: file)
            arguments += ["--apple-team-id", key.teamID, "--apple-key-id", key.keyID, "--apple-private-key-file", file.path]
        }
        let webAuthn = configuration.webAuthn
        for (container, party) in webAuthn.relyingParties.sorted(by: { $0.key < $1.key }) {
            arguments += ["--webauthn-rp-id", "\(container)=\(party.id)"] + party.origins.flatMap { ["--webauthn-origin", "\(container)=\($0)"] }
        }
        if !webAuthn.requiresUserVerification { arguments.append("--webauthn-allow-unverified") }
        if configuration.emailCodeSignUp { arguments.append("--email-code-signup") }
        let days = configuration.historyRetention.components.seconds / (24 * 3600)
        guard configuration.historyRetention == .seconds(days * 24 * 3600) else {
            throw ChildProcessError("a child stratus serve keeps history for whole days (--history-days)")
        }
        if configuration.historyRetention != ServerConfiguration(dataDirectory: configuration.dataDirectory).historyRetention {
            arguments += ["--history-days", String(days)]
        }
        if configuration.historyZoneBytes != ServerConfiguration(dataDirectory: configuration.dataDirectory).historyZoneBytes {
            guard configuration.historyZoneBytes % (1024 * 1024) == 0 else {
                throw ChildProcessError("a child stratus serve budgets history in whole MB (--history-zone-mb)")
            }
            arguments += ["--history-zone-mb", String(configuration.historyZoneBytes / (1024 * 1024))]
        }
        for (container, providers) in configuration.openID.providersByContainer.sorted(by: { $0.key < $1.key }) {
            let named = container == AppleSignInConfiguration.everyContainer ? containerID : container
            for provider in providers {
                arguments += ["--oidc-provider", try spec(of: provider, container: named)]
                if provider.allowsSignUp { arguments += ["--oidc-signup", "\(named)=\(provider.name)"] }
            }
        }
        let defaults = ServerConfiguration(dataDirectory: configuration.dataDirectory)
        let unsaid = [
            ("maxResponseBytes", configuration.maxResponseBytes != defaults.maxResponseBytes),
            ("maxRequestBytes", configuration.maxRequestBytes != defaults.maxRequestBytes),
            ("courierWait", configuration.courierWait != defaults.courierWait),
            ("tombstoneRetention", configuration.tombstoneRetention != defaults.tombstoneRetention),
        ].filter(\.1).map(\.0)
        guard unsaid.isEmpty else {
            throw ChildProcessError("a child stratus serve cannot be given \(unsaid.joined(separator: ", ")): run this test in process (on SQLite)")
        }
        return arguments
    }

    /// `--oidc-provider`'s description of `provider`; its client secret goes in a file of its own.
    private static func spec(of provider: OpenIDConfiguration.Provider, container: String) throws -> String {
        var words = ["\(container)=\(provider.name)"] + provider.clientIDs.map { "client-id=" + $0 }
        switch provider.kind {
        case .openID(let issuer): words.append("issuer=" + issuer)
        case .gitHub(let webURL, let apiURL): words += ["kind=github", "github-url=" + webURL, "github-api-url=" + apiURL]
        }
        if let secret = provider.clientSecret {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-oidc-\(UUID().uuidString).secret")
            try Data(secret.utf8).write(to: file, options: .atomic)
            words.append("client-secret-file=" + file.path)
        }
        return words.joined(separator: " ")
    }
}
