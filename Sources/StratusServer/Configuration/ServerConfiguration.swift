import Foundation

/// Everything a Stratus server can be told. The defaults are CloudKit's documented limits and
/// need no configuration file.
public struct ServerConfiguration: Sendable {
    /// Where the database file, the asset files (`blobs/`) and the URL signing key live.
    public var dataDirectory: URL
    public var host: String
    /// 0 picks a free port (the bound one is reported once the server runs).
    public var port: Int
    /// The wall clock every time rule reads; tests move it (``ServerClock/advance(by:)``).
    public var clock = ServerClock()
    /// Most operations in one `records/modify` or `zones/modify` request.
    public var maxOperationsPerRequest = 400
    /// Largest request body accepted, in bytes.
    public var maxRequestBytes = 2 * 1024 * 1024
    /// Largest record (its fields as wire JSON), in bytes.
    public var maxRecordBytes = 1024 * 1024
    /// Highest `resultsLimit` honoured by change feeds (also their default).
    public var maxResultsLimit = 200
    /// How long a `ckWebAuthToken` stays valid.
    public var sessionLifetime: Duration = .seconds(14 * 24 * 3600)
    /// How long a sign-in or re-authentication counts as fresh proof, which changing how an
    /// account signs in takes (``AccountCentre``).
    public var freshProofWindow: Duration = .seconds(300)
    /// How long tombstones of deleted records and zones are kept; change tokens older than a
    /// purged tombstone get `CHANGE_TOKEN_EXPIRED`.
    public var tombstoneRetention: Duration = .seconds(90 * 24 * 3600)
    /// How long a record's replaced versions are kept in the record log for history, the recycle
    /// bin and restore (`--history-days`); zero keeps none.
    public var historyRetention: Duration = .seconds(30 * 24 * 3600)
    /// The most bytes of kept versions (their fields) history holds per zone
    /// (`--history-zone-mb`): past it, maintenance evicts the oldest versions of the most-edited
    /// records first.
    public var historyZoneBytes: Int64 = 256 * 1024 * 1024
    /// How webhooks are delivered (`--webhook-*`).
    public var webhooks = WebhookConfiguration()
    /// How often the tombstone purge runs.
    public var maintenanceInterval: Duration = .seconds(3600)
    /// Largest asset file accepted, in bytes (CloudKit documents 50 MB).
    public var maxAssetBytes: Int64 = 50 * 1024 * 1024
    /// How long asset upload and download URLs stay valid (15 minutes, as CloudKit's).
    public var assetURLLifetime: Duration = .seconds(15 * 60)
    /// Whether download URLs of private data work only with the `ckWebAuthToken` of the user they
    /// were issued to. Off by default: as Apple's pre-signed URLs, a signed URL is the capability,
    /// and third-party clients download with a plain GET.
    public var bindDownloadURLsToUser = false
    /// Whether asset files of private and shared databases are sealed at rest under their zone
    /// owner's data key, in 64 KiB AES-GCM segments (a download, or a range of one, opens only
    /// the segments it reads). Files uploaded before it was turned on stay plain; the public
    /// database's files stay plain.
    public var encryptAssets = false
    /// Where verification codes for users' email addresses are mailed from; nil sends no mail,
    /// and email addresses then stay unverified (only usernames reach people).
    public var smtp: SMTPMailer?
    /// How long the mail courier waits before trying a mail again the first time; the wait doubles
    /// with each failure, up to an hour, for 24 hours (``MailOutbox``).
    public var mailRetryInterval: Duration = .seconds(30)
    /// Which apps' Sign in with Apple tokens sign users in; without client IDs, none.
    public var appleSignIn = AppleSignInConfiguration()
    /// The relying parties passkeys are made for, by container; without one, a container refuses passkeys.
    public var webAuthn = WebAuthnConfiguration()
    /// The OpenID Connect and GitHub providers users sign in with, by container; without one, none.
    public var openID = OpenIDConfiguration()
    /// Whether a code mailed to an address no account has makes an account for it on first use
    /// (`email/code`, `email/signin`); otherwise only accounts that verified their address sign in by code.
    public var emailCodeSignUp = false
    /// How long an uploaded file may wait for a record to take it up before it is collected.
    public var assetUploadGracePeriod: Duration = .seconds(24 * 3600)
    /// The URL clients reach this server at (`https://sync.example.com`), used in asset URLs;
    /// nil uses `http://` and the request's `Host`.
    public var publicURL: String?
    /// Serve HTTPS with this certificate chain and key (PEM files); nil serves plain HTTP, for
    /// loopback or behind a proxy that terminates TLS.
    public var tls: TLSFiles?
    /// Where a share's landing page (`/share/{shortGUID}`) links "Open in the app": a URL with
    /// `{shortGUID}` in it (`notes://share/{shortGUID}`); nil shows no link.
    public var shareAppURL: String?
    /// The apps (`TEAMID.bundle.id`) that open share URLs as universal links: listed in
    /// `/.well-known/apple-app-site-association`, which answers 404 without any.
    public var appleAppIDs: [String] = []
    /// Notifications kept for a slow device before they collapse into one "fetch to catch up".
    public var pushMailboxCapacity = 64
    /// How long a long-poll on a `webcourierURL` waits for a notification before answering empty.
    public var courierWait: Duration = .seconds(30)
    /// scrypt cost (N = 2^log2Cost) for new password hashes.
    public var passwordHashLog2Cost = 15
    /// Password hashes waiting for one of the two hashing threads; past it sign-ins and sign-ups
    /// are shed with `THROTTLED`.
    public var maxQueuedPasswordHashes = 64

    // MARK: Budgets: no request makes the server build or hold more than these

    /// Largest response the server builds, in bytes: change feeds and queries stop adding
    /// records there (`moreComing`, a `continuationMarker`), a lookup over it is `LIMIT_EXCEEDED`.
    public var maxResponseBytes = 4 * 1024 * 1024
    /// Requests handled at once that may hold much memory: lookups, queries and change feeds
    /// (whose answers can fill `maxResponseBytes`) and any request with a body over 256 KB.
    /// Others wait their turn; small requests never do.
    public var maxLargeRequests = 4
    /// Zones named in one `changes/zone` or `zones/lookup` request.
    public var maxZonesPerRequest = 100
    /// Changes one page of the public database's feed looks at, readable by the caller or not: a
    /// page that finds too few readable ones among them answers what it found (even none) with
    /// `moreComing`, so its cost never grows with what the caller may not read.
    public var maxPublicFeedScan = 1000
    /// Filters in one query.
    public var maxQueryFilters = 32
    /// Sort descriptors in one query.
    public var maxQuerySortKeys = 8
    /// Values in one filter's list (`IN`, `NOT_IN`, `LIST_CONTAINS_ANY`…).
    public var maxFilterListValues = 256
    /// Subscriptions one user may have in one database.
    public var maxSubscriptionsPerUser = 256
    /// Long-poll couriers (`tokens/create`) one user may hold at once.
    public var maxCouriersPerUser = 16
    /// Push connections (WebSockets and couriers) one user may hold at once; past it a new one is
    /// refused with `THROTTLED` and a `retryAfter`.
    public var maxPushConnectionsPerUser = 32
    /// Push connections all users may hold at once; nil: what the file-descriptor limit leaves
    /// (``pushConnectionLimit``). Past it a new one is refused with `THROTTLED` and a `retryAfter`.
    public var maxPushConnections: Int?
    /// A subscription as sent, in bytes, and a user's subscriptions in one database together; past
    /// either, `LIMIT_EXCEEDED`.
    public var maxSubscriptionBytes = 16 * 1024
    public var maxSubscriptionBytesPerUser = 1024 * 1024
    /// How long a request's whole body may take to arrive (asset uploads, which may be large, not
    /// counted); a body still arriving then fails the request with `BAD_REQUEST`. Only the time the
    /// server waits for the client counts, not time it holds the body back itself (a busy handler).
    /// No request waits for a work permit before its body is in.
    public var requestBodyDeadline: Duration = .seconds(10)
    /// How long an answer may wait unsent because its client does not read it (the connection's
    /// buffers full); past it the connection is closed. Thirty seconds let a 4 MB answer through a
    /// link of about 1 Mbit/s.
    public var responseWriteDeadline: Duration = .seconds(30)
    /// Requests one client address may have in flight at once (long-polls and push connections not
    /// counted); past it new ones are refused with `THROTTLED` and a `retryAfter`.
    public var maxRequestsPerAddress = 128
    /// An HTTP connection with no request for this long is closed.
    public var httpIdleTimeout: Duration = .seconds(60)
    /// How often a push WebSocket is pinged; one that leaves a ping unanswered until the next is closed.
    public var pushPingInterval: Duration = .seconds(30)
    /// How often the push connections of expired sessions are looked for and closed.
    public var expiredSessionSweepInterval: Duration = .seconds(60)
    /// Web origins (`https://app.example.com`, or `*`) whose pages may call the server (CORS) and
    /// open the push WebSocket. Empty: no CORS headers; browser pages of other origins are refused
    /// the WebSocket.
    public var corsOrigins: Set<String> = []
    /// The web example's directory (`Examples/Web`), served at `/examples/web/` (`serve --examples`);
    /// nil serves no example.
    public var examplesDirectory: URL?
    /// The reverse proxies in front of the server: a request from one of them is counted against
    /// the client it forwards for (``ClientAddressMiddleware``). Empty: every peer is the client.
    public var trustedProxies: [IPAddressBlock] = []
    /// The one header the trusted proxies write the client's address in; no other is read.
    public var proxyHeader = ProxyHeader.xForwardedFor
    /// The port of a second listener, on ``host``, that serves Prometheus metrics at `/metrics`
    /// (0 picks a free one); nil serves no metrics. Never on the API listener: the API token ships
    /// inside apps, and metrics tell how the server is used.
    public var metricsPort: Int?
    /// Apple's push service: hosts, trust and bounds.
    public var apns = APNsConfiguration()

    // MARK: Throttling and load shedding

    /// Wrong passwords one account may be tried with from one client address (then one more a
    /// minute); other addresses are not affected.
    public var signInFailuresPerAccountAndAddress = RateRule(burst: 10, perSecond: 1.0 / 60)
    /// Wrong passwords one account may be tried with from all addresses together (100 an hour);
    /// past it, only addresses that did not fail for the account lately may try.
    public var signInFailuresPerAccount = RateRule(burst: 100, perSecond: 100.0 / 3600)
    /// Sign-ins from one client address.
    public var signInsPerAddress = RateRule(burst: 300, perSecond: 10)
    /// Accounts one client address may create.
    public var signUpsPerAddress = RateRule(burst: 200, perSecond: 2)
    /// Database requests of one signed-in user.
    public var requestsPerUser = RateRule(burst: 2000, perSecond: 500)
    /// Requests being handled at once (push connections and long-polls not counted); past it new
    /// ones are shed with `THROTTLED`.
    public var maxRequestsInFlight = 512
    /// Writes waiting for the database writer; past it new ones are shed with `THROTTLED`.
    public var maxQueuedWrites = 1024
    /// Whether writes that arrive while a commit is in flight share the next commit and its
    /// fsync. Turned off only by the benchmark that measures what it gains.
    public var groupCommit = true
    /// A cap on the database file's size in bytes; writes past it fail with `TRY_AGAIN_LATER`
    /// and change nothing. Nil: no cap but the disk.
    public var maxDatabaseBytes: Int64?
    /// A PostgreSQL database (`postgres://user:password@host:5432/database`) to keep the data in
    /// instead of the data directory's SQLite file; many instances may share one.
    public var databaseURL: String?
    /// The master key's file (`--encryption-key-file`); nil: ``encryptionKey``, else `master.key`
    /// in the data directory, made on first start (docs/security.md: keep it apart from backups).
    public var encryptionKeyFile: String?
    /// The master key itself, in base64 (`STRATUS_ENCRYPTION_KEY`), instead of a file.
    public var encryptionKey: String?
    /// The master key a rotation moves away from (`--previous-encryption-key-file`), accepted until
    /// `stratus keys rotate-master` finishes.
    public var previousEncryptionKeyFile: String?
    /// The key store's directory on SQLite (`--key-store`); nil: `keys` in the data directory.
    public var keyStoreDirectory: URL?
    /// Whether the server needs its master key to start (`serve`, and a server in tests), making
    /// one for a store that has none; false for a command that administers the store, which
    /// without a key given can destroy data keys but not seal or open.
    public var requiresMasterKey = true
    /// Connections each instance keeps to ``databaseURL`` at most.
    public var databaseConnections = 16
    /// The storage drivers this build has: ``StorageDriver/sqlite`` (StratusSQLite) for the data
    /// directory's file, ``StorageDriver/postgreSQL`` (StratusPostgreSQL) for ``databaseURL``.
    /// The server opens its store with the first that keeps it; none is linked by default.
    public var storageDrivers: [StorageDriver] = []

    /// Where clients reach the server, as the URLs it hands out name it.
    var origin: ServerOrigin { ServerOrigin(publicURL: publicURL, scheme: tls == nil ? "http" : "https") }

    public init(dataDirectory: URL, host: String = "127.0.0.1", port: Int = 8080) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
    }

    /// The SQLite database file inside the data directory.
    public var databasePath: String { dataDirectory.appendingPathComponent(Backup.databaseFile).path }
    /// Where asset files are kept, by checksum.
    var blobDirectory: URL { dataDirectory.appendingPathComponent(Backup.blobsDirectory) }
    /// The SQLite store's secret, which signs asset URLs.
    var assetKeyPath: String { dataDirectory.appendingPathComponent(Backup.assetKeyFile).path }
}
