import Foundation
import StratusClient
import StratusSync

/// One device of the Notes app: its settings, its local copy of the note, and its sync engine,
/// all in the device's directory.
///
/// The note is the seed article's: one record of type `note` in the zone `note-zone` of the
/// private database, with its text in an ASSET (`text`), the time of its last edit (`modified`,
/// set by the device that made the edit, so offline edits compare fairly) and the version of the
/// app that wrote it (`version`). Concurrent edits resolve by latest `modified`.
actor NoteDevice {
    /// The version of the note format this build writes and understands.
    static let appVersion: Int64 = 1
    static let noteID = RecordID(recordName: "note", zoneID: ZoneID(zoneName: "note-zone"))

    struct Note: Codable {
        var text: String
        /// Milliseconds since 1970.
        var modified: Int64
    }

    let directory: URL
    let container: Container
    private(set) var engine: SyncEngine!
    /// Set when the server holds a note written by a newer app version; kept in the device's
    /// directory so that no edit of this version overwrites it.
    private(set) var refusal: String?
    private var refusalFile: URL { directory.appendingPathComponent("refused.txt") }

    init(directory: URL) throws {
        self.directory = directory
        guard let session = try? ContainerSession(contentsOf: directory.appendingPathComponent("session.json")) else {
            throw NotesError("no device at \(directory.path); run `notes setup` first")
        }
        refusal = try? String(contentsOf: directory.appendingPathComponent("refused.txt"), encoding: .utf8)
        (noteChanges, noteChangeSink) = AsyncStream.makeStream(of: Note.self)
        container = Container(session: session, deviceID: directory.lastPathComponent,
                              assetCacheDirectory: directory.appendingPathComponent("assets"))
    }

    /// Signs in (or up) and writes the device's settings.
    static func setup(directory: URL, server: String, container identifier: String, apiToken: String,
                      username: String, password: String, signUp: Bool) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let container = Container(baseURL: server, containerIdentifier: identifier, apiToken: apiToken)
        if signUp {
            try await container.signUp(username: username, password: password)
        } else {
            try await container.signIn(username: username, password: password)
        }
        try await container.session().write(to: directory.appendingPathComponent("session.json"))
    }

    /// Opens the engine on the device's state file; events are applied to the local note.
    func open() async throws {
        let noteFile = directory.appendingPathComponent("note.json")
        let textFile = directory.appendingPathComponent("note.txt")
        var configuration = SyncEngine.Configuration(database: container.privateCloudDatabase,
                                                     stateURL: directory.appendingPathComponent("sync-state.sqlite")) { id in
            guard id == NoteDevice.noteID, let note = NoteDevice.readNote(noteFile) else { return nil }
            var record = CloudRecord(recordType: "note", recordID: id, fields: [
                "modified": .timestamp(note.modified), "version": .int64(NoteDevice.appVersion),
            ])
            try? Data(note.text.utf8).write(to: textFile, options: .atomic)
            record.setAsset(fileURL: textFile, forKey: "text")
            return record
        }
        configuration.automaticallySync = false
        configuration.conflictResolver = .latestModified(field: "modified")
        configuration.retry.maximumAttempts = 2
        engine = try SyncEngine(configuration: configuration)
        let events = engine.events
        Task { for await event in events { await self.apply(event) } }
    }

    /// The local note.
    func note() -> Note? { Self.readNote(directory.appendingPathComponent("note.json")) }

    /// Edits the note locally (durably) and queues it for sending.
    func edit(_ text: String) async throws {
        if let refusal { throw NotesError("not saved: \(refusal)") }
        let note = Note(text: text, modified: Int64(Date().timeIntervalSince1970 * 1000))
        try JSONEncoder().encode(note).write(to: directory.appendingPathComponent("note.json"), options: .atomic)
        try await engine.add(pendingRecordZoneChanges: [.saveRecord(Self.noteID)])
    }

    /// Sends and fetches, then waits until what the engine reported is applied.
    func sync() async throws {
        try await engine.syncNow()
        await settle()
    }

    /// Connects for push; the engine fetches on each notification, and ``noteChanges`` reports
    /// the note whenever another device changed it.
    func watch() async throws -> PushConnection {
        let push = PushConnection(container: container)
        await push.start()
        await engine.listen(to: push)
        return push
    }

    /// Waits until every event emitted so far is applied.
    func settle() async {
        let emitted = await engine.emittedEventCount
        while applied < emitted { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private var applied = 0
    /// The note each time a change made elsewhere arrives.
    nonisolated let noteChanges: AsyncStream<Note>
    private let noteChangeSink: AsyncStream<Note>.Continuation

    private func apply(_ event: SyncEvent) {
        defer { applied += 1 }
        var fetched = false
        let records: [CloudRecord] = switch event {
        case .fetchedRecordZoneChanges(let modifications, _):
            { fetched = true; return modifications }()
        case .sentRecordZoneChanges(let sent): sent.savedRecords
        default: []
        }
        for record in records where record.recordID == Self.noteID {
            let version = record.int64("version") ?? 1
            guard version <= Self.appVersion else {
                let reason = "the note on the server was written by a newer version of Notes (format \(version), this app knows \(Self.appVersion)); update Notes to see or edit it"
                refusal = reason
                try? reason.write(to: refusalFile, atomically: true, encoding: .utf8)
                continue
            }
            if refusal != nil {
                refusal = nil
                try? FileManager.default.removeItem(at: refusalFile)
            }
            guard let file = record.assetFiles["text"], let text = try? String(contentsOf: file, encoding: .utf8),
                  case .timestamp(let modified)? = record["modified"] else { continue }
            let note = Note(text: text, modified: modified)
            try? JSONEncoder().encode(note).write(to: directory.appendingPathComponent("note.json"), options: .atomic)
            if fetched { noteChangeSink.yield(note) }
        }
    }

    private static func readNote(_ file: URL) -> Note? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(Note.self, from: data)
    }
}

struct NotesError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
