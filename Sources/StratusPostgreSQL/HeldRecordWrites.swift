import NIOCore
import PostgresNIO
import StratusServer

/// Record saves a ``PostgresTransaction`` holds back and sends together.
///
/// Every statement sent to PostgreSQL is a network round trip, and a batch of 400 records saved
/// one `INSERT` each spends most of its time waiting for them. So saves are held here, and sent
/// as one `INSERT … ON CONFLICT DO UPDATE` of every row (with their reference edges in two more
/// statements) just before the transaction runs any other statement, or commits. Anything that
/// reads afterwards reads the rows, so holding them back is invisible to the writer.
///
/// A name is held at most once: PostgreSQL refuses a multi-row upsert that touches one row
/// twice, so a second save of a held name sends the held writes first.
struct HeldRecordWrites {
    /// One held ``StorageTransaction/saveRecord(_:references:replacingReferences:)``.
    struct Save {
        var record: StoredRecord
        var references: [StoredReference]
        var replacingReferences: Bool
    }

    private struct Key: Hashable {
        var zoneRowID: Int64
        var recordName: String
    }

    /// The held saves, in the order they were made.
    private(set) var saves: [Save] = []
    private var keys: Set<Key> = []

    var count: Int { saves.count }
    var isEmpty: Bool { saves.isEmpty }

    /// Whether a save of this record is held.
    func holds(_ record: StoredRecord) -> Bool {
        keys.contains(Key(zoneRowID: record.zoneRowID, recordName: record.recordName))
    }

    mutating func append(_ save: Save) {
        saves.append(save)
        keys.insert(Key(zoneRowID: save.record.zoneRowID, recordName: save.record.recordName))
    }

    /// Forgets the saves from `position` on (a savepoint they were made in rolled back before
    /// any of them reached the server).
    mutating func discard(from position: Int) {
        for save in saves[position...] { keys.remove(Key(zoneRowID: save.record.zoneRowID, recordName: save.record.recordName)) }
        saves.removeSubrange(position...)
    }

    mutating func removeAll() {
        saves.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }

    /// The statements that write these saves: the records' upsert, then the removal of the
    /// replaced records' old edges, then the new edges.
    static func statements(for saves: ArraySlice<Save>) -> [PostgresQuery] {
        guard !saves.isEmpty else { return [] }
        var statements = [upsert(saves)]
        let replacing = saves.filter(\.replacingReferences)
        if !replacing.isEmpty {
            statements.append("""
                DELETE FROM record_references WHERE (zone_id, source_name) IN
                    (SELECT * FROM unnest(\(replacing.map(\.record.zoneRowID)), \(replacing.map(\.record.recordName))))
                """)
        }
        let edges = saves.flatMap { save in save.references.map { (save.record.zoneRowID, $0) } }
        if !edges.isEmpty {
            statements.append("""
                INSERT INTO record_references (zone_id, target_name, source_name, action)
                SELECT * FROM unnest(\(edges.map(\.0)), \(edges.map(\.1.targetName)), \(edges.map(\.1.sourceName)), \(edges.map(\.1.action.rawValue)))
                ON CONFLICT DO NOTHING
                """)
        }
        return statements
    }

    /// One `INSERT … SELECT FROM unnest(…)` of every save, their actors stored first in the same
    /// statement (a data-modifying `WITH`): a column per array, so the statement
    /// text and its parameter count stay the same whatever the number of rows (a `VALUES` list
    /// of 400 rows, 6,400 parameters, took PostgreSQL longer to parse and bind than to run).
    /// Arrays cannot hold NULL here, so each nullable column comes with an array telling which
    /// rows are NULL.
    private static func upsert(_ saves: ArraySlice<Save>) -> PostgresQuery {
        let records = saves.map(\.record)
        let actors = RecordActors.actors(of: records)
        var binds = PostgresBindings(capacity: 21)
        binds.append(Array(actors.keys))
        binds.append(actors.values.map(\.userRecordName))
        binds.append(actors.values.map(\.deviceID))
        binds.append(records.map(\.zoneRowID))
        binds.append(records.map(\.recordName))
        binds.append(records.map(\.recordType))
        binds.append(records.map { $0.storedChangeTag ?? "" })
        binds.append(records.map { $0.storedChangeTag == nil })
        binds.append(records.map { ByteBuffer(bytes: $0.fieldsJSON) })
        binds.append(records.map(\.created.timestamp))
        binds.append(records.map { RecordActors.id(of: $0.created) })
        binds.append(records.map(\.modified.timestamp))
        binds.append(records.map { RecordActors.id(of: $0.modified) })
        binds.append(records.map { $0.parent ?? "" })
        binds.append(records.map { $0.parent == nil })
        binds.append(records.map { $0.share ?? "" })
        binds.append(records.map { $0.share == nil })
        binds.append(records.map(\.sequence))
        binds.append(records.map(\.deleted))
        binds.append(records.map { $0.createKey ?? "" })
        binds.append(records.map { $0.createKey == nil })
        return PostgresQuery(unsafeSQL: upsertSQL, binds: binds)
    }

    private static let upsertSQL = """
        WITH actors AS (
            INSERT INTO record_actors (id, user_record_name, device_id) SELECT * FROM unnest($1::BIGINT[], $2::TEXT[], $3::TEXT[])
            ON CONFLICT (id) DO NOTHING
        )
        INSERT INTO record_rows (\(RecordColumns.names))
        SELECT zone, name, type, CASE WHEN no_tag THEN NULL ELSE tag END, fields, created_at, created_by, modified_at, modified_by,
               CASE WHEN no_parent THEN NULL ELSE parent END, CASE WHEN no_share THEN NULL ELSE share END, sequence, deleted,
               CASE WHEN no_create_key THEN NULL ELSE create_key END
        FROM unnest($4::BIGINT[], $5::TEXT[], $6::TEXT[], $7::TEXT[], $8::BOOLEAN[], $9::BYTEA[], $10::BIGINT[], $11::BIGINT[],
                    $12::BIGINT[], $13::BIGINT[], $14::TEXT[], $15::BOOLEAN[], $16::TEXT[], $17::BOOLEAN[],
                    $18::BIGINT[], $19::BOOLEAN[], $20::TEXT[], $21::BOOLEAN[])
            AS u(zone, name, type, tag, no_tag, fields, created_at, created_by, modified_at, modified_by,
                 parent, no_parent, share, no_share, sequence, deleted, create_key, no_create_key)
        \(PostgresTransaction.overwriteOnConflict)
        """
}
