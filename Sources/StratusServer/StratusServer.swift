import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import StratusCore

/// A Stratus server: storage in the data directory, the CloudKit Web Services routes and the
/// background maintenance, ready to run as a Hummingbird application.
public struct StratusServer: Sendable {
    /// This release's version, as `stratus --version` prints it.
    public static let version = "0.2.0"
    public let configuration: ServerConfiguration
    package let services: StratusServices
    let logger: Logger

    /// Opens (creating if needed, open to its owner only) the data directory and its database.
    public init(configuration: ServerConfiguration, logger: Logger = Logger(label: "stratus")) async throws {
        // Before any instrument is made, so that the storage's and services' record into it.
        if configuration.metricsPort != nil { ServerMetrics.bootstrap() }
        // It holds the URL signing key and, on SQLite, every record: no other user of the machine reads it.
        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        self.configuration = configuration
        self.logger = logger
        let storage = try await configuration.storageDriver().open(configuration, logger)
        services = try StratusServices(
            storage: storage,
            blobs: storage.blobStore(directory: configuration.blobDirectory),
            incoming: try IncomingFiles(directory: configuration.blobDirectory.appendingPathComponent("incoming")),
            signer: AssetURLSigner(secret: try await storage.serverSecret(), urlLifetime: configuration.assetURLLifetime,
                                   bindsDownloadsToUser: configuration.bindDownloadURLsToUser, clock: configuration.clock),
            keys: try await configuration.openKeyVault(storage: storage),
            configuration: configuration, logger: logger)
    }

    /// Takes a consistent backup of the data directory into `directory` (which must not exist or
    /// be empty) while the server may be running and writing. See ``restore(from:into:progress:)``.
    public func backup(to directory: URL, progress: (String) -> Void = { _ in }) async throws -> BackupManifest {
        try await Backup.take(services, configuration: configuration, to: directory, progress: progress)
    }

    /// Restores a backup into `dataDirectory` (which must not exist or be empty), after checking
    /// every asset file. The restored store has a new epoch: change tokens issued before answer
    /// `CHANGE_TOKEN_EXPIRED`, and devices list their zones again.
    /// `storageDrivers` must hold ``StorageDriver/sqlite``: a backup restores an SQLite store.
    public static func restore(from backup: URL, into dataDirectory: URL, storageDrivers: [StorageDriver],
                               progress: (String) -> Void = { _ in }) async throws -> BackupManifest {
        try await Backup.restore(from: backup, into: dataDirectory, storageDrivers: storageDrivers, progress: progress)
    }

    /// Writes the key store (every data key, still wrapped) to `keystore.json` in `directory`,
    /// which must not exist or be empty; returns how many data keys it holds.
    public func backUpKeyStore(to directory: URL) async throws -> Int {
        try await KeyStoreFile.write(try await services.keys.keyStoreContents(), to: directory)
    }

    /// Loads a key store backup (`keystore.json` in `directory`) into this store's key store,
    /// which must hold no data key yet, in one transaction; returns how many data keys it loaded.
    public func restoreKeyStore(from directory: URL) async throws -> Int {
        try await services.keys.restore(try KeyStoreFile.read(from: directory))
    }

    /// Re-wraps every data key with the configuration's master key (from its previous one), and
    /// records it in the administrators' audit log; returns how many it re-wrapped. `batch` keys
    /// a transaction; `progress` hears the count after each.
    public func rotateMasterKey(batch: Int = 500, progress: (Int) -> Void = { _ in }) async throws -> Int {
        let count = try await services.keys.rotateMaster(batch: batch, progress: progress)
        try await services.storage.write { [clock = configuration.clock, fingerprint = services.keys.master?.fingerprint ?? ""] transaction in
            try await transaction.appendAudit(AuditLog.entry("keys.rotate-master", container: nil,
                                                             "\(count) data keys now wrapped by master key \(fingerprint)", at: clock.milliseconds))
        }
        return count
    }

    /// Creates the container on first use and returns its API token.
    public func ensureContainer(_ containerID: String) async throws -> String {
        try await services.containers.ensureContainer(id: containerID).apiToken
    }

    /// The API token of an existing container, or nil.
    public func apiToken(of containerID: String) async throws -> String? {
        try await services.containers.container(id: containerID)?.apiToken
    }

    /// Registers a server-to-server key's PEM public key with an existing container; returns its key ID.
    public func addServerKey(container: String, publicKeyPEM: String) async throws -> String {
        try await services.serverKeys.add(containerID: container, publicKeyPEM: publicKeyPEM).keyID
    }

    /// A container's server-to-server keys: key ID, creation and revocation times (ms).
    public func serverKeys(container: String) async throws -> [(keyID: String, createdAt: Int64, revokedAt: Int64?)] {
        try await services.serverKeys.list(containerID: container).map { ($0.keyID, $0.createdAt, $0.revokedAt) }
    }

    /// Revokes a container's server-to-server key; false if it has no such key, or it was revoked.
    public func revokeServerKey(_ keyID: String, container: String) async throws -> Bool {
        try await services.serverKeys.revoke(keyID: keyID, containerID: container)
    }

    /// The environment's schema in CloudKit's text schema language.
    public func exportSchema(container: String, environment: ContainerEnvironment) async throws -> String {
        try await services.schema.export(containerID: container, environment: environment)
    }

    /// Replaces the development schema with a schema file's.
    public func importSchema(_ text: String, container: String) async throws {
        _ = try await services.schema.importIntoDevelopment(text, containerID: container)
    }

    /// Deploys development's schema to production if the change is additive; returns what changed.
    public func deploySchema(container: String) async throws -> [SchemaChange] {
        try await services.schema.deploy(containerID: container)
    }

    /// Gives a user (by username) a custom security role of the environment's schema, or takes it
    /// away; false when nothing changed.
    public func setUserRole(_ role: String, granted: Bool, username: String, container: String,
                            environment: ContainerEnvironment) async throws -> Bool {
        try await services.schema.setRole(role, granted: granted, username: username, containerID: container, environment: environment)
    }

    /// The custom security roles a user (by username) holds in the environment.
    public func userRoles(username: String, container: String, environment: ContainerEnvironment) async throws -> Set<String> {
        try await services.schema.roles(of: username, containerID: container, environment: environment)
    }

    /// Sets a container's APNs credentials: the `.p8` token key's PEM, its key ID, the team ID and
    /// the app's bundle ID (the pushes' topic).
    public func setAPNsCredentials(container: String, keyID: String, teamID: String, topic: String, privateKeyPEM: String) async throws {
        guard try await services.containers.container(id: container) != nil else {
            throw CloudKitError.badRequest("there is no container '\(container)'")
        }
        try await services.apns.setCredentials(APNsCredentials(keyID: keyID, teamID: teamID, topic: topic, privateKeyPEM: privateKeyPEM),
                                               containerID: container)
    }

    /// A container's APNs key ID, team ID and topic (never the key), or nil when it has none.
    public func apnsCredentials(container: String) async throws -> (keyID: String, teamID: String, topic: String)? {
        try await services.apns.credentials(containerID: container).map { ($0.keyID, $0.teamID, $0.topic) }
    }

    /// Removes a container's APNs credentials: its subscriptions push through APNs no more.
    public func removeAPNsCredentials(container: String) async throws {
        try await services.apns.setCredentials(nil, containerID: container)
    }

    /// Runs now the upkeep the server otherwise runs on its timers: the maintenance round
    /// (tombstone and upload purges, expired replay keys and rate buckets), the push connections of
    /// expired sessions, and the mails due. Tests call it after moving ``ServerConfiguration/clock``,
    /// so that nothing waits for a timer.
    package func runDueMaintenance() async {
        await Maintenance(services: services, logger: logger).run()
        await services.hub.endSessions(expiredBefore: services.clock.milliseconds)
        await services.outbox?.deliverDue()
        await services.revoker.revokeDue()
    }

    /// The router with every Stratus route and the error middleware in front of them.
    package func makeRouter() -> Router<StratusRequestContext> {
        let router = Router(context: StratusRequestContext.self)
        if configuration.metricsPort != nil { router.add(middleware: MetricsMiddleware()) }
        if !configuration.trustedProxies.isEmpty { router.add(middleware: ClientAddressMiddleware(trustedProxies: configuration.trustedProxies, header: configuration.proxyHeader)) }
        router.add(middleware: AccessLog(recent: services.recentRequests))
        if !configuration.corsOrigins.isEmpty {
            router.add(middleware: CrossOriginPolicy(allowedOrigins: configuration.corsOrigins))
        }
        router.add(middleware: CloudKitErrorMiddleware(origin: configuration.origin))
        router.add(middleware: LoadSheddingMiddleware(maxInFlight: configuration.maxRequestsInFlight,
                                                      maxPerAddress: configuration.maxRequestsPerAddress))
        router.add(middleware: WholeRequestBody(maxBytes: configuration.maxRequestBytes))
        AuthRoutes(auth: services.auth, admin: services.admin, hub: services.hub, email: services.email, passwordReset: services.passwordReset,
                   emailCodes: services.emailCodes, apple: services.apple, passkeys: services.passkeys, openID: services.openID, account: services.account)
            .register(on: router)
        AppleNotificationRoutes(notifications: services.appleNotifications).register(on: router)
        DatabaseRoutes(services: services, maxRequestBytes: configuration.maxRequestBytes, origin: configuration.origin,
                       permits: WorkPermits(permits: configuration.maxLargeRequests, maxWaiting: configuration.maxRequestsInFlight))
            .register(on: router)
        AssetRoutes(assets: services.assets).register(on: router)
        ShareRoutes(sharing: services.sharing, appURL: configuration.shareAppURL, appleAppIDs: configuration.appleAppIDs)
            .register(on: router)
        PushRoutes(push: services.push, apns: services.apns, origin: configuration.origin,
                   allowedOrigins: configuration.corsOrigins).register(on: router)
        HealthRoutes(storage: services.storage).register(on: router)
        // Secure whenever browsers reach the server over HTTPS: its own TLS, or a proxy's (--public-url https://…).
        let secureCookies = configuration.tls != nil || configuration.publicURL?.lowercased().hasPrefix("https://") == true
        ConsoleRoutes(services: services, origin: configuration.origin, secureCookies: secureCookies).register(on: router)
        let signInPage = SignInPageRoutes(auth: services.auth, containers: services.containers, email: services.email,
                                          passwordReset: services.passwordReset, emailCodes: services.emailCodes, passkeys: services.passkeys,
                                          openID: services.openID,
                                          secureCookies: secureCookies)
        signInPage.register(on: router)
        AccountPageRoutes(auth: services.auth, account: services.account, passkeys: services.passkeys, openID: services.openID, hub: services.hub,
                          secureCookies: secureCookies)
            .register(on: router)
        OpenIDPageRoutes(auth: services.auth, signInPage: signInPage, account: services.account, openID: services.openID,
                         origin: configuration.origin, secureCookies: secureCookies)
            .register(on: router)
        if let directory = configuration.examplesDirectory { ExampleRoutes(directory: directory).register(on: router) }
        return router
    }

    /// The Hummingbird application serving this server (over TLS when ``ServerConfiguration/tls``
    /// names certificate files, which must read); `onServerRunning` receives the bound port, and
    /// `onMetricsRunning` the metrics listener's (see ``ServerConfiguration/metricsPort``).
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
                                onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let push = PushRoutes(push: services.push, apns: services.apns, origin: configuration.origin,
                              allowedOrigins: configuration.corsOrigins)
        let (writeDeadline, bodyDeadline) = (configuration.responseWriteDeadline, configuration.requestBodyDeadline)
        let idleTimeout = Self.timeAmount(configuration.httpIdleTimeout)
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(additionalChannelHandlers: [ResponseWriteDeadline(deadline: Self.timeAmount(writeDeadline)),
                                                     RequestBodyDeadline(deadline: Self.timeAmount(bodyDeadline))],
                         idleTimeout: idleTimeout),
            ws: .init(autoPing: .enabled(timePeriod: configuration.pushPingInterval), closeTimeout: .seconds(5)))
        // A connection is bounded by the idle timeout before its first request too (see
        // FirstRequestDeadline).
        var server = HTTPServerBuilder { responder in
            FirstRequestDeadlineChannel(base: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channelConfiguration,
                                                                           shouldUpgrade: { request, channel, _ in try await push.shouldUpgrade(request, channel: channel) }),
                                        deadline: idleTimeout)
        }
        if let tls = configuration.tls {
            server = try .tls(server, tlsConfiguration: try tls.serverConfiguration())
        }
        var application = Application(
            router: makeRouter(),
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Stratus"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        let maintenance = Maintenance(services: services, logger: logger)
        let (hub, clock) = (services.hub, configuration.clock)
        application.addServices(
            services.apns,
            Periodic(description: "Maintenance", interval: configuration.maintenanceInterval, work: maintenance.run),
            // One timer closes the push connections of expired sessions (from memory), another those
            // of sessions revoked by another process (sign-out and the admin service close them at
            // once in this one), which reads the store: a slow store never delays an expiry.
            Periodic(description: "ExpiredSessionSweeper", interval: configuration.expiredSessionSweepInterval) {
                await hub.endSessions(expiredBefore: clock.milliseconds)
            },
            Periodic(description: "RevokedSessionSweeper", interval: configuration.expiredSessionSweepInterval) {
                await hub.endRevokedSessions()
                // Roles may have been changed by another process too (`stratus user role`).
                await hub.forgetPublicReaders()
            })
        if let bus = services.storage.bus {
            application.addServices(InstanceListener(bus: bus, hub: hub))
        }
        if let outbox = services.outbox { application.addServices(outbox) }
        application.addServices(services.webhooks)
        if services.revoker.isEnabled {
            let revoker = services.revoker
            application.addServices(Periodic(description: "AppleTokenRevoker", interval: AppleTokenRevoker.pollInterval, work: revoker.revokeDue))
        }
        if let metricsPort = configuration.metricsPort {
            application.addServices(MetricsListener.application(host: configuration.host, port: metricsPort, logger: logger,
                                                                onRunning: onMetricsRunning))
        }
        return application
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
