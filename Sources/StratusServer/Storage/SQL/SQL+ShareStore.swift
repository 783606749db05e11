import StratusCore

/// ``ShareStore`` in the SQL both drivers speak.
extension ShareStore where Self: SQLDatabase {
    package func share(zoneRowID: Int64, recordName: String) async throws -> StoredShare? {
        try await shares(where: "zone_id = \(zoneRowID) AND record_name = \(recordName)").first
    }

    package func share(shortGUID: String) async throws -> StoredShare? {
        try await shares(where: "short_guid = \(shortGUID)").first
    }

    package func shares(zoneRowID: Int64) async throws -> [StoredShare] {
        try await shares(where: "zone_id = \(zoneRowID)")
    }

    package func saveShare(_ share: StoredShare) async throws {
        try await run("""
            INSERT INTO shares (\(unescaped: Self.shareColumns))
            VALUES (\(share.zoneRowID), \(share.recordName), \(share.rootRecordName), \(share.shortGUID), \(share.publicPermission.rawValue))
            ON CONFLICT (zone_id, record_name) DO UPDATE SET root_record_name = EXCLUDED.root_record_name, short_guid = EXCLUDED.short_guid,
                public_permission = EXCLUDED.public_permission
            """)
        try await run("DELETE FROM share_participants WHERE zone_id = \(share.zoneRowID) AND share_record_name = \(share.recordName)")
        guard !share.participants.isEmpty else { return }
        // One statement for all participants: on PostgreSQL each statement is a round trip.
        var rows: SQLStatement = ""
        for (position, participant) in share.participants.enumerated() {
            rows = """
                \(rows)\(unescaped: position == 0 ? "" : ", ")(\(share.zoneRowID), \(share.recordName), \(participant.userRecordName), \
                \(participant.permission.rawValue), \(participant.type.rawValue), \(participant.status.rawValue), \(position), \
                \(participant.acceptedSequence))
                """
        }
        try await run("""
            INSERT INTO share_participants (zone_id, share_record_name, user_record_name, permission, type, status, position, accepted_sequence)
            VALUES \(rows)
            """)
    }

    package func deleteShare(zoneRowID: Int64, recordName: String) async throws {
        try await run("DELETE FROM shares WHERE zone_id = \(zoneRowID) AND record_name = \(recordName)")
        try await run("DELETE FROM share_participants WHERE zone_id = \(zoneRowID) AND share_record_name = \(recordName)")
    }

    package func acceptedShares(zoneRowID: Int64, user: String) async throws -> [StoredShare] {
        try await shares(where: """
            zone_id = \(zoneRowID) AND record_name IN (
                SELECT share_record_name FROM share_participants WHERE zone_id = \(zoneRowID) AND user_record_name = \(user) AND status = 'ACCEPTED')
            """)
    }

    package func isAcceptedParticipant(zoneRowID: Int64, user: String) async throws -> Bool {
        try await fetchOne("""
            SELECT 1 FROM share_participants WHERE zone_id = \(zoneRowID) AND user_record_name = \(user) AND status = 'ACCEPTED' LIMIT 1
            """) != nil
    }

    package func zonesSharedWith(user: String) async throws -> [Int64] {
        try await fetch("SELECT DISTINCT zone_id FROM share_participants WHERE user_record_name = \(user) ORDER BY zone_id").map { try $0.int64(0) }
    }

    package func setSharedZone(user: String, zoneRowID: Int64, active: Bool, sequence: Int64) async throws {
        try await run("""
            INSERT INTO shared_zones (user_record_name, zone_id, active, sequence) VALUES (\(user), \(zoneRowID), \(active), \(sequence))
            ON CONFLICT (user_record_name, zone_id) DO UPDATE SET active = EXCLUDED.active, sequence = EXCLUDED.sequence
            """)
    }

    package func sharedZoneChanges(user: String, after sequence: Int64, skippingDeparturesThrough horizon: Int64, limit: Int) async throws -> [SharedZoneEntry] {
        try await fetch("""
            SELECT s.zone_id, s.active, \(function: .greatest)(s.sequence, CASE WHEN s.active = \(literal: true) THEN z.change_sequence ELSE 0 END) AS changed
            FROM shared_zones s JOIN zones z ON z.id = s.zone_id
            WHERE s.user_record_name = \(user) AND (s.sequence > \(sequence) OR (s.active = \(literal: true) AND z.change_sequence > \(sequence)))
              AND NOT (s.active = \(literal: false) AND s.sequence <= \(horizon))
            ORDER BY changed LIMIT \(limit)
            """).map(Self.sharedZoneEntry)
    }

    package func activeSharedZones(user: String) async throws -> [SharedZoneEntry] {
        try await fetch("SELECT zone_id, active, sequence FROM shared_zones WHERE user_record_name = \(user) AND active = \(literal: true)")
            .map(Self.sharedZoneEntry)
    }

    package func sharedZoneMembers(zoneRowID: Int64) async throws -> [String] {
        try await fetch("SELECT user_record_name FROM shared_zones WHERE zone_id = \(zoneRowID) AND active = \(literal: true)").map { try $0.string(0) }
    }

    private static var shareColumns: String { "zone_id, record_name, root_record_name, short_guid, public_permission" }

    private func shares(where condition: SQLStatement) async throws -> [StoredShare] {
        var shares: [StoredShare] = []
        for row in try await fetch("SELECT \(unescaped: Self.shareColumns) FROM shares WHERE \(condition)") {
            let zoneRowID = try row.int64(0)
            let recordName = try row.string(1)
            let participants = try await fetch("""
                SELECT user_record_name, permission, type, status, accepted_sequence FROM share_participants
                WHERE zone_id = \(zoneRowID) AND share_record_name = \(recordName) ORDER BY position
                """).map { participant in
                StoredParticipant(userRecordName: try participant.string(0), permission: SharePermission(rawValue: try participant.string(1)) ?? .none,
                                  type: ParticipantType(rawValue: try participant.string(2)) ?? .user,
                                  status: AcceptanceStatus(rawValue: try participant.string(3)) ?? .invited,
                                  acceptedSequence: try participant.optionalInt64(4))
            }
            shares.append(StoredShare(zoneRowID: zoneRowID, recordName: recordName, rootRecordName: try row.optionalString(2),
                                      shortGUID: try row.string(3), publicPermission: SharePermission(rawValue: try row.string(4)) ?? .none,
                                      participants: participants))
        }
        return shares
    }

    private static func sharedZoneEntry(_ row: SQLRow) throws -> SharedZoneEntry {
        SharedZoneEntry(zoneRowID: try row.int64(0), active: try row.bool(1), sequence: try row.int64(2))
    }
}
