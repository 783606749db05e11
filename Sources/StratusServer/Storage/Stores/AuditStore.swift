/// The administrators' audit log: what was changed through the console and the CLI, by whom,
/// from where, and when (``AuditLog``).
package protocol AuditStore {
    func appendAudit(_ entry: StoredAuditEntry) async throws
    /// The newest entries, newest first, of one container (nil: all), at most `limit`.
    func auditEntries(containerID: String?, limit: Int) async throws -> [StoredAuditEntry]
}
