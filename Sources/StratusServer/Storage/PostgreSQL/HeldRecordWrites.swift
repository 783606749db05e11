import NIOCore
import PostgresNIO

/// Record saves a ``PostgresTransaction`` holds back and sends together.
///
/// Every statement sent to PostgreSQL is a network round trip, and a batch of 400 records saved
/// one `INSERT` each spends most of its time waiting for them. So saves are held here, and sent
/// as one multi-row `INSERT … ON CONFLICT DO UPDATE` (with their reference edges in two more
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

    /// Most rows in one `INSERT`: 16 parameters each, under PostgreSQL's 65,535.
    static let rowsPerStatement = 1_000

    /// The statements that write these saves: the records' upserts, then the removal of the
    /// replaced records' old edges, then the new edges.
    static func statements(for saves: ArraySlice<Save>) -> [PostgresQuery] {
        guard !saves.isEmpty else { return [] }
        var statements: [PostgresQuery] = []
        for start in stride(from: saves.startIndex, to: saves.endIndex, by: rowsPerStatement) {
            statements.append(upsert(saves[start..<min(start + rowsPerStatement, saves.endIndex)]))
        }
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

    private static func upsert(_ saves: ArraySlice<Save>) -> PostgresQuery {
        var binds = PostgresBindings(capacity: saves.count * 16)
        var sql = "INSERT INTO records (\(PostgresTransaction.recordColumns)) VALUES "
        for (row, save) in saves.enumerated() {
            let first = row * 16
            sql += (row == 0 ? "(" : ", (") + (1...16).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
            PostgresTransaction.bind(save.record, to: &binds)
        }
        return PostgresQuery(unsafeSQL: sql + "\n" + PostgresTransaction.overwriteOnConflict, binds: binds)
    }
}
