import Logging

/// The services of one server, sharing one storage.
package struct StratusServices: Sendable {
    package let storage: any StratusStorage
    package let auth: AuthService
    package let containers: ContainerService
    package let zones: ZoneService
    package let records: RecordService
    package let history: HistoryService
    package let changes: ChangeService
    package let schema: SchemaService
    package let query: QueryService
    package let assets: AssetService
    package let subscriptions: SubscriptionService
    package let hub: NotificationHub
    /// Recent commits and requests, for the console's activity page.
    package let activity: ActivityFeed
    package let recentRequests = RecentRequests()
    package let push: PushService
    package let sharing: ShareService
    package let users: UserDirectory
    /// The one rate limiter of the server: sign-ins, sign-ups, per-user request rates.
    package let limiter: RateLimiter
    /// The durable outbox every mail goes through, and its courier; nil without an SMTP server.
    package let outbox: MailOutbox?
    package let email: EmailVerification
    package let passwordReset: PasswordReset
    package let emailCodes: EmailCodeSignIn
    package let apple: AppleSignIn
    package let passkeys: PasskeySignIn
    package let openID: OpenIDSignIn
    package let account: AccountCentre
    package let serverKeys: ServerKeyService
    package let apns: APNsProvider
    package let admin: AdminService
    /// Seals what the server must keep secret and use again (``KeyVault``).
    package let keys: KeyVault
    /// Revokes Sign in with Apple's refresh tokens of deleted accounts and unlinked Apple IDs.
    package let revoker: AppleTokenRevoker
    /// Acts on Sign in with Apple's server-to-server notifications.
    package let appleNotifications: AppleNotifications
    /// Delivers the record log's events to webhook endpoints.
    package let webhooks: WebhookCourier
    /// The wall clock every service reads (``ServerConfiguration/clock``).
    package let clock: ServerClock

    init(storage: any StratusStorage, blobs: any BlobStore, incoming: IncomingFiles, signer: AssetURLSigner, keys: KeyVault,
         configuration: ServerConfiguration, logger: Logger) throws {
        self.keys = keys
        let clock = configuration.clock
        self.clock = clock
        let apns = APNsProvider(storage: storage, configuration: configuration.apns, clock: clock, logger: logger)
        self.apns = apns
        let activity = ActivityFeed(clock: clock)
        self.activity = activity
        let historyRetention = HistoryRetention(storage: storage, serverDefault: configuration.historyRetention)
        let webhookBell = WebhookBell()
        webhooks = try WebhookCourier(storage: storage, keys: keys, clock: clock, configuration: configuration.webhooks, bell: webhookBell,
                                      logger: logger)
        let hub = NotificationHub(storage: storage, mailboxCapacity: configuration.pushMailboxCapacity,
                                  maxConnectionsPerUser: configuration.maxPushConnectionsPerUser, maxConnections: configuration.pushConnectionLimit,
                                  apns: apns, activity: activity, historyRetention: historyRetention, webhookBell: webhookBell,
                                  logger: logger)
        self.storage = storage
        self.hub = hub
        let directory = DatabaseDirectory(storage: storage, hub: hub)
        let limiter = RateLimiter(clock: clock, fleet: storage.fleetCounters)
        self.limiter = limiter
        auth = AuthService(storage: storage,
                           hasher: PasswordHasher(log2Cost: configuration.passwordHashLog2Cost,
                                                  maxQueued: configuration.maxQueuedPasswordHashes),
                           sessionLifetime: configuration.sessionLifetime, limiter: limiter,
                           signInFailuresPerAccountAndAddress: configuration.signInFailuresPerAccountAndAddress,
                           signInFailuresPerAccount: configuration.signInFailuresPerAccount,
                           signInsPerAddress: configuration.signInsPerAddress, signUpsPerAddress: configuration.signUpsPerAddress,
                           requestsPerUser: configuration.requestsPerUser, clock: clock)
        containers = ContainerService(storage: storage, clock: clock)
        zones = ZoneService(storage: storage, directory: directory, maxOperations: configuration.maxOperationsPerRequest, hub: hub, clock: clock,
                            historyRetention: historyRetention)
        records = RecordService(storage: storage, directory: directory, maxOperations: configuration.maxOperationsPerRequest,
                                maxRecordBytes: configuration.maxRecordBytes, maxRequestBytes: configuration.maxRequestBytes,
                                maxResponseBytes: configuration.maxResponseBytes,
                                signer: signer, hub: hub, keys: keys, clock: clock, historyRetention: historyRetention)
        history = HistoryService(storage: storage, directory: directory, hub: hub, keys: keys, signer: signer, clock: clock,
                                 maxOperations: configuration.maxOperationsPerRequest, maxRecordBytes: configuration.maxRecordBytes,
                                 maxBatchBytes: records.maxBatchBytes, retention: historyRetention,
                                 zoneBudget: configuration.historyZoneBytes,
                                 markerKey: signer.derivedKey(for: "stratus history marker v1"))
        schema = SchemaService(storage: storage, hub: hub, clock: clock)
        query = QueryService(storage: storage, directory: directory, maxResultsLimit: configuration.maxResultsLimit,
                             limits: .init(maxFilters: configuration.maxQueryFilters, maxSortKeys: configuration.maxQuerySortKeys,
                                           maxListValues: configuration.maxFilterListValues,
                                           maxResponseBytes: configuration.maxResponseBytes),
                             signer: signer, keys: keys)
        changes = ChangeService(storage: storage, directory: directory, maxResultsLimit: configuration.maxResultsLimit,
                                maxZonesPerRequest: configuration.maxZonesPerRequest, maxResponseBytes: configuration.maxResponseBytes,
                                maxPublicFeedScan: configuration.maxPublicFeedScan, tombstoneRetention: configuration.tombstoneRetention, signer: signer,
                                readAhead: ChangeReadAhead(storage: storage), keys: keys, clock: clock)
        assets = AssetService(storage: storage, directory: directory, auth: auth, blobs: blobs, incoming: incoming, signer: signer,
                              maxAssetBytes: configuration.maxAssetBytes, maxTokens: configuration.maxResultsLimit,
                              uploadGracePeriod: configuration.assetUploadGracePeriod, keys: keys,
                              sealsFiles: configuration.encryptAssets, clock: clock)
        subscriptions = SubscriptionService(storage: storage, directory: directory, hub: hub, maxOperations: configuration.maxOperationsPerRequest,
                                            maxPerUser: configuration.maxSubscriptionsPerUser, maxBytes: configuration.maxSubscriptionBytes,
                                            maxBytesPerUser: configuration.maxSubscriptionBytesPerUser)
        push = PushService(auth: auth, storage: storage, hub: hub, courierWait: configuration.courierWait,
                           couriers: CourierRegistry(maxPerUser: configuration.maxCouriersPerUser, clock: clock),
                           courierKey: signer.derivedKey(for: "stratus courier v1"))
        sharing = ShareService(storage: storage, hub: hub, keys: keys)
        users = UserDirectory(storage: storage)
        let outbox = configuration.smtp.map { MailOutbox(storage: storage, mailer: $0, retryInterval: configuration.mailRetryInterval, keys: keys,
                                                         clock: clock, logger: logger) }
        self.outbox = outbox
        email = EmailVerification(storage: storage, outbox: outbox, limiter: limiter, clock: clock)
        passwordReset = PasswordReset(storage: storage, outbox: outbox, limiter: limiter, auth: auth, hub: hub, clock: clock)
        emailCodes = EmailCodeSignIn(storage: storage, outbox: outbox, limiter: limiter, auth: auth, allowsSignUp: configuration.emailCodeSignUp, clock: clock)
        let notices = SecurityNotices(outbox: outbox)
        let appleTokens = try AppleTokenEndpoint(configuration: configuration.appleSignIn, clock: clock)
        revoker = AppleTokenRevoker(storage: storage, tokens: appleTokens, keys: keys, retryInterval: configuration.appleSignIn.revocationRetryInterval,
                                    clock: clock, logger: logger)
        apple = AppleSignIn(configuration: configuration.appleSignIn, storage: storage, auth: auth, notices: notices, tokens: appleTokens,
                            revoker: revoker, keys: keys, clock: clock)
        let passkeys = PasskeySignIn(configuration: configuration.webAuthn, storage: storage, auth: auth, notices: notices,
                                     challengeKey: signer.derivedKey(for: "stratus passkey challenge v1"), clock: clock)
        self.passkeys = passkeys
        let openID = OpenIDSignIn(configuration: configuration.openID, storage: storage, auth: auth, notices: notices, keys: keys, clock: clock)
        self.openID = openID
        account = AccountCentre(storage: storage, auth: auth, apple: apple, passkeys: passkeys, openID: openID, hub: hub, outbox: outbox, notices: notices, limiter: limiter,
                                freshProofWindow: configuration.freshProofWindow, clock: clock)
        serverKeys = ServerKeyService(storage: storage, clock: clock)
        let admin = AdminService(storage: storage, blobs: blobs, incoming: incoming, auth: auth, hub: hub, containers: containers, keys: keys,
                                 revoker: revoker, clock: clock, webhookPolicy: webhooks.policy, webhookBell: webhookBell)
        self.admin = admin
        appleNotifications = AppleNotifications(apple: apple, admin: admin, storage: storage, notices: notices, logger: logger)
    }
}
