import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StratusServer

/// `stratus serve`: runs the server until SIGINT or SIGTERM, then shuts down gracefully.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Stratus server (embedded SQLite, no configuration needed).")

    @Option(help: "The data directory.") var data = "./stratus-data"
    @Option(help: "A PostgreSQL database to keep the data in instead of the data directory's SQLite file (postgres://user:password@host:5432/database); instances sharing one scale out.")
    var database: String?
    @OptionGroup var keys: KeyOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
    @Option(help: "The container created on first start.") var container = "iCloud.dev.stratus"
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
    @Option(help: "Days a signed-in session (ckWebAuthToken) stays valid.") var sessionDays = 14
    @Option(help: "Days tombstones are kept; change tokens older than a purged tombstone expire.") var tombstoneDays = 90
    @Option(help: "Days a record's replaced and deleted versions are kept for history, undelete and restore; 0 keeps none.")
    var historyDays = 30
    @Option(help: "The most MB of kept versions history holds per zone; past it, the oldest versions of the most-edited records go first.")
    var historyZoneMb = 256
    @Flag(help: "Let webhooks use http:// and reach loopback, private, link-local and CGNAT addresses (tests, local development).")
    var webhookAllowPrivate = false
    @Option(help: "A PEM file of certificate authorities webhook deliveries trust besides the system's.") var webhookCaFile: String?
    @Option(help: "Days an event waits for webhook endpoints that have not delivered it, whatever --history-days keeps.")
    var webhookBacklogDays = 7
    @Option(help: "Seconds an instance holds a webhook endpoint without renewing it: another instance takes over this long after the holder died.")
    var webhookLeaseSeconds = 30
    @Option(help: "Seconds a sign-in or re-authentication counts as fresh proof, which adding or removing a sign-in method, setting a password and deleting the account take.")
    var freshProofSeconds = 300
    @Option(help: "Largest asset file accepted, in MB.") var assetLimitMb = 50
    @Option(help: "The URL clients reach the server at, used in asset upload and download URLs (default: http:// and the request's Host).")
    var publicUrl: String?
    @Option(help: "Largest response the server builds, in MB (change feeds and queries page there; larger lookups are refused).")
    var maxResponseMb = 4
    @Option(help: "A cap on the database file's size in MB; writes past it get TRY_AGAIN_LATER (default: the disk's size).")
    var maxDatabaseMb: Int?
    @Option(help: "Requests per second one signed-in user may make, sustained (bursts of four times as many are allowed; 0: no limit).")
    var userRequestsPerSecond = 500
    @Option(help: "Wrong passwords one account may be tried with from one client address before that address is throttled for it (then one more a minute).")
    var signInFailures = 10
    @Option(help: "Wrong passwords one account may be tried with per hour from all addresses together; past it, only addresses that did not fail for it may try.")
    var accountSignInFailuresPerHour = 100
    @Option(help: "The password hash's work, as a power of two (scrypt's N = 2^cost). Lower it only where passwords are not at stake and sign-ins must be cheap, as in tests.")
    var passwordHashCost = 15
    @Option(help: "Seconds a courier long-poll (tokens/create's webcourierURL) waits for a notification before answering empty; keep it under any proxy's read timeout.")
    var courierWaitSeconds = 30
    @Option(help: "Push connections (WebSockets and couriers) one user may hold at once; past it THROTTLED.")
    var pushConnectionsPerUser = 32
    @Option(help: "Push connections all users may hold at once; past it THROTTLED (default: what the file-descriptor limit leaves).")
    var maxPushConnections: Int?
    @Option(help: "Seconds a request's body may take to arrive (asset uploads excepted); past it BAD_REQUEST.")
    var bodyDeadlineSeconds = 10
    @Option(help: "Requests one client address may have in flight at once (long-polls excepted); past it THROTTLED.")
    var requestsPerAddress = 128
    @Flag(help: "Serve the web example (Examples/Web, found from the current directory) at /examples/web/.")
    var examples = false
    @Flag(help: "Make private-database download URLs work only with the ckWebAuthToken of the user they were issued to.")
    var bindDownloadUrls = false
    @Flag(help: "Seal asset files of private and shared databases under their owner's data key at rest (AES-GCM, 64 KiB segments). Files uploaded before stay plain; the public database's stay plain.")
    var encryptAssets = false
    @Option(help: "The SMTP server that mails email verification and password reset codes. Without it, email addresses stay unverified and passwords cannot be reset by mail.")
    var smtpHost: String?
    @Option(help: "The SMTP server's port (587 for a provider's submission port).") var smtpPort = 25
    @Option(help: "The address verification mails come from.") var smtpFrom = "stratus@localhost"
    @Option(help: "The account to authenticate to the SMTP server as (AUTH PLAIN or LOGIN); needs --smtp-password-file.")
    var smtpUsername: String?
    @Option(help: "A file holding the SMTP account's password (read at start, never stored in the database).")
    var smtpPasswordFile: String?
    @Option(help: "A PEM file of the certificate authorities the SMTP server's certificate is verified against, instead of the system's.")
    var smtpCaFile: String?
    @Flag(help: "Send mail in the clear to an SMTP server off loopback that offers no STARTTLS (by default refused).")
    var smtpAllowCleartext = false
    @Option(help: "An app's client ID for Sign in with Apple (its bundle ID, or a website's Services ID), as CONTAINER=CLIENT_ID, or CLIENT_ID alone for --container: identity tokens for it sign users in to that container at auth/…/apple; repeatable.")
    var appleClientId: [String] = []
    @Option(help: "Apple's Sign in with Apple service, whose /auth/keys, /auth/token and /auth/revoke the server uses (https, or http on loopback).")
    var appleUrl = "https://appleid.apple.com"
    @Option(help: .hidden)
    var appleKeysUrl: String?
    @Option(help: "Your Apple developer team's ID, the issuer of the client secret the server exchanges authorization codes and revokes tokens with (with --apple-key-id and --apple-private-key-file).")
    var appleTeamId: String?
    @Option(help: "The ID of the Sign in with Apple key in --apple-private-key-file.")
    var appleKeyId: String?
    @Option(help: "The Sign in with Apple private key (.p8, PEM) the client secret is signed with (read at start, never stored in the database).")
    var applePrivateKeyFile: String?
    @Option(help: "Seconds before a revocation Apple did not answer is tried again (doubling up to an hour).")
    var appleRevocationRetrySeconds = 30
    @Flag(help: "Accept only Sign in with Apple identity tokens that carry a nonce (the app hashes one into Apple's request and sends it with the token).")
    var appleRequireNonce = false
    @Option(help: "The relying party ID passkeys are made for (a domain, or localhost), as CONTAINER=RP_ID, or RP_ID alone for --container; without one a container refuses passkeys.")
    var webauthnRpId: [String] = []
    @Option(help: "An origin whose passkey ceremonies count (https://app.example.com, or http://localhost:PORT), as CONTAINER=ORIGIN or ORIGIN alone for --container; repeatable; by default https:// and the RP ID.")
    var webauthnOrigin: [String] = []
    @Flag(help: "Accept passkey ceremonies in which the authenticator did not verify the user (by default required).")
    var webauthnAllowUnverified = false
    @Option(help: ArgumentHelp("An OpenID Connect or GitHub provider users sign in with: '[CONTAINER=]NAME key=value…' with issuer=URL, client-id=ID (repeatable: the first runs the web flow, all are accepted in ID tokens), client-secret-file=PATH, kind=github, github-url=URL, github-api-url=URL; google and github need no issuer; repeatable.",
                                valueName: "spec"))
    var oidcProvider: [String] = []
    @Option(help: "A provider (as [CONTAINER=]NAME) whose first sign-in with an identity no account has creates an account; repeatable. Without it, users link the provider to an account first.")
    var oidcSignup: [String] = []
    @Flag(help: "Let a code mailed to an address no account has (email/code) make an account for it on first use (email/signin); by default only accounts that verified their address sign in by code.")
    var emailCodeSignup = false
    @Option(help: "Where share pages link \"Open in the app\": a URL with {shortGUID} in it (notes://share/{shortGUID}).")
    var shareAppUrl: String?
    @Option(help: "An app (TEAMID.bundle.id) that opens share URLs as universal links, listed in /.well-known/apple-app-site-association; repeatable.")
    var appleAppId: [String] = []
    @Option(help: "Serve HTTPS with this certificate chain (PEM, the server's certificate first); needs --tls-key.")
    var tlsCert: String?
    @Option(help: "The private key (PEM) of --tls-cert.") var tlsKey: String?
    @Option(help: "A web origin (https://app.example.com, or *) whose pages may call the server (CORS) and open the push WebSocket; repeatable.")
    var corsOrigin: [String] = []
    @Option(help: "A reverse proxy in front of the server (CIDR, as 10.0.0.0/8, or an address): requests from it are throttled and logged by the client address it forwards in X-Forwarded-For or Forwarded; repeatable.")
    var trustedProxy: [String] = []
    @Option(help: "The one header the --trusted-proxy proxies write the client's address in: x-forwarded-for, forwarded (RFC 7239) or x-real-ip; no other is read.")
    var proxyHeader = "x-forwarded-for"
    @Option(help: "Serve Prometheus metrics at /metrics on this port, on --host (0 picks a free one); never on the API's port. Default: no metrics.")
    var metricsPort: Int?
    @Option(name: .customLong("import"),
            help: "Load the container archives in this directory (as --export-on-exit or `stratus export` wrote them) before serving; the data directory must not have their containers. A missing directory imports nothing.")
    var importDirectory: String?
    @Flag(help: "On SIGINT or SIGTERM, write every container (secrets included) back into the --import directory, for development.")
    var exportOnExit = false
    @Flag(help: "Once ready, print one line of JSON (url, container, ckAPIToken and, with --metrics-port, metricsURL) instead of the banner: for scripts and tools.")
    var readyJson = false
    @Option(help: "The APNs host for device tokens registered for production.") var apnsProductionUrl = "https://api.push.apple.com"
    @Option(help: "The APNs host for device tokens registered for development.") var apnsSandboxUrl = "https://api.sandbox.push.apple.com"
    @Option(help: "A PEM file of certificates to trust besides the system's when reaching the APNs hosts.") var apnsTrustRoots: String?

    func run() async throws {
        var logger = Logger(label: "stratus")
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        logger.logLevel = level
        let configuration = try serverConfiguration()
        if exportOnExit && importDirectory == nil { throw ValidationError("--export-on-exit writes to the --import directory: give both") }
        if let importDirectory {
            // Imported by a server of its own: an import into an empty store gives it the
            // archive's epoch, which the serving server then opens with.
            for line in try await DevelopmentArchives.importAll(from: URL(fileURLWithPath: importDirectory), configuration: configuration) {
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
        let server = try await StratusServer(configuration: configuration, logger: logger)
        let apiToken = try await server.ensureContainer(container)
        let announcement = ReadyAnnouncement(scheme: configuration.tls == nil ? "http" : "https", host: host, container: container,
                                             apiToken: apiToken, json: readyJson, waitsForMetrics: metricsPort != nil)
        let application = try server.makeApplication(onServerRunning: { announcement.apiListens(on: $0) },
                                                     onMetricsRunning: { announcement.metricsListen(on: $0) })
        let serviceGroup = ServiceGroup(configuration: .init(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await serviceGroup.run()
        if exportOnExit, let importDirectory {
            for line in try await DevelopmentArchives.exportAll(from: server, to: URL(fileURLWithPath: importDirectory)) {
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        }
    }

    /// The server's configuration from the options (what `stratus doctor` checks too).
    func serverConfiguration() throws -> ServerConfiguration {
        for origin in corsOrigin where origin != "*" {
            guard let url = URLComponents(string: origin), url.scheme != nil, url.host != nil, url.path.isEmpty else {
                throw ValidationError("--cors-origin takes an origin such as https://app.example.com (no path), or *")
            }
        }
        guard sessionDays > 0, freshProofSeconds > 0, tombstoneDays > 0, assetLimitMb > 0, maxResponseMb > 0, signInFailures > 0, accountSignInFailuresPerHour > 0, userRequestsPerSecond >= 0, courierWaitSeconds > 0,
              (maxDatabaseMb ?? 1) > 0, pushConnectionsPerUser > 0, (maxPushConnections ?? 1) > 0, bodyDeadlineSeconds > 0, requestsPerAddress > 0 else {
            throw ValidationError("--session-days, --fresh-proof-seconds, --tombstone-days, --asset-limit-mb, --max-response-mb, --max-database-mb, --sign-in-failures, --account-sign-in-failures-per-hour, --courier-wait-seconds, --push-connections-per-user, --max-push-connections, --body-deadline-seconds and --requests-per-address must be positive")
        }
        guard historyDays >= 0 else { throw ValidationError("--history-days must be 0 (no history) or more") }
        guard historyZoneMb > 0 else { throw ValidationError("--history-zone-mb must be positive") }
        guard webhookBacklogDays > 0, webhookLeaseSeconds > 0 else { throw ValidationError("--webhook-backlog-days and --webhook-lease-seconds must be positive") }
        guard (10...20).contains(passwordHashCost) else { throw ValidationError("--password-hash-cost must be between 10 and 20") }
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), host: host, port: port)
        configuration.storageDrivers = Stratus.storageDrivers
        configuration.databaseURL = database
        keys.apply(to: &configuration)
        configuration.sessionLifetime = .seconds(sessionDays * 24 * 3600)
        configuration.freshProofWindow = .seconds(freshProofSeconds)
        configuration.tombstoneRetention = .seconds(tombstoneDays * 24 * 3600)
        configuration.historyRetention = .seconds(historyDays * 24 * 3600)
        configuration.historyZoneBytes = Int64(historyZoneMb) * 1024 * 1024
        configuration.webhooks.allowsPrivateAddresses = webhookAllowPrivate
        configuration.webhooks.caFile = webhookCaFile
        configuration.webhooks.backlog = .seconds(webhookBacklogDays * 24 * 3600)
        configuration.webhooks.lease = .seconds(webhookLeaseSeconds)
        configuration.maxAssetBytes = Int64(assetLimitMb) * 1024 * 1024
        configuration.publicURL = publicUrl
        configuration.maxResponseBytes = maxResponseMb * 1024 * 1024
        configuration.maxDatabaseBytes = maxDatabaseMb.map { Int64($0) * 1024 * 1024 }
        configuration.requestsPerUser = userRequestsPerSecond == 0
            ? .unlimited : RateRule(burst: Double(userRequestsPerSecond * 4), perSecond: Double(userRequestsPerSecond))
        configuration.signInFailuresPerAccountAndAddress.burst = Double(signInFailures)
        configuration.signInFailuresPerAccount = RateRule(burst: Double(accountSignInFailuresPerHour), perSecond: Double(accountSignInFailuresPerHour) / 3600)
        configuration.bindDownloadURLsToUser = bindDownloadUrls
        configuration.encryptAssets = encryptAssets
        configuration.courierWait = .seconds(courierWaitSeconds)
        configuration.passwordHashLog2Cost = passwordHashCost
        configuration.maxPushConnectionsPerUser = pushConnectionsPerUser
        configuration.maxPushConnections = maxPushConnections
        configuration.requestBodyDeadline = .seconds(bodyDeadlineSeconds)
        configuration.maxRequestsPerAddress = requestsPerAddress
        configuration.smtp = try smtpHost.map(mailer)
        configuration.appleSignIn = try appleSignIn()
        configuration.webAuthn = try webAuthn()
        configuration.openID = try openID()
        configuration.emailCodeSignUp = emailCodeSignup
        configuration.shareAppURL = shareAppUrl
        configuration.appleAppIDs = appleAppId
        configuration.corsOrigins = Set(corsOrigin)
        if examples {
            let directory = URL(fileURLWithPath: "Examples/Web", isDirectory: true)
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path) else {
                throw ValidationError("--examples serves Examples/Web from the current directory: run it from the repository's root")
            }
            configuration.examplesDirectory = directory
        }
        configuration.trustedProxies = try trustedProxy.map { text in
            guard let block = IPAddressBlock(text) else { throw ValidationError("--trusted-proxy takes an address or a CIDR block (10.0.0.0/8, ::1/128), not '\(text)'") }
            return block
        }
        guard let header = ProxyHeader(rawValue: proxyHeader.lowercased()) else {
            throw ValidationError("--proxy-header is one of \(ProxyHeader.allCases.map(\.rawValue).joined(separator: ", ")), not '\(proxyHeader)'")
        }
        configuration.proxyHeader = header
        configuration.metricsPort = metricsPort
        switch (tlsCert, tlsKey) {
        case (let cert?, let key?):
            configuration.tls = TLSFiles(certificateChain: URL(fileURLWithPath: cert), privateKey: URL(fileURLWithPath: key))
        case (nil, nil): break
        default: throw ValidationError("--tls-cert and --tls-key go together")
        }
        configuration.apns.productionURL = apnsProductionUrl
        configuration.apns.sandboxURL = apnsSandboxUrl
        configuration.apns.additionalTrustRoots = apnsTrustRoots.map { URL(fileURLWithPath: $0) }
        return configuration
    }

    /// Sign in with Apple as the `--apple-…` options set it up. `--apple-keys-url`, from before
    /// `--apple-url`, still names the service by its keys' URL.
    private func appleSignIn() throws -> AppleSignInConfiguration {
        var apple = AppleSignInConfiguration(clientIDsByContainer: try appleClientIDs())
        if let appleKeysUrl {
            guard appleKeysUrl.hasSuffix("/auth/keys") else { throw ValidationError("--apple-keys-url must end in /auth/keys: give --apple-url instead") }
            apple.baseURL = String(appleKeysUrl.dropLast("/auth/keys".count))
        } else {
            apple.baseURL = appleUrl.hasSuffix("/") ? String(appleUrl.dropLast()) : appleUrl
        }
        guard AppleSignInConfiguration.isAcceptableURL(apple.baseURL) else {
            throw ValidationError("--apple-url must be an https URL (or http on loopback)")
        }
        apple.requiresNonce = appleRequireNonce
        switch (appleTeamId, appleKeyId, applePrivateKeyFile) {
        case (nil, nil, nil):
            break
        case let (team?, key?, file?):
            let pem: String
            do { pem = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw ValidationError("--apple-private-key-file: \(file) cannot be read (\(error.localizedDescription))")
            }
            // The server refuses to start with a key that is not a P-256 private key.
            apple.clientSecretKey = AppleClientSecretKey(teamID: team, keyID: key, privateKeyPEM: pem)
        default:
            throw ValidationError("--apple-team-id, --apple-key-id and --apple-private-key-file go together")
        }
        guard appleRevocationRetrySeconds > 0 else { throw ValidationError("--apple-revocation-retry-seconds must be positive") }
        apple.revocationRetryInterval = .seconds(appleRevocationRetrySeconds)
        return apple
    }

    /// `--apple-client-id`'s values by container.
    private func appleClientIDs() throws -> [String: [String]] {
        try byContainer(appleClientId, option: "--apple-client-id", value: "CLIENT_ID")
    }

    /// The relying parties of `--webauthn-rp-id` and `--webauthn-origin`.
    private func webAuthn() throws -> WebAuthnConfiguration {
        var configuration = WebAuthnConfiguration()
        var origins = try byContainer(webauthnOrigin, option: "--webauthn-origin", value: "ORIGIN")
        for (containerID, ids) in try byContainer(webauthnRpId, option: "--webauthn-rp-id", value: "RP_ID") {
            guard ids.count == 1, let id = ids.first, WebAuthnConfiguration.isAcceptableRelyingPartyID(id) else {
                throw ValidationError("--webauthn-rp-id takes one domain name (lower case, not an IP address) per container, not \(ids.joined(separator: ", "))")
            }
            let allowed = origins.removeValue(forKey: containerID) ?? ["https://" + id]
            if let wrong = allowed.first(where: { !WebAuthnConfiguration.isAcceptableOrigin($0) }) {
                throw ValidationError("--webauthn-origin takes https://HOST[:PORT] or http://localhost:PORT, not '\(wrong)'")
            }
            configuration.relyingParties[containerID] = .init(id: id, origins: allowed)
        }
        if let containerID = origins.keys.first {
            throw ValidationError("--webauthn-origin for \(containerID) needs its --webauthn-rp-id")
        }
        configuration.requiresUserVerification = !webauthnAllowUnverified
        return configuration
    }

    /// The providers of `--oidc-provider`, signing up where `--oidc-signup` names them.
    private func openID() throws -> OpenIDConfiguration {
        var configuration = OpenIDConfiguration()
        var signUps = Set(try byContainer(oidcSignup, option: "--oidc-signup", value: "NAME").flatMap { containerID, names in
            names.map { containerID + "=" + $0 }
        })
        for spec in oidcProvider {
            let (named, provider): (String?, OpenIDConfiguration.Provider)
            do {
                (named, provider) = try OpenIDConfiguration.parse(spec) { try String(contentsOfFile: $0, encoding: .utf8) }
            } catch {
                throw ValidationError("--oidc-provider: \(error)")
            }
            let containerID = named ?? container
            var adding = provider
            adding.allowsSignUp = signUps.remove(containerID + "=" + provider.name) != nil
            guard !(configuration.providersByContainer[containerID] ?? []).contains(where: { $0.name == provider.name }) else {
                throw ValidationError("--oidc-provider: \(containerID) has two providers named \(provider.name)")
            }
            configuration.providersByContainer[containerID, default: []].append(adding)
        }
        if let unknown = signUps.first { throw ValidationError("--oidc-signup \(unknown): no --oidc-provider of that name") }
        return configuration
    }

    /// An option's values by container: `CONTAINER=VALUE`, or a value alone for `--container`.
    private func byContainer(_ values: [String], option: String, value name: String) throws -> [String: [String]] {
        var byContainer: [String: [String]] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            let (containerID, item) = parts.count == 2 ? (parts[0], parts[1]) : (container, value)
            guard !containerID.isEmpty, !item.isEmpty, containerID != AppleSignInConfiguration.everyContainer else {
                throw ValidationError("\(option) takes CONTAINER=\(name) or \(name), not '\(value)'")
            }
            byContainer[containerID, default: []].append(item)
        }
        return byContainer
    }

    /// The mailer of `--smtp-*`, its password read and its certificate authorities checked now
    /// rather than at the first mail.
    private func mailer(host: String) throws -> SMTPMailer {
        var mailer = SMTPMailer(host: host, port: smtpPort, from: smtpFrom)
        switch (smtpUsername, smtpPasswordFile) {
        case (let username?, let file?):
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("--smtp-password-file: cannot read \(file)")
            }
            let password = text.trimmingCharacters(in: .newlines)
            guard !password.isEmpty else { throw ValidationError("--smtp-password-file: \(file) is empty") }
            mailer.credentials = SMTPMailer.Credentials(username: username, password: password)
        case (nil, nil): break
        default: throw ValidationError("--smtp-username and --smtp-password-file go together")
        }
        mailer.certificateAuthorities = smtpCaFile.map { URL(fileURLWithPath: $0) }
        mailer.allowsCleartext = smtpAllowCleartext
        do {
            _ = try mailer.tlsConfiguration()
        } catch {
            throw ValidationError("--smtp-ca-file: cannot read certificates from \(smtpCaFile ?? ""): \(error)")
        }
        return mailer
    }
}
