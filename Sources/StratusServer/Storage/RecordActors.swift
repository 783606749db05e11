import Crypto
import StratusCore
import Synchronization

/// Who wrote a record version, and from which device: what a ``RecordStamp`` names besides its time.
package struct RecordActor: Hashable, Sendable {
    package var userRecordName: String
    package var deviceID: String

    package init(userRecordName: String, deviceID: String) {
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }

    package init(_ stamp: RecordStamp) {
        self.init(userRecordName: stamp.userRecordName, deviceID: stamp.deviceID)
    }
}

/// The record actors rows name by id (`record_rows.created_by`, `modified_by`), each kept once in
/// `record_actors` (record format 2): a row carries two integers where it carried a user's record
/// name and a device's ID twice.
///
/// An actor's id is derived from it — the first 63 bits of the SHA-256 of its user record name and
/// device ID — so no lookup comes before a write, and an id means the same actor in every
/// transaction, instance and store (a rolled-back write that stored one cannot leave it naming
/// another). Each write stores the actors of its rows in its own transaction
/// (``SQLDatabase/storeActors(_:)``); the first time a process stores an actor it reads the row
/// back, and two actors with one id fail the write rather than take each other's name (about one
/// chance in 10^7 with a million actors; none that a caller can aim at: SHA-256).
///
/// Reading, an id is named from this process's cache, or from `record_actors` once per statement
/// for the ids the cache lacks (``SQLDatabase/fetchRecords(_:extraColumns:maxBytes:)``). Rows are
/// never changed or removed, so a name once read stays true.
package enum RecordActors {
    private struct Cache {
        var ids: [RecordActor: Int64] = [:]
        var actors: [Int64: RecordActor] = [:]
        var verified: Set<Int64> = []
    }

    /// Most actors kept in memory; past it the cache starts over (it only saves work).
    static let capacity = 65_536

    private static let cache = Mutex(Cache())

    /// The id of an actor.
    package static func id(of actor: RecordActor) -> Int64 {
        if let id = cache.withLock({ $0.ids[actor] }) { return id }
        let id = derivedID(of: actor)
        cache.withLock { cache in
            if cache.ids.count >= capacity { cache = Cache() }
            cache.ids[actor] = id
            cache.actors[id] = actor
        }
        return id
    }

    package static func id(of stamp: RecordStamp) -> Int64 { id(of: RecordActor(stamp)) }

    /// The creators and modifiers of `records`, by id.
    package static func actors(of records: some Sequence<StoredRecord>) -> [Int64: RecordActor] {
        var actors: [Int64: RecordActor] = [:]
        for record in records {
            actors[id(of: record.created)] = RecordActor(record.created)
            actors[id(of: record.modified)] = RecordActor(record.modified)
        }
        return actors
    }

    /// The id without the cache: 63 bits of SHA-256(user record name, NUL, device ID).
    package static func derivedID(of actor: RecordActor) -> Int64 {
        var hash = SHA256()
        hash.update(data: Array(actor.userRecordName.utf8))
        hash.update(data: [0])
        hash.update(data: Array(actor.deviceID.utf8))
        return hash.finalize().withUnsafeBytes { bytes in
            Int64(bitPattern: bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF_FFFF_FFFF)
        }
    }

    /// The actors with these ids that this process knows, and the ids it does not.
    static func known(_ ids: some Sequence<Int64>) -> (known: [Int64: RecordActor], unknown: Set<Int64>) {
        cache.withLock { cache in
            var known: [Int64: RecordActor] = [:]
            var unknown = Set<Int64>()
            for id in ids {
                if let actor = cache.actors[id] { known[id] = actor } else { unknown.insert(id) }
            }
            return (known, unknown)
        }
    }

    /// Remembers actors read from `record_actors`.
    static func remember(_ actors: [Int64: RecordActor], verified: Bool = false) {
        cache.withLock { cache in
            if cache.actors.count + actors.count > capacity { cache = Cache() }
            for (id, actor) in actors {
                cache.actors[id] = actor
                cache.ids[actor] = id
                if verified { cache.verified.insert(id) }
            }
        }
    }

    /// The ids among these that this process has not read back from `record_actors` yet.
    static func unverified(_ ids: some Sequence<Int64>) -> Set<Int64> {
        cache.withLock { cache in Set(ids.filter { !cache.verified.contains($0) }) }
    }
}

/// The last actor a writer named and its id: a batch of one caller's rows (every row of a request
/// has the same creator or modifier) looks its strings up once, not per row.
package struct RecordActorMemo {
    private var last: (actor: RecordActor, id: Int64)?

    package init() {}

    package mutating func id(of stamp: RecordStamp) -> Int64 {
        if let last, last.actor.userRecordName == stamp.userRecordName, last.actor.deviceID == stamp.deviceID { return last.id }
        let actor = RecordActor(stamp)
        let id = RecordActors.id(of: actor)
        last = (actor, id)
        return id
    }
}

extension SQLDatabase {
    /// Stores the actors of `records` (their creators and modifiers) unless stored already, in
    /// this transaction, and checks each against its row the first time this process stores it.
    package func storeActors(of records: [StoredRecord]) async throws {
        try await storeActors(RecordActors.actors(of: records))
    }

    /// Stores these actors, by id, unless stored already, as ``storeActors(of:)`` does.
    package func storeActors(_ actors: [Int64: RecordActor]) async throws {
        let rows = actors.map { id, actor -> SQLStatement in "(\(id), \(actor.userRecordName), \(actor.deviceID))" }
        try await run("""
            INSERT INTO record_actors (id, user_record_name, device_id) VALUES \(SQLStatement(joining: rows, separator: ", "))
            ON CONFLICT (id) DO NOTHING
            """)
        try await verifyActors(actors)
    }

    /// Reads back the actors this process has not checked yet: `INTERNAL_ERROR` if another
    /// actor holds one's id.
    package func verifyActors(_ actors: [Int64: RecordActor]) async throws {
        let unverified = RecordActors.unverified(actors.keys)
        guard !unverified.isEmpty else { return }
        let stored = try await namedActors(unverified)
        for id in unverified where stored[id] != actors[id] {
            throw CloudKitError(.internalError, "record actor id \(id) is taken by another user and device; the write was not made")
        }
        RecordActors.remember(stored, verified: true)
    }

    /// The actors with these ids, from `record_actors`.
    func namedActors(_ ids: Set<Int64>) async throws -> [Int64: RecordActor] {
        var actors: [Int64: RecordActor] = [:]
        let list = Array(ids)
        for start in stride(from: 0, to: list.count, by: 500) {
            for row in try await fetch("""
                SELECT id, user_record_name, device_id FROM record_actors WHERE id IN (\(list: Array(list[start..<min(start + 500, list.count)])))
                """) {
                actors[try row.int64(0)] = RecordActor(userRecordName: try row.string(1), deviceID: try row.string(2))
            }
        }
        return actors
    }
}
