/// ``AuditStore`` in the SQL both drivers speak.
extension AuditStore where Self: SQLDatabase {
    package func appendAudit(_ entry: StoredAuditEntry) async throws {
        try await run("""
            INSERT INTO audit_log (at, actor, origin, action, container_id, detail)
            VALUES (\(entry.at), \(entry.actor), \(entry.origin), \(entry.action), \(entry.containerID), \(entry.detail))
            """)
    }

    package func auditEntries(containerID: String?, limit: Int) async throws -> [StoredAuditEntry] {
        let container: SQLStatement = containerID.map { "WHERE container_id = \($0)" } ?? ""
        return try await fetch("""
            SELECT id, at, actor, origin, action, container_id, detail FROM audit_log
            \(container) ORDER BY id DESC LIMIT \(limit)
            """).map { row in
            StoredAuditEntry(id: try row.int64(0), at: try row.int64(1), actor: try row.string(2), origin: try row.string(3),
                             action: try row.string(4), containerID: try row.string(5), detail: try row.string(6))
        }
    }
}
