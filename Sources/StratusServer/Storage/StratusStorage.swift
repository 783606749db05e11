import Foundation
import StratusCore

/// Where Stratus keeps its data. A backend runs each unit of work as one transaction: every write
/// of a request commits together or not at all.
///
/// The SQLite backend (`SQLiteStorage`, in StratusSQLite) is the default; other backends implement the same two
/// entry points and ``StorageTransaction``, and must pass the same tests.
///
/// The seam is asynchronous so that a backend on a network database suspends while a statement
/// travels; the SQLite backend's work never suspends (it runs on the connection's own thread,
/// see ``ConnectionThread``).
package protocol StratusStorage: Sendable {
    /// Runs `body` in a read-only transaction that sees one consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T
    /// Runs `body` in a write transaction; it commits when `body` returns and rolls back when it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StorageTransaction) async throws -> T) async throws -> T
    /// Whether the storage answers and its schema is at the newest migration.
    func isReady() async -> Bool
    /// The store's epoch: 0 until a restore gives the store a new one. Change tokens carry it,
    /// and a token of another epoch has expired (its device was ahead of, or beside, the
    /// restored history).
    var epoch: Int64 { get }
    /// Copies a consistent snapshot of the whole database to a new file at `path` while writes
    /// go on (the backup's database part).
    func backup(to path: String) async throws
    /// The server's secret (32 random bytes, made on first use) from which the keys that sign
    /// asset URLs and seal continuation markers derive; every instance of a store has the same.
    func serverSecret() async throws -> [UInt8]
    /// Where the data keys live (``KeyVault``): apart from the data, so that its backups never
    /// hold them — on SQLite a file of its own in `directory`, on PostgreSQL the schema
    /// `stratus_keys` (which `pg_dump --exclude-schema=stratus_keys` leaves out).
    func keyStore(directory: URL) async throws -> any KeyStore
    /// Where asset files' bytes live with this store: in the database when every instance must
    /// reach them (PostgreSQL), else as files in `directory`.
    func blobStore(directory: URL) -> any BlobStore
    /// The channel to the other instances sharing this store, if it can have any.
    var bus: (any InstanceBus)? { get }
    /// The counters shared with the other instances of this store, if it can have any.
    var fleetCounters: (any FleetCounters)? { get }
    /// Runs `body` unless another instance is running the job of that name (then returns false
    /// at once): maintenance runs once across the fleet.
    func exclusively(_ job: String, _ body: @Sendable () async throws -> Void) async throws -> Bool
}

/// The operations services perform inside one storage transaction: the stores, each narrow,
/// composed. The SQL both drivers share implements most of them once (``SQLDatabase``); a driver
/// adds its execution and its specialities.
package protocol StorageTransaction: ContainerStore, AccountStore, PasswordResetStore, SessionStore, AdministratorStore, ServerKeyStore, APNsStore, ZoneStore,
    RecordStore, QueryIndexStore, SchemaStore, AssetStore, SubscriptionStore, ShareStore, ArchiveStore, MaintenanceStore, ReplayStore, MailOutboxStore, AuditStore, UserCodeStore,
    PasskeyStore, OpenIDStore, SignInWithAppleStore, RecordLogStore, DeletionBurstStore, HistoryBudgetStore, WebhookStore {
    /// Runs `body` so that if it throws, only its own writes are undone.
    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T
}
