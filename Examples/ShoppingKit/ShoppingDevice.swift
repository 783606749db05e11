import Foundation
import GRDB
import StratusClient
import StratusData
import StratusSync

/// One device of the Shopping app: its session and its database in its directory. The database
/// holds the lists and their journals in synced tables (StratusData, with rows shared by others in
/// the same tables), and what stays on the device: the activity feed, the participants last seen
/// in each list's share, and settings. Each list is a zone `List-<uuid>` holding a `ShoppingList`
/// record named after the zone and the list's journal of `JournalEntry` records.
public actor ShoppingDevice {
    /// A list: its zone, and its owner when someone else's.
    public struct ListID: Sendable, Hashable, CustomStringConvertible {
        public var zoneName: String
        public var owner: String?
        public var description: String { zoneName }
        var zoneID: ZoneID { ZoneID(zoneName: zoneName, ownerRecordName: owner) }
    }

    public let directory: URL
    public let username: String
    public let container: Container
    private let database: DatabaseQueue
    private let synced: SyncedDatabase
    /// The public catalogue of products, mirrored from the public database.
    private let catalogue: Catalogue
    /// The clock, replaceable in tests.
    private let now: @Sendable () -> Int64

    /// The synced tables: a list's row takes its zone from its ID, its entries their list's zone.
    static let tables = [
        SyncedTable(ShoppingList.self, recordType: "ShoppingList", zone: .column(ShoppingList.Columns.id),
                    fieldNames: [ShoppingList.Columns.compressedUntil: "CompressedUntil"],
                    timestampColumns: [ShoppingList.Columns.compressedUntil]),
        SyncedTable(JournalEntry.self, recordType: JournalEntry.recordType, zone: .parent, localColumns: [JournalEntry.Columns.held],
                    timestampColumns: [JournalEntry.Columns.timestamp],
                    references: [.init(JournalEntry.Columns.listID, to: ShoppingList.self, isParent: true)]),
    ]

    /// Signs a device in (or up) and writes its settings.
    public static func setup(directory: URL, server: String, container identifier: String, apiToken: String, username: String,
                             password: String, signUp: Bool, transport: any Transport = Container.defaultTransport) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let container = Container(baseURL: server, containerIdentifier: identifier, apiToken: apiToken, transport: transport)
        if signUp { try await container.signUp(username: username, password: password) } else {
            try await container.signIn(username: username, password: password)
        }
        try await container.session().write(to: directory.appendingPathComponent("session.json"))
    }

    /// This build's version: set-aside changes are retried once when it changes.
    public static let appVersion = "1"

    /// Opens a device's directory: its database, and the synced tables' engines in it.
    /// `transport`, `now` and `clock` are for tests and simulations: a network that fails, the
    /// time entries are stamped with, the clock the sync's retries wait on.
    public init(directory: URL, transport: any Transport = Container.defaultTransport,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
                clock: any Clock<Duration> = ContinuousClock()) async throws {
        guard let session = try? ContainerSession(contentsOf: directory.appendingPathComponent("session.json")) else {
            throw ShoppingError("no device at \(directory.path); run `shopping setup` first")
        }
        self.directory = directory
        self.now = now
        let username = session.username ?? ""
        self.username = username
        container = Container(session: session, transport: transport, deviceID: directory.lastPathComponent)
        database = try DatabaseQueue(path: directory.appendingPathComponent("shopping.sqlite").path)
        try Self.migrator.migrate(database)
        synced = try SyncedDatabase(writer: database, tables: Self.tables, database: container.privateCloudDatabase,
                                    sharedDatabase: container.sharedCloudDatabase, configure: { configuration in
                                        configuration.clock = clock
                                        configuration.retry.maximumAttempts = 2
                                        configuration.appVersion = Self.appVersion
                                    },
                                    didApplyFetchedChanges: { changes, db in try Activity.record(changes, by: username, in: db) })
        catalogue = try Catalogue(directory: directory, container: container) { configuration in
            configuration.clock = clock
            configuration.retry.maximumAttempts = 2
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '', color TEXT NOT NULL DEFAULT '',
                                   compressedUntil INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE journalEntry (id TEXT PRIMARY KEY NOT NULL, listID TEXT NOT NULL, kind TEXT NOT NULL, itemID TEXT, text TEXT,
                                           after TEXT, timestamp INTEGER NOT NULL, author TEXT NOT NULL DEFAULT '',
                                           held INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX journalEntry_by_list ON journalEntry(listID);
                """)
            try Activity.createTables(db)
            try db.execute(sql: "CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL)")
        }
        return migrator
    }

    // MARK: The public catalogue

    /// The products of the public catalogue on this device, by aisle then name (``syncCatalogue()``
    /// brings it up to date).
    public func products() async throws -> [Product] { try await catalogue.products() }

    /// Publishes a product to the public catalogue, for every user; this device sees it once it
    /// syncs the catalogue.
    public func publish(_ name: String, aisle: String) async throws -> Product {
        try await catalogue.publish(name, aisle: aisle)
    }

    /// Fetches the public catalogue's changes (new, changed and withdrawn products).
    public func syncCatalogue() async throws { try await catalogue.synced.syncNow() }

    // MARK: Lists

    /// Creates a list in its own zone (created on the server with the list's first send).
    public func newList(name: String, color: String = "blue") async throws -> ListID {
        let list = ShoppingList(id: "List-\(UUID().uuidString)", name: name, color: color)
        try await database.write { db in try list.insert(db) }
        return ListID(zoneName: list.id, owner: nil)
    }

    /// The lists on this device, with their names.
    public func lists() async throws -> [(id: ListID, name: String)] {
        var lists: [(id: ListID, name: String)] = []
        for list in try await database.read({ db in try ShoppingList.fetchAll(db) }) {
            let id = try await listID(list.id)
            lists.append((id, try await view(id)?.name ?? list.name))
        }
        return lists.sorted { $0.name < $1.name }
    }

    /// The list a name or zone name (or its first characters) refers to.
    public func list(named text: String) async throws -> ListID {
        var matches: [ListID] = []
        for (id, name) in try await lists() where id.zoneName == text || id.zoneName.hasPrefix(text) || name == text { matches.append(id) }
        guard matches.count == 1, let id = matches.first else { throw ShoppingError("no single list matches '\(text)'") }
        return id
    }

    /// A list's ID from its row: its zone, owned by someone else when shared with this user.
    private func listID(_ id: String) async throws -> ListID {
        let zoneID = try await synced.zone(of: ShoppingList.self, id: id)
        return ListID(zoneName: zoneID.zoneName, owner: zoneID.ownerRecordName)
    }

    /// A list as its journal (minus held entries, and what local compaction hides) makes it.
    public func view(_ list: ListID) async throws -> ShoppingListView? {
        let (row, entries) = try await database.read { db in
            (try ShoppingList.fetchOne(db, key: list.zoneName),
             try JournalEntry.filter(JournalEntry.Columns.listID == list.zoneName && JournalEntry.Columns.held == false).fetchAll(db))
        }
        guard let row else { return nil }
        var view = ShoppingListView(name: row.name, color: row.color)
        let hidden = Set(Compaction.removable(entries, before: now() - 3 * 3600 * 1000).map(\.id))
        view.apply(entries.filter { !hidden.contains($0.id) })
        return view
    }

    // MARK: Editing

    /// Adds an item after another (nil: at the top); returns its ID.
    @discardableResult
    public func add(_ text: String, after: String? = nil, to list: ListID) async throws -> String {
        let item = UUID().uuidString
        try await record(JournalEntry(kind: .add, itemID: item, text: text, after: after, timestamp: now(), author: username), in: list)
        return item
    }

    public func check(_ item: String, in list: ListID) async throws { try await record(.init(kind: .check, itemID: item, timestamp: now(), author: username), in: list) }
    public func uncheck(_ item: String, in list: ListID) async throws { try await record(.init(kind: .uncheck, itemID: item, timestamp: now(), author: username), in: list) }
    public func delete(_ item: String, in list: ListID) async throws { try await record(.init(kind: .delete, itemID: item, timestamp: now(), author: username), in: list) }
    public func rename(_ list: ListID, to name: String) async throws { try await record(.init(kind: .rename, text: name, timestamp: now(), author: username), in: list) }
    public func recolor(_ list: ListID, to color: String) async throws { try await record(.init(kind: .recolor, text: color, timestamp: now(), author: username), in: list) }

    /// An item of a list by its text (or ID).
    public func item(_ text: String, in list: ListID) async throws -> String {
        guard let item = try await view(list)?.items.first(where: { $0.text == text || $0.id == text }) else { throw ShoppingError("no item '\(text)'") }
        return item.id
    }

    /// Appends an entry to a list's journal, and to its activity, in one transaction.
    private func record(_ entry: JournalEntry, in list: ListID) async throws {
        var entry = entry
        entry.listID = list.zoneName
        try await database.write { [entry] db in
            guard try ShoppingList.exists(db, key: list.zoneName) else { throw ShoppingError("no list \(list)") }
            try entry.insert(db)
            try Activity.note(entry, inListOf: list.zoneName, db)
        }
    }

    // MARK: Sharing

    /// Shares a list with users (by username); returns the invitation URL.
    public func share(_ list: ListID, with users: [(String, SharePermission)]) async throws -> String {
        guard list.owner == nil, let title = try await view(list)?.name else { throw ShoppingError("only the owner shares a list") }
        try await syncNow()
        let database = container.privateCloudDatabase
        let share: CloudRecord
        if let existing = try? await database.record(for: RecordID(recordName: ShareKeys.zoneShareName, zoneID: list.zoneID)) {
            // Already shared: invite the new people, keep everyone else.
            var everyone = (existing.shareKeys?.participants ?? []).filter { $0.type == .user && $0.acceptanceStatus != .removed }
                .compactMap { participant in participant.userIdentity?.lookupInfo?.username.map { ($0, participant.permission ?? .readOnly) } }
            for user in users where !everyone.contains(where: { $0.0 == user.0 }) { everyone.append(user) }
            share = try await database.updateShare(existing, participants: everyone.map { (username: $0.0, permission: $0.1) })
        } else {
            share = try await database.shareZone(list.zoneID, title: title, participants: users.map { ($0.0, $0.1) })
        }
        guard let url = share.shareKeys?.shareURL else { throw ShoppingError("the share has no URL") }
        return url
    }

    /// Accepts an invitation and fetches the list.
    @discardableResult
    public func accept(_ url: String) async throws -> ListID {
        let metadata = try await container.sharedCloudDatabase.acceptShare(url)
        try await syncNow()
        return ListID(zoneName: metadata.zoneID.zoneName, owner: metadata.zoneID.ownerRecordName)
    }

    /// Leaves a list shared with this user.
    public func leave(_ list: ListID) async throws {
        guard list.owner != nil else { throw ShoppingError("this is your own list; use unshare") }
        try await container.sharedCloudDatabase.deleteShare(RecordID(recordName: ShareKeys.zoneShareName, zoneID: list.zoneID))
        try await syncNow()
    }

    /// Stops sharing one of this user's lists.
    public func unshare(_ list: ListID) async throws {
        try await container.privateCloudDatabase.deleteShare(RecordID(recordName: ShareKeys.zoneShareName, zoneID: list.zoneID))
        try await syncNow()
    }

    /// Removes one participant from one of this user's lists.
    public func remove(_ username: String, from list: ListID) async throws {
        let database = container.privateCloudDatabase
        let share = try await database.record(for: RecordID(recordName: ShareKeys.zoneShareName, zoneID: list.zoneID))
        let keep = (share.shareKeys?.participants ?? []).filter { $0.type != .owner && $0.acceptanceStatus != .removed }
            .compactMap { participant -> (String, SharePermission)? in
                guard let name = participant.userIdentity?.lookupInfo?.username, name != username else { return nil }
                return (name, participant.permission ?? .readOnly)
            }
        _ = try await database.updateShare(share, participants: keep.map { (username: $0.0, permission: $0.1) })
        try await syncNow()
    }

    /// What happened to a list: its journal and who joined or left.
    public func activity(_ list: ListID) async throws -> [String] {
        try await database.read { db in try Activity.lines(of: list.zoneName, in: db) }
    }

    // MARK: Shopping mode

    /// In shopping mode, items others add are held until ``applyHeld()``; checks and deletes apply at once.
    public func setShoppingMode(_ on: Bool) async throws {
        try await database.write { db in try Setting.shoppingMode.set(on ? 1 : 0, in: db) }
    }

    /// Applies the held items (a local column: nothing is sent).
    public func applyHeld() async throws {
        _ = try await database.write { db in try JournalEntry.filter(JournalEntry.Columns.held == true).updateAll(db, JournalEntry.Columns.held.set(to: false)) }
    }

    // MARK: Syncing

    /// Sends, then fetches, both databases.
    public func syncNow() async throws {
        let lastFetch = try await database.read { db in try Setting.lastFetch.value(in: db) }
        if let lastFetch, now() - lastFetch > Compaction.minimumAge {
            // Idle too long: the server may have compacted what this device still holds. Send
            // what is queued, then rebuild every list from a full fetch.
            try await synced.forceFullSync(deletingRowsMissingOnServer: .delete)
        } else {
            try await synced.syncNow()
        }
        let time = now()
        try await database.write { db in try Setting.lastFetch.set(time, in: db) }
    }

    /// The upload queue (the engines' outboxes, and what is set aside with its reason) and the
    /// apply queue (held items), for a diagnostics screen (`shopping status`).
    public func diagnostics() async throws -> String {
        var lines: [String] = []
        for (engine, snapshot) in try await snapshots() {
            lines.append("\(engine.configuration.database.scope.rawValue) database: \(snapshot.status), \(snapshot.pendingRecordChanges.count) record change(s) to send, "
                         + "\(snapshot.pendingDatabaseChanges.count) zone change(s) to send, last sync \(snapshot.lastSuccessfulSync.map { "\($0)" } ?? "never")")
            for change in snapshot.pendingRecordChanges { lines.append("  upload: \(change)") }
            for aside in snapshot.setAsideChanges {
                lines.append("  set aside: \(aside.change)\(aside.isServerVersion ? " (the server's version, not applied)" : "") — \(aside.reason)")
            }
            if snapshot.setAsideDropped > 0 { lines.append("  (\(snapshot.setAsideDropped) older set-aside change(s) dropped)") }
        }
        let (held, shoppingMode) = try await database.read { db in
            (try JournalEntry.filter(JournalEntry.Columns.held == true).fetchAll(db), try Setting.shoppingMode.value(in: db) == 1)
        }
        lines.append("apply queue: \(held.count) held item(s)\(shoppingMode ? " (shopping mode)" : "")")
        for entry in held { lines.append("  held in \(entry.listID): \(entry.text ?? "")") }
        return lines.joined(separator: "\n")
    }

    /// Each engine (the private database's, then the shared one's) with its state now.
    public func snapshots() async throws -> [(engine: SyncEngine, snapshot: SyncEngine.State)] {
        var snapshots: [(engine: SyncEngine, snapshot: SyncEngine.State)] = []
        for engine in [synced.engine] + (synced.sharedEngine.map { [$0] } ?? []) { snapshots.append((engine, try await engine.snapshot())) }
        return snapshots
    }

    /// Compacts a list's journal on the server: entries older than 14 days whose items were
    /// bought or deleted go, and the list's `CompressedUntil` moves, in one atomic batch that fails
    /// if another device compacted first. At most every 30 minutes per device unless forced.
    /// Returns how many entries went; the device hears of them going with its next fetch.
    @discardableResult
    public func compact(_ list: ListID, force: Bool = false) async throws -> Int {
        let time = now()
        let last = try await database.read { db in try Setting.lastCompaction.value(in: db) }
        if !force, let last, time - last < Compaction.interval { return 0 }
        try await database.write { db in try Setting.lastCompaction.set(time, in: db) }
        let database = container.database(with: list.owner == nil ? .private : .shared)
        let cutoff = time - Compaction.minimumAge
        var eligible: [JournalEntry] = []
        var (page, cursor) = try await database.records(matching: CloudQuery(recordType: JournalEntry.recordType, filterBy: [
            QueryFilter(.lessThan, fieldName: "timestamp", .timestamp(cutoff)),
        ]), inZoneWith: list.zoneID)
        eligible += page.compactMap(JournalEntry.init(record:))
        while let next = cursor {
            (page, cursor) = try await database.records(continuingMatchFrom: next)
            eligible += page.compactMap(JournalEntry.init(record:))
        }
        let recent = try await self.database.read { db in
            try JournalEntry.filter(JournalEntry.Columns.listID == list.zoneName && JournalEntry.Columns.timestamp >= cutoff).fetchAll(db)
        }
        let removable = Compaction.removable(eligible + recent, before: cutoff)
        guard !removable.isEmpty else { return 0 }
        var listRecord = try await database.record(for: RecordID(recordName: list.zoneName, zoneID: list.zoneID))
        listRecord["CompressedUntil"] = .timestamp(cutoff)
        let result = try await database.modifyRecords(saving: [listRecord], deleting: removable.map { RecordID(recordName: $0.id, zoneID: list.zoneID) },
                                                      savePolicy: .ifServerRecordUnchanged, atomically: true)
        guard (try? result.saveResults[listRecord.recordID]?.get()) != nil else { return 0 }   // another device compacted first
        try await syncNow()
        return removable.count
    }

    /// Brings one of this user's lists back to how it was on the server at `date`, from the
    /// server's record history: entries added since are deleted, entries compacted since come
    /// back, as changes every device of the list (this one too) fetches with its next sync.
    /// Running it again changes nothing more.
    @discardableResult
    public func restore(_ list: ListID, to date: Date) async throws -> ZoneRestoreSummary {
        guard list.owner == nil else { throw ShoppingError("only the owner restores a list") }
        return try await container.privateCloudDatabase.restoreZone(list.zoneID, to: date)
    }
}

public struct ShoppingError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
