import Foundation
import StratusClient
import StratusSync

/// One device of the Shopping app: its settings and local state in its directory, a sync engine
/// for the user's own lists (private database) and one for lists shared with them (shared
/// database). Each list is a zone `List-<uuid>` holding a `ShoppingList` record (`list`) and the
/// list's journal of `JournalEntry` records.
public actor ShoppingDevice: SyncEngineDelegate {
    /// A list: its zone, and its owner when someone else's.
    public struct ListID: Codable, Sendable, Hashable, CustomStringConvertible {
        public var zoneName: String
        public var owner: String?
        public var description: String { zoneName }
        var zoneID: ZoneID { ZoneID(zoneName: zoneName, ownerRecordName: owner) }
    }

    struct ListInfo: Codable {
        var name: String
        var color: String
        var compressedUntil: Int64 = 0
        /// Accepted participants last seen in the list's share, by user record name → username.
        var participants: [String: String] = [:]
    }

    struct State: Codable {
        var lists: [ListID: ListInfo] = [:]
        var entries: [ListID: [JournalEntry]] = [:]
        /// Shopping mode's apply queue: other people's adds, waiting.
        var held: [ListID: [JournalEntry]] = [:]
        var shoppingMode = false
        var activity: [ListID: [String]] = [:]
        var lastFetch: Int64?
        var lastCompaction: Int64?
    }

    public let directory: URL
    public let username: String
    public let container: Container
    private var state: State
    private var engines: [DatabaseScope: SyncEngine] = [:]
    /// The clock, replaceable in tests.
    private let now: @Sendable () -> Int64

    public static let listRecordName = "list"

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

    /// Opens a device's directory: its state, and its engines on their state files.
    public init(directory: URL, transport: any Transport = Container.defaultTransport,
                now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) async throws {
        guard let session = try? ContainerSession(contentsOf: directory.appendingPathComponent("session.json")) else {
            throw ShoppingError("no device at \(directory.path); run `shopping setup` first")
        }
        self.directory = directory
        self.now = now
        username = session.username ?? ""
        container = Container(session: session, transport: transport, deviceID: directory.lastPathComponent)
        state = (try? JSONDecoder().decode(State.self, from: Data(contentsOf: directory.appendingPathComponent("state.json")))) ?? State()
        for scope in [DatabaseScope.private, .shared] {
            var configuration = SyncEngine.Configuration(database: container.database(with: scope),
                                                         stateURL: directory.appendingPathComponent("sync-\(scope.rawValue).sqlite"), delegate: self)
            configuration.automaticallySync = false
            configuration.retry.maximumAttempts = 2
            configuration.conflictResolver = .clientWins
            engines[scope] = try SyncEngine(configuration: configuration)
        }
    }

    // MARK: Lists

    /// Creates a list in its own zone.
    public func newList(name: String, color: String = "blue") async throws -> ListID {
        let id = ListID(zoneName: "List-\(UUID().uuidString)", owner: nil)
        state.lists[id] = ListInfo(name: name, color: color)
        save()
        try await engines[.private]!.add(pendingDatabaseChanges: [.saveZone(id.zoneID)])
        try await engines[.private]!.add(pendingRecordZoneChanges: [.saveRecord(RecordID(recordName: Self.listRecordName, zoneID: id.zoneID))])
        return id
    }

    /// The lists on this device, with their names.
    public func lists() -> [(id: ListID, name: String)] {
        state.lists.map { ($0.key, view($0.key)?.name ?? $0.value.name) }.sorted { $0.name < $1.name }
    }

    /// The list a name or zone name (or its first characters) refers to.
    public func list(named text: String) throws -> ListID {
        let matches = state.lists.keys.filter { $0.zoneName == text || $0.zoneName.hasPrefix(text) || view($0)?.name == text }
        guard matches.count == 1, let id = matches.first else { throw ShoppingError("no single list matches '\(text)'") }
        return id
    }

    /// A list as its journal (minus what local compaction hides) makes it.
    public func view(_ list: ListID) -> ShoppingListView? {
        guard let info = state.lists[list] else { return nil }
        var view = ShoppingListView(name: info.name, color: info.color)
        let entries = state.entries[list] ?? []
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
    public func item(_ text: String, in list: ListID) throws -> String {
        guard let item = view(list)?.items.first(where: { $0.text == text || $0.id == text }) else { throw ShoppingError("no item '\(text)'") }
        return item.id
    }

    private func record(_ entry: JournalEntry, in list: ListID) async throws {
        guard state.lists[list] != nil else { throw ShoppingError("no list \(list)") }
        state.entries[list, default: []].append(entry)
        state.activity[list, default: []].append(describe(entry))
        save()
        try await engine(for: list).add(pendingRecordZoneChanges: [.saveRecord(RecordID(recordName: entry.id, zoneID: list.zoneID))])
    }

    // MARK: Sharing

    /// Shares a list with users (by username); returns the invitation URL.
    public func share(_ list: ListID, with users: [(String, SharePermission)]) async throws -> String {
        guard list.owner == nil, let info = state.lists[list] else { throw ShoppingError("only the owner shares a list") }
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
            share = try await database.shareZone(list.zoneID, title: view(list)?.name ?? info.name, participants: users.map { ($0.0, $0.1) })
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
    public func activity(_ list: ListID) -> [String] { state.activity[list] ?? [] }

    // MARK: Shopping mode

    /// In shopping mode, items others add are held until ``applyHeld()``; checks and deletes apply at once.
    public func setShoppingMode(_ on: Bool) {
        state.shoppingMode = on
        save()
    }

    /// Applies the held items.
    public func applyHeld() {
        for (list, entries) in state.held { state.entries[list, default: []] += entries }
        state.held = [:]
        save()
    }

    // MARK: Syncing

    /// Sends, then fetches, both databases; then compacts what is due.
    public func syncNow() async throws {
        if let last = state.lastFetch, now() - last > Compaction.minimumAge {
            // Idle too long: the server may have compacted what this device still holds. Send
            // what is queued, then rebuild every list from a full fetch.
            for scope in [DatabaseScope.private, .shared] { try await engines[scope]!.sendChanges() }
            for engine in engines.values { try await engine.refetchEverything() }
            state.entries = [:]
        }
        for scope in [DatabaseScope.private, .shared] { try await engines[scope]!.syncNow() }
        state.lastFetch = now()
        save()
    }

    /// The upload queue (the engines' outboxes) and the apply queue (held items), for a diagnostics screen.
    public func diagnostics() async throws -> String {
        var lines: [String] = []
        for scope in [DatabaseScope.private, .shared] {
            let snapshot = try await engines[scope]!.snapshot()
            lines.append("\(scope.rawValue) database: \(snapshot.status), \(snapshot.pendingRecordChanges.count) record change(s) to send, "
                         + "\(snapshot.pendingDatabaseChanges.count) zone change(s) to send, last sync \(snapshot.lastSuccessfulSync.map { "\($0)" } ?? "never")")
            for change in snapshot.pendingRecordChanges { lines.append("  upload: \(change)") }
            for aside in snapshot.setAsideChanges { lines.append("  set aside: \(aside.change) — \(aside.reason)") }
        }
        let held = state.held.values.reduce(0) { $0 + $1.count }
        lines.append("apply queue: \(held) held item(s)\(state.shoppingMode ? " (shopping mode)" : "")")
        for (list, entries) in state.held { for entry in entries { lines.append("  held in \(list): \(entry.text ?? "")") } }
        return lines.joined(separator: "\n")
    }

    /// Compacts a list's journal on the server: entries older than 14 days whose items were
    /// bought or deleted go, and the list's `CompressedUntil` moves, in one atomic batch that fails
    /// if another device compacted first. At most every 30 minutes per device unless forced.
    /// Returns how many entries went.
    @discardableResult
    public func compact(_ list: ListID, force: Bool = false) async throws -> Int {
        let time = now()
        if !force, let last = state.lastCompaction, time - last < Compaction.interval { return 0 }
        state.lastCompaction = time
        save()
        let database = container.database(with: list.owner == nil ? .private : .shared)
        let cutoff = time - Compaction.minimumAge
        var eligible: [JournalEntry] = []
        var (page, cursor) = try await database.records(matching: Query(recordType: JournalEntry.recordType, filterBy: [
            QueryFilter(.lessThan, fieldName: "timestamp", .timestamp(cutoff)),
        ]), inZoneWith: list.zoneID)
        eligible += page.compactMap(JournalEntry.init(record:))
        while let next = cursor {
            (page, cursor) = try await database.records(continuingMatchFrom: next)
            eligible += page.compactMap(JournalEntry.init(record:))
        }
        let removable = Compaction.removable(eligible + (state.entries[list] ?? []).filter { $0.timestamp >= cutoff }, before: cutoff)
        guard !removable.isEmpty else { return 0 }
        var listRecord = try await database.record(for: RecordID(recordName: Self.listRecordName, zoneID: list.zoneID))
        listRecord["CompressedUntil"] = .timestamp(cutoff)
        let result = try await database.modifyRecords(saving: [listRecord], deleting: removable.map { RecordID(recordName: $0.id, zoneID: list.zoneID) },
                                                      savePolicy: .ifServerRecordUnchanged, atomically: true)
        guard (try? result.saveResults[listRecord.recordID]?.get()) != nil else { return 0 }   // another device compacted first
        let gone = Set(removable.map(\.id))
        state.entries[list]?.removeAll { gone.contains($0.id) }
        state.lists[list]?.compressedUntil = cutoff
        save()
        try await syncNow()
        return removable.count
    }

    // MARK: Engine glue

    private func engine(for list: ListID) -> SyncEngine { engines[list.owner == nil ? .private : .shared]! }

    /// The body of a record the engine sends: the list record or a journal entry.
    public func record(for id: RecordID, syncEngine: SyncEngine) -> CloudRecord? {
        let scope = syncEngine.configuration.database.scope
        let list = ListID(zoneName: id.zoneID.zoneName, owner: scope == .shared ? id.zoneID.ownerRecordName : nil)
        guard let info = state.lists[list] else { return nil }
        if id.recordName == Self.listRecordName {
            return CloudRecord(recordType: "ShoppingList", recordID: id, fields: [
                "name": .string(info.name), "color": .string(info.color), "CompressedUntil": .timestamp(info.compressedUntil),
            ])
        }
        return state.entries[list]?.first { $0.id == id.recordName }?.record(in: id.zoneID)
    }

    /// Applies what an engine reports to the lists.
    public func handleEvent(_ event: SyncEvent, syncEngine: SyncEngine) {
        let scope = syncEngine.configuration.database.scope
        switch event {
        case .fetchedRecordZoneChanges(let modifications, let deletions):
            for record in modifications {
                let list = ListID(zoneName: record.recordID.zoneID.zoneName, owner: scope == .shared ? record.recordID.zoneID.ownerRecordName : nil)
                if record.recordType == "ShoppingList" {
                    var info = state.lists[list] ?? ListInfo(name: "", color: "")
                    info.name = record.string("name") ?? info.name
                    info.color = record.string("color") ?? info.color
                    if case .timestamp(let until)? = record["CompressedUntil"] { info.compressedUntil = until }
                    state.lists[list] = info
                } else if record.isShare {
                    noteParticipants(record, in: list)
                } else if let entry = JournalEntry(record: record), !(state.entries[list] ?? []).contains(where: { $0.id == entry.id }) {
                    if state.lists[list] == nil { state.lists[list] = ListInfo(name: "", color: "") }
                    if state.shoppingMode && entry.kind == .add && entry.author != username {
                        state.held[list, default: []].append(entry)
                    } else {
                        state.entries[list, default: []].append(entry)
                    }
                    state.activity[list, default: []].append(describe(entry))
                }
            }
            for deletion in deletions {
                let list = ListID(zoneName: deletion.recordID.zoneID.zoneName, owner: scope == .shared ? deletion.recordID.zoneID.ownerRecordName : nil)
                state.entries[list]?.removeAll { $0.id == deletion.recordID.recordName }
            }
        case .zonesRemoved(let reasons):
            for (zone, reason) in reasons {
                let list = ListID(zoneName: zone.zoneName, owner: scope == .shared ? zone.ownerRecordName : nil)
                if state.lists.removeValue(forKey: list) != nil {
                    state.entries[list] = nil
                    state.held[list] = nil
                    let why = reason == .accessEnded ? "sharing ended or you were removed" : "the list was deleted"
                    state.activity[list, default: []].append("this list is no longer available here (\(why))")
                }
            }
        default:
            return
        }
        save()
    }

    /// Activity: who joined or left, by comparing the share's accepted participants with the last ones seen.
    private func noteParticipants(_ share: CloudRecord, in list: ListID) {
        guard var info = state.lists[list] else { return }
        var accepted: [String: String] = [:]
        for participant in share.shareKeys?.participants ?? [] where participant.acceptanceStatus == .accepted && participant.type != .owner {
            if let id = participant.participantId { accepted[id] = participant.userIdentity?.lookupInfo?.username ?? id }
        }
        for (id, name) in accepted where info.participants[id] == nil { state.activity[list, default: []].append("\(name) joined") }
        for (id, name) in info.participants where accepted[id] == nil { state.activity[list, default: []].append("\(name) left") }
        info.participants = accepted
        state.lists[list] = info
    }

    private func describe(_ entry: JournalEntry) -> String {
        let item = entry.text ?? entry.itemID.map { id in
            state.entries.values.joined().first { $0.itemID == id && $0.kind == .add }?.text ?? "an item"
        } ?? ""
        let verb = switch entry.kind {
        case .add: "added"
        case .check: "checked"
        case .uncheck: "unchecked"
        case .delete: "deleted"
        case .rename: "renamed the list to"
        case .recolor: "recolored the list"
        }
        return "\(entry.author) \(verb) \(item)"
    }

    private func save() {
        try? JSONEncoder().encode(state).write(to: directory.appendingPathComponent("state.json"), options: .atomic)
    }
}

public struct ShoppingError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
