import StratusCore

/// The parts of ``RecordStore`` both drivers run alike; record rows themselves are each driver's
/// fast path.
extension RecordStore where Self: SQLDatabase {
    package func references(zoneRowID: Int64, targetName: String) async throws -> [StoredReference] {
        try await fetch("""
            SELECT source_name, target_name, action FROM record_references WHERE zone_id = \(zoneRowID) AND target_name = \(targetName)
            """).compactMap { row in
            guard let action = Reference.Action(rawValue: try row.string(2)) else { return nil }
            return StoredReference(sourceName: try row.string(0), targetName: try row.string(1), action: action)
        }
    }
}
