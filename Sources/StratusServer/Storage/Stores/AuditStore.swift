/// The administrators' audit log: what was changed through the console and the CLI, by whom,
/// from where, and when (``AuditLog``).
package protocol AuditStore {
    func appendAudit(_ entry: StoredAuditEntry) async throws
    /// Entries newest first, of one container (nil: all), older than `before` (an entry's `id`;
    /// nil: from the newest), at most `limit`.
    func auditEntries(containerID: String?, before: Int64?, limit: Int) async throws -> [StoredAuditEntry]
}
