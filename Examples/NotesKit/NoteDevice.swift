import Foundation
import GRDB
import StratusClient
import StratusData
import StratusSync

/// One device of the Notes app: its session, its local database with the note, and the
/// StratusData store that syncs it, all in the device's directory.
///
/// The note is the seed article's: one record of type `note` in the zone `note-zone` of the
/// private database, with its text in an ASSET (`text`), the time of its last edit (`modified`,
/// set by the device that made the edit, so offline edits compare fairly) and the version of the
/// app that wrote it (`version`). Concurrent edits resolve by latest `modified`.
public struct NoteDevice: Sendable {
    /// The version of the note format this build writes and understands.
    public static let appVersion: Int64 = 1

    /// The note as the local table holds it.
    public struct Note: Codable, FetchableRecord, PersistableRecord, Sendable {
        public static let databaseTableName = "note"
        public var id = "note"
        public var text: String
        /// Milliseconds since 1970.
        public var modified: Int64
        public var version: Int64

        /// The columns the table's sync declaration names.
        public enum Columns {
            public static let text = Column(CodingKeys.text)
            public static let modified = Column(CodingKeys.modified)
        }
    }

    /// How the `note` table syncs: record type `note` in `note-zone`, `text` an ASSET, `modified` a TIMESTAMP.
    public static let table = SyncedTable(Note.self, recordType: "note", zone: .named("note-zone"),
                                   assetColumns: [Note.Columns.text], timestampColumns: [Note.Columns.modified])

    /// The device's directory: its session, database and files.
    public let directory: URL
    /// The device's connection to the server.
    public let container: Container
    /// The app's database, holding the `note` table.
    public let database: DatabaseQueue
    /// What syncs the `note` table.
    public let store: SyncedDatabase
    /// The time of an edit, in milliseconds since 1970.
    private let now: @Sendable () -> Int64
    /// Opens the device: its database and the store that syncs it. `transport`, `now` and
    /// `clock` are for tests and simulations: a network that fails, the time edits are stamped
    /// with, the clock the sync's retries wait on.
    public init(directory: URL, transport: any Transport = Container.defaultTransport,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
                clock: any Clock<Duration> = ContinuousClock()) async throws {
        guard let session = try? ContainerSession(contentsOf: directory.appendingPathComponent("session.json")) else {
            throw NotesError("no device at \(directory.path); run `notes setup` first")
        }
        self.directory = directory
        self.now = now
        container = Container(session: session, transport: transport, deviceID: directory.lastPathComponent,
                              assetCacheDirectory: directory.appendingPathComponent("assets"))
        database = try DatabaseQueue(path: directory.appendingPathComponent("notes.sqlite").path)
        try await database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS note (id TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, modified INTEGER NOT NULL, version INTEGER NOT NULL)
                """)
        }
        store = try SyncedDatabase(writer: database, tables: [Self.table], database: container.privateCloudDatabase,
                                   assetDirectory: directory.appendingPathComponent("uploads")) { configuration in
            configuration.clock = clock
            configuration.conflictResolver = .latestModified(field: "modified")
            configuration.retry.maximumAttempts = 2
            configuration.appVersion = String(Self.appVersion)
        }
    }

    /// How a device signs in.
    public enum SignIn: Sendable {
        /// A username and password; `signUp` creates the account first.
        case password(username: String, password: String, signUp: Bool)
        /// An identity token from Sign in with Apple (and the nonce whose SHA-256 it carries).
        case apple(identityToken: String, nonce: String?)
    }

    /// Signs in (or up) and keeps the session in the device's directory.
    public static func setup(directory: URL, server: String, container identifier: String, apiToken: String, signIn: SignIn) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let container = Container(baseURL: server, containerIdentifier: identifier, apiToken: apiToken)
        switch signIn {
        case .password(let username, let password, signUp: true):
            try await container.signUp(username: username, password: password)
        case .password(let username, let password, signUp: false):
            try await container.signIn(username: username, password: password)
        case .apple(let identityToken, let nonce):
            try await container.signIn(appleIdentityToken: identityToken, nonce: nonce)
        }
        try await container.session().write(to: directory.appendingPathComponent("session.json"))
    }

    /// The local note.
    public func note() async throws -> Note? {
        try await database.read { try Note.fetchOne($0, key: "note") }
    }

    /// Why this app refuses the note, when a newer app version wrote it.
    public func refusal() async throws -> String? {
        guard let version = try await note()?.version, version > Self.appVersion else { return nil }
        return "the note was written by a newer version of Notes (format \(version), this app knows \(Self.appVersion)); update Notes to see or edit it"
    }

    /// Edits the note locally; the store captures the change in the same transaction.
    public func edit(_ text: String) async throws {
        if let refusal = try await refusal() { throw NotesError("not saved: \(refusal)") }
        let note = Note(text: text, modified: now(), version: Self.appVersion)
        try await database.write { db in try note.save(db) }
        InstalledHarness.reached(.localChangeCommitted)
    }

    /// Brings back the note's previous version from the server's history (a Stratus extension):
    /// saved there again as a new change, which every device fetches (this one on its next sync).
    /// Returns false when the server keeps no earlier version.
    public func restorePreviousVersion() async throws -> Bool {
        let id = RecordID(recordName: "note", zoneID: ZoneID(zoneName: "note-zone"))
        let versions = try await container.privateCloudDatabase.history(of: id, limit: 2)
        guard versions.count >= 2, !versions[0].isDeleted, !versions[1].isDeleted else { return false }
        _ = try await container.privateCloudDatabase.restore(id, toVersion: versions[1].changeTag, ifCurrentChangeTag: versions[0].changeTag)
        return true
    }

    /// What waits to be sent, and what is set aside and why, in words for `notes status`.
    public func status() async throws -> String {
        let snapshot = try await store.engine.snapshot()
        var lines = ["\(snapshot.pendingRecordChanges.count) change(s) to send"]
        for aside in snapshot.setAsideChanges {
            let what = aside.isServerVersion ? "the server's version of \(aside.change.recordID.recordName), not applied"
                : "this device's change to \(aside.change.recordID.recordName), refused by the server"
            lines.append("set aside: \(what): \(aside.reason)")
        }
        if snapshot.setAsideDropped > 0 { lines.append("(\(snapshot.setAsideDropped) older set-aside change(s) dropped)") }
        return lines.joined(separator: "\n")
    }

    /// Settles the note's set-aside change: try again, keep the server's version, or keep this
    /// device's and send it again.
    public func resolve(_ resolution: SetAsideResolution) async throws {
        try await store.engine.resolveSetAside(RecordID(recordName: "note", zoneID: ZoneID(zoneName: "note-zone")), resolution)
        try await store.syncNow()
    }

    /// Sends and fetches.
    public func sync() async throws {
        try await store.syncNow()
    }

    /// Keeps a push connection open: the engine fetches on each notification, and `changed` gets
    /// the note each time it changes.
    public func watch(_ changed: @escaping @Sendable (Note) -> Void) async throws {
        let push = PushConnection(container: container)
        await push.start()
        await store.engine.listen(to: push)
        var first = true
        for try await note in ValueObservation.tracking({ try Note.fetchOne($0, key: "note") }).values(in: database) {
            if let note, !first { changed(note) }
            first = false
        }
    }
}

/// A refusal of the Notes app, in words for its user.
public struct NotesError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
