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

    /// One `INSERT … SELECT FROM unnest(…)` of every save: a column per array, so the statement
    /// text and its parameter count stay the same whatever the number of rows (a `VALUES` list
    /// of 400 rows, 6,400 parameters, took PostgreSQL longer to parse and bind than to run).
    /// Arrays cannot hold NULL here, so each nullable column comes with an array telling which
    /// rows are NULL.
    private static func upsert(_ saves: ArraySlice<Save>) -> PostgresQuery {
        let records = saves.map(\.record)
        var binds = PostgresBindings(capacity: 19)
        binds.append(records.map(\.zoneRowID))
        binds.append(records.map(\.recordName))
        binds.append(records.map(\.recordType))
        binds.append(records.map(\.changeTag))
        binds.append(records.map { ByteBuffer(bytes: $0.fieldsJSON) })
        binds.append(records.map(\.created.timestamp))
        binds.append(records.map(\.created.userRecordName))
        binds.append(records.map(\.created.deviceID))
        binds.append(records.map(\.modified.timestamp))
        binds.append(records.map(\.modified.userRecordName))
        binds.append(records.map(\.modified.deviceID))
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
        INSERT INTO records (\(RecordColumns.names))
        SELECT zone, name, type, tag, fields, created_at, created_by, created_device, modified_at, modified_by, modified_device,
               CASE WHEN no_parent THEN NULL ELSE parent END, CASE WHEN no_share THEN NULL ELSE share END, sequence, deleted,
               CASE WHEN no_create_key THEN NULL ELSE create_key END
        FROM unnest($1::BIGINT[], $2::TEXT[], $3::TEXT[], $4::TEXT[], $5::BYTEA[], $6::BIGINT[], $7::TEXT[], $8::TEXT[],
                    $9::BIGINT[], $10::TEXT[], $11::TEXT[], $12::TEXT[], $13::BOOLEAN[], $14::TEXT[], $15::BOOLEAN[],
                    $16::BIGINT[], $17::BOOLEAN[], $18::TEXT[], $19::BOOLEAN[])
            AS u(zone, name, type, tag, fields, created_at, created_by, created_device, modified_at, modified_by, modified_device,
                 parent, no_parent, share, no_share, sequence, deleted, create_key, no_create_key)
        \(PostgresTransaction.overwriteOnConflict)
        """
}
