import Foundation
import StratusCore

/// ``WebhookStore`` in the SQL both drivers speak.
///
/// `webhook_endpoints` holds each endpoint with its filter (JSON lists), its sealed secrets, its
/// cursor into `record_log` (`delivered_through`) and its lease (`lease_owner`, `lease_until`);
/// `webhook_attempts` the last tries of each. Record log row ids follow commit order on both
/// drivers (writers take turns), so a cursor never passes an entry that commits later.
extension WebhookStore where Self: SQLDatabase {
    package func addWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws {
        try await run("""
            INSERT INTO webhook_endpoints (\(unescaped: WebhookColumns.names), lease_owner, lease_until)
            VALUES (\(list: endpoint.columnValues), NULL, 0)
            """)
    }

    package func webhookEndpoints(containerID: String?) async throws -> [StoredWebhookEndpoint] {
        let which: SQLStatement = containerID.map { "WHERE container_id = \($0)" } ?? ""
        return try await fetch("SELECT \(unescaped: WebhookColumns.names), lease_owner, lease_until FROM webhook_endpoints \(which) ORDER BY created_at, id")
            .map(StoredWebhookEndpoint.init(row:))
    }

    package func webhookEndpoint(id: String) async throws -> StoredWebhookEndpoint? {
        try await fetchOne("SELECT \(unescaped: WebhookColumns.names), lease_owner, lease_until FROM webhook_endpoints WHERE id = \(id)")
            .map(StoredWebhookEndpoint.init(row:))
    }

    package func updateWebhookEndpoint(_ endpoint: StoredWebhookEndpoint) async throws {
        let values = endpoint.columnValues
        let assignments = zip(WebhookColumns.list, values).dropFirst().map { column, value -> SQLStatement in "\(unescaped: column) = \(value)" }
        // Releasing the lease ends a courier's round: its progress would overwrite the change.
        try await run("""
            UPDATE webhook_endpoints SET \(SQLStatement(joining: assignments, separator: ", ")), lease_owner = NULL, lease_until = 0
            WHERE id = \(endpoint.id)
            """)
    }

    package func removeWebhookEndpoint(id: String) async throws -> Bool {
        try await run("DELETE FROM webhook_attempts WHERE endpoint_id = \(id)")
        return try await changedRowCount("DELETE FROM webhook_endpoints WHERE id = \(id) RETURNING 1") > 0
    }

    package func claimWebhookEndpoint(id: String, owner: String, now: Int64, leaseUntil: Int64) async throws -> Bool {
        try await changedRowCount("""
            UPDATE webhook_endpoints SET lease_owner = \(owner), lease_until = \(leaseUntil)
            WHERE id = \(id) AND (lease_owner = \(owner) OR lease_owner IS NULL OR lease_until <= \(now)) RETURNING 1
            """) > 0
    }

    package func releaseWebhookLeases(owner: String) async throws {
        try await run("UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = 0 WHERE lease_owner = \(owner)")
    }

    package func recordWebhookProgress(_ progress: WebhookProgress, owner: String) async throws -> Bool {
        try await changedRowCount("""
            UPDATE webhook_endpoints SET delivered_through = \(progress.cursor), epoch = \(progress.epoch), state = \(progress.state.rawValue),
                   attempts = \(Int64(progress.attempts)), failing_since = \(progress.failingSince), next_attempt_at = \(progress.nextAttemptAt)
            WHERE id = \(progress.endpointID) AND lease_owner = \(owner) AND state <> \(StoredWebhookEndpoint.State.disabled.rawValue) RETURNING 1
            """) > 0
    }

    package func appendWebhookAttempts(_ attempts: [WebhookAttempt], endpointID: String, keeping: Int, since: Int64) async throws {
        guard !attempts.isEmpty else { return }
        let rows = attempts.map { attempt -> SQLStatement in
            "(\(endpointID), \(attempt.eventID), \(attempt.attemptedAt), \(attempt.status), \(attempt.latencyMilliseconds), \(attempt.answer))"
        }
        try await run("""
            INSERT INTO webhook_attempts (endpoint_id, event_id, attempted_at, status, latency_ms, answer)
            VALUES \(SQLStatement(joining: rows, separator: ", "))
            """)
        try await run("""
            DELETE FROM webhook_attempts WHERE endpoint_id = \(endpointID)
              AND (attempted_at < \(since) OR id <= (SELECT id FROM webhook_attempts WHERE endpoint_id = \(endpointID)
                                                    ORDER BY id DESC LIMIT 1 OFFSET \(keeping)))
            """)
    }

    package func webhookAttempts(endpointID: String, limit: Int) async throws -> [WebhookAttempt] {
        try await fetch("""
            SELECT endpoint_id, event_id, attempted_at, status, latency_ms, answer FROM webhook_attempts
            WHERE endpoint_id = \(endpointID) ORDER BY id DESC LIMIT \(Int64(limit))
            """).map { row in
            WebhookAttempt(endpointID: try row.string(0), eventID: try row.string(1), attemptedAt: try row.int64(2), status: try row.int(3),
                           latencyMilliseconds: try row.int64(4), answer: try row.string(5))
        }
    }

    package func webhookEvents(containerID: String, environment: ContainerEnvironment, after position: Int64, limit: Int) async throws -> [WebhookLogEvent] {
        let delete = RecordLogEntry.Change.delete.rawValue, zoneDelete = RecordLogEntry.Change.zoneDelete.rawValue
        return try await fetch("""
            SELECT l.id, l.change, l.zone_id, z.zone_name, d.scope, d.owner_record_name, l.record_name, l.record_type, l.sequence, l.logged_at,
                   a.user_record_name, a.device_id, l.cause
            FROM record_log l JOIN zones z ON z.id = l.zone_id JOIN databases d ON d.id = z.database_id
            LEFT JOIN record_actors a ON a.id = l.actor
            WHERE l.id > \(position) AND d.container_id = \(containerID) AND d.environment = \(environment.rawValue)
              AND NOT (l.change = \(delete) AND EXISTS (
                  SELECT 1 FROM record_log x WHERE x.zone_id = l.zone_id AND x.record_name = \(RecordLogEntry.zoneEventName)
                    AND x.sequence = l.sequence AND x.change = \(zoneDelete)))
            ORDER BY l.id LIMIT \(Int64(limit))
            """).map { row in
            guard let change = RecordLogEntry.Change(rawValue: try row.int64(1)), let scope = DatabaseScope(rawValue: try row.string(4)) else {
                throw CloudKitError(.internalError, "a record log entry of an unknown kind")
            }
            let owner = try row.string(5)
            let stamp = RecordStamp(timestamp: try row.int64(9), userRecordName: try row.optionalString(10) ?? owner,
                                    deviceID: try row.optionalString(11) ?? "")
            return WebhookLogEvent(position: try row.int64(0), change: change, zoneRowID: try row.int64(2), zoneName: try row.string(3),
                                   database: scope == .private && stamp.userRecordName != owner ? .shared : scope, zoneOwner: owner,
                                   recordName: try row.string(6), recordType: try row.string(7), sequence: try row.int64(8), stamp: stamp,
                                   cause: try row.optionalString(12))
        }
    }

    package func recordLogPosition(before time: Int64?) async throws -> Int64 {
        let when: SQLStatement = time.map { "WHERE logged_at < \($0)" } ?? ""
        return try await fetchOne("SELECT MAX(id) FROM record_log \(when)")?.optionalInt64(0) ?? 0
    }

    package func firstRecordLogPosition() async throws -> Int64? {
        try await fetchOne("SELECT MIN(id) FROM record_log")?.optionalInt64(0)
    }

    package func passWebhookBacklog(before position: Int64) async throws -> Int {
        try await changedRowCount("""
            UPDATE webhook_endpoints SET delivered_through = \(position), attempts = 0, failing_since = NULL, next_attempt_at = 0
            WHERE delivered_through < \(position) RETURNING 1
            """)
    }

    package func resetWebhookCursors(to position: Int64) async throws {
        try await run("UPDATE webhook_endpoints SET delivered_through = \(position), attempts = 0, failing_since = NULL, next_attempt_at = 0")
    }
}

/// The columns of `webhook_endpoints` an endpoint is read from and written to, `id` first.
enum WebhookColumns {
    static let list = ["id", "container_id", "environment", "url", "scopes", "record_types", "zones", "secret", "previous_secret",
                       "previous_secret_until", "state", "delivered_through", "epoch", "attempts", "failing_since", "next_attempt_at", "created_at"]
    static let names = list.joined(separator: ", ")
}

extension StoredWebhookEndpoint {
    /// The values of ``WebhookColumns/list``, in order.
    var columnValues: [SQLValue] {
        [.text(id), .text(containerID), .text(environment.rawValue), .text(url), .text(Self.json(filter.scopes.map(\.rawValue))),
         .text(Self.json(filter.recordTypes)), .text(Self.json(filter.zones)), .text(secret), previousSecret.sqlValue,
         previousSecretUntil.sqlValue, .integer(state.rawValue), .integer(cursor), .integer(epoch), .integer(Int64(attempts)),
         failingSince.sqlValue, .integer(nextAttemptAt), .integer(createdAt)]
    }

    init(row: SQLRow) throws {
        guard let environment = ContainerEnvironment(rawValue: try row.string(2)), let state = State(rawValue: try row.int64(10)) else {
            throw CloudKitError(.internalError, "a webhook endpoint row is unreadable")
        }
        let scopes = try Self.list(row.string(4)).compactMap(DatabaseScope.init(rawValue:))
        self.init(id: try row.string(0), containerID: try row.string(1), environment: environment, url: try row.string(3),
                  filter: WebhookFilter(scopes: scopes, recordTypes: try Self.list(row.string(5)), zones: try Self.list(row.string(6))),
                  secret: try row.string(7), previousSecret: try row.optionalString(8), previousSecretUntil: try row.optionalInt64(9),
                  state: state, cursor: try row.int64(11), epoch: try row.int64(12), attempts: try row.int(13),
                  failingSince: try row.optionalInt64(14), nextAttemptAt: try row.int64(15), createdAt: try row.int64(16))
        leaseOwner = try row.optionalString(17)
        leaseUntil = try row.int64(18)
    }

    private static func json(_ list: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(list)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func list(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}
