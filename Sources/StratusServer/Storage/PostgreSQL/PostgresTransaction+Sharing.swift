import Foundation
import PostgresNIO
import StratusCore

/// Shares and their participants, shared databases, and subscriptions.
extension PostgresTransaction {
    private func shares(_ query: PostgresQuery) async throws -> [StoredShare] {
        var shares: [StoredShare] = []
        for row in try await rows(query) {
            let zoneRowID = try row[0].decode(Int64.self)
            let recordName = try row[1].decode(String.self)
            let participants = try await rows("""
                SELECT user_record_name, permission, type, status FROM share_participants
                WHERE zone_id = \(zoneRowID) AND share_record_name = \(recordName) ORDER BY position
                """).map { participant in
                StoredParticipant(userRecordName: try participant[0].decode(String.self),
                                  permission: SharePermission(rawValue: try participant[1].decode(String.self)) ?? .none,
                                  type: ParticipantType(rawValue: try participant[2].decode(String.self)) ?? .user,
                                  status: AcceptanceStatus(rawValue: try participant[3].decode(String.self)) ?? .invited)
            }
            shares.append(StoredShare(zoneRowID: zoneRowID, recordName: recordName, rootRecordName: try row[2].decode(String?.self),
                                      shortGUID: try row[3].decode(String.self),
                                      publicPermission: SharePermission(rawValue: try row[4].decode(String.self)) ?? .none,
                                      participants: participants))
        }
        return shares
    }

    private static let shareColumns = "zone_id, record_name, root_record_name, short_guid, public_permission"

    func share(zoneRowID: Int64, recordName: String) async throws -> StoredShare? {
        try await shares("SELECT \(unescaped: Self.shareColumns) FROM shares WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)").first
    }

    func share(shortGUID: String) async throws -> StoredShare? {
        try await shares("SELECT \(unescaped: Self.shareColumns) FROM shares WHERE short_guid = \(shortGUID)").first
    }

    func shares(zoneRowID: Int64) async throws -> [StoredShare] {
        try await shares("SELECT \(unescaped: Self.shareColumns) FROM shares WHERE zone_id = \(zoneRowID)")
    }

    func saveShare(_ share: StoredShare) async throws {
        try await execute("""
            INSERT INTO shares (\(unescaped: Self.shareColumns))
            VALUES (\(share.zoneRowID), \(share.recordName), \(share.rootRecordName), \(share.shortGUID), \(share.publicPermission.rawValue))
            ON CONFLICT (zone_id, record_name) DO UPDATE SET root_record_name = EXCLUDED.root_record_name, short_guid = EXCLUDED.short_guid,
                public_permission = EXCLUDED.public_permission
            """)
        try await execute("DELETE FROM share_participants WHERE zone_id = \(share.zoneRowID) AND share_record_name = \(share.recordName)")
        guard !share.participants.isEmpty else { return }
        let participants = share.participants
        try await execute("""
            INSERT INTO share_participants (zone_id, share_record_name, user_record_name, permission, type, status, position)
            SELECT \(share.zoneRowID), \(share.recordName), p.user_record_name, p.permission, p.type, p.status, p.position - 1
            FROM unnest(\(participants.map(\.userRecordName)), \(participants.map(\.permission.rawValue)), \(participants.map(\.type.rawValue)),
                        \(participants.map(\.status.rawValue))) WITH ORDINALITY AS p(user_record_name, permission, type, status, position)
            """)
    }

    func deleteShare(zoneRowID: Int64, recordName: String) async throws {
        try await execute("DELETE FROM shares WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        try await execute("DELETE FROM share_participants WHERE zone_id = \(zoneRowID) AND share_record_name = \(recordName)")
    }

    func acceptedShares(zoneRowID: Int64, user: String) async throws -> [StoredShare] {
        try await shares("""
            SELECT \(unescaped: Self.shareColumns) FROM shares WHERE zone_id = \(zoneRowID) AND record_name IN (
                SELECT share_record_name FROM share_participants WHERE zone_id = \(zoneRowID) AND user_record_name = \(user) AND status = 'ACCEPTED')
            """)
    }

    func isAcceptedParticipant(zoneRowID: Int64, user: String) async throws -> Bool {
        try await value("""
            SELECT 1 FROM share_participants WHERE zone_id = \(zoneRowID) AND user_record_name = \(user) AND status = 'ACCEPTED' LIMIT 1
            """, as: Int32.self) != nil
    }

    func setSharedZone(user: String, zoneRowID: Int64, active: Bool, sequence: Int64) async throws {
        try await execute("""
            INSERT INTO shared_zones (user_record_name, zone_id, active, sequence) VALUES (\(user), \(zoneRowID), \(active), \(sequence))
            ON CONFLICT (user_record_name, zone_id) DO UPDATE SET active = EXCLUDED.active, sequence = EXCLUDED.sequence
            """)
    }

    func sharedZoneChanges(user: String, after sequence: Int64, skippingDeparturesThrough horizon: Int64, limit: Int) async throws -> [SharedZoneEntry] {
        try await rows("""
            SELECT s.zone_id, s.active, GREATEST(s.sequence, CASE WHEN s.active THEN z.change_sequence ELSE 0 END) AS changed
            FROM shared_zones s JOIN zones z ON z.id = s.zone_id
            WHERE s.user_record_name = \(user) AND (s.sequence > \(sequence) OR (s.active AND z.change_sequence > \(sequence)))
              AND NOT (NOT s.active AND s.sequence <= \(horizon))
            ORDER BY changed LIMIT \(Int64(limit))
            """).map(Self.sharedZoneEntry)
    }

    func activeSharedZones(user: String) async throws -> [SharedZoneEntry] {
        try await rows("SELECT zone_id, active, sequence FROM shared_zones WHERE user_record_name = \(user) AND active").map(Self.sharedZoneEntry)
    }

    private static func sharedZoneEntry(_ row: PostgresRandomAccessRow) throws -> SharedZoneEntry {
        SharedZoneEntry(zoneRowID: try row[0].decode(Int64.self), active: try row[1].decode(Bool.self), sequence: try row[2].decode(Int64.self))
    }

    func sharedZoneMembers(zoneRowID: Int64) async throws -> [String] {
        try await values("SELECT user_record_name FROM shared_zones WHERE zone_id = \(zoneRowID) AND active", as: String.self)
    }

    // MARK: Subscriptions

    func subscriptions(databaseID: Int64, owner: String?) async throws -> [StoredSubscription] {
        try await rows("""
            SELECT owner, body FROM subscriptions WHERE database_id = \(databaseID) AND (\(owner)::text IS NULL OR owner = \(owner))
            ORDER BY subscription_id
            """).compactMap { row in
            guard let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(try row[1].decode(String.self).utf8)) else { return nil }
            return StoredSubscription(databaseID: databaseID, owner: try row[0].decode(String.self), subscription: subscription)
        }
    }

    func saveSubscription(_ stored: StoredSubscription) async throws {
        let body = String(decoding: try JSONEncoder().encode(stored.subscription), as: UTF8.self)
        try await execute("""
            INSERT INTO subscriptions (database_id, owner, subscription_id, body)
            VALUES (\(stored.databaseID), \(stored.owner), \(stored.subscription.subscriptionID), \(body))
            ON CONFLICT (database_id, owner, subscription_id) DO UPDATE SET body = EXCLUDED.body
            """)
    }

    func deleteSubscription(databaseID: Int64, owner: String, subscriptionID: String) async throws -> Bool {
        try await changedRows("""
            DELETE FROM subscriptions WHERE database_id = \(databaseID) AND owner = \(owner) AND subscription_id = \(subscriptionID) RETURNING 1
            """) > 0
    }
}
