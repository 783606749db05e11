import GRDB
import StratusCore

extension SQLiteTransaction {
    private static let shareColumns = "zone_id, record_name, root_record_name, short_guid, public_permission"

    private func shares(where condition: String, _ arguments: StatementArguments) throws -> [StoredShare] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.shareColumns) FROM shares WHERE \(condition)"), arguments: arguments).map { row in
            let zoneRowID: Int64 = row[0]
            let recordName: String = row[1]
            let participants = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT user_record_name, permission, type, status FROM share_participants
                WHERE zone_id = ? AND share_record_name = ? ORDER BY position
                """), arguments: [zoneRowID, recordName]).map { participant in
                StoredParticipant(userRecordName: participant[0], permission: SharePermission(rawValue: participant[1]) ?? .none,
                                  type: ParticipantType(rawValue: participant[2]) ?? .user,
                                  status: AcceptanceStatus(rawValue: participant[3]) ?? .invited)
            }
            return StoredShare(zoneRowID: zoneRowID, recordName: recordName, rootRecordName: row[2], shortGUID: row[3],
                               publicPermission: SharePermission(rawValue: row[4]) ?? .none, participants: participants)
        }
    }

    func share(zoneRowID: Int64, recordName: String) throws -> StoredShare? {
        try shares(where: "zone_id = ? AND record_name = ?", [zoneRowID, recordName]).first
    }

    func share(shortGUID: String) throws -> StoredShare? {
        try shares(where: "short_guid = ?", [shortGUID]).first
    }

    func shares(zoneRowID: Int64) throws -> [StoredShare] {
        try shares(where: "zone_id = ?", [zoneRowID])
    }

    func saveShare(_ share: StoredShare) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO shares (\(Self.shareColumns)) VALUES (?, ?, ?, ?, ?)",
                       arguments: [share.zoneRowID, share.recordName, share.rootRecordName, share.shortGUID, share.publicPermission.rawValue])
        try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ? AND share_record_name = ?",
                       arguments: [share.zoneRowID, share.recordName])
        for (position, participant) in share.participants.enumerated() {
            try db.execute(sql: """
                INSERT INTO share_participants (zone_id, share_record_name, user_record_name, permission, type, status, position)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [share.zoneRowID, share.recordName, participant.userRecordName, participant.permission.rawValue,
                                 participant.type.rawValue, participant.status.rawValue, position])
        }
    }

    func deleteShare(zoneRowID: Int64, recordName: String) throws {
        try db.execute(sql: "DELETE FROM shares WHERE zone_id = ? AND record_name = ?", arguments: [zoneRowID, recordName])
        try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ? AND share_record_name = ?", arguments: [zoneRowID, recordName])
    }

    func acceptedShares(zoneRowID: Int64, user: String) throws -> [StoredShare] {
        try shares(where: """
            zone_id = ? AND record_name IN (SELECT share_record_name FROM share_participants
                                            WHERE zone_id = ? AND user_record_name = ? AND status = 'ACCEPTED')
            """, [zoneRowID, zoneRowID, user])
    }

    func isAcceptedParticipant(zoneRowID: Int64, user: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM share_participants WHERE zone_id = ? AND user_record_name = ? AND status = 'ACCEPTED' LIMIT 1
            """), arguments: [zoneRowID, user]) == true
    }

    func setSharedZone(user: String, zoneRowID: Int64, active: Bool, sequence: Int64) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO shared_zones (user_record_name, zone_id, active, sequence) VALUES (?, ?, ?, ?)",
                       arguments: [user, zoneRowID, active, sequence])
    }

    func sharedZoneChanges(user: String, after sequence: Int64, skippingDeparturesThrough horizon: Int64, limit: Int) throws -> [SharedZoneEntry] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT s.zone_id, s.active, MAX(s.sequence, CASE WHEN s.active = 1 THEN z.change_sequence ELSE 0 END) AS changed
            FROM shared_zones s JOIN zones z ON z.id = s.zone_id
            WHERE s.user_record_name = ? AND (s.sequence > ? OR (s.active = 1 AND z.change_sequence > ?))
              AND NOT (s.active = 0 AND s.sequence <= ?)
            ORDER BY changed LIMIT ?
            """), arguments: [user, sequence, sequence, horizon, limit]).map { SharedZoneEntry(zoneRowID: $0[0], active: $0[1], sequence: $0[2]) }
    }

    func activeSharedZones(user: String) throws -> [SharedZoneEntry] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT zone_id, active, sequence FROM shared_zones WHERE user_record_name = ? AND active = 1"),
                         arguments: [user]).map { SharedZoneEntry(zoneRowID: $0[0], active: $0[1], sequence: $0[2]) }
    }

    func sharedZoneMembers(zoneRowID: Int64) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT user_record_name FROM shared_zones WHERE zone_id = ? AND active = 1"),
                            arguments: [zoneRowID])
    }

    func user(recordName: String) throws -> StoredUser? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE user_record_name = ?"), arguments: [recordName]).map(Self.user)
    }

    func databaseKey(id: Int64) throws -> DatabaseKey? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT container_id, environment, scope, owner_record_name FROM databases WHERE id = ?"),
                         arguments: [id]).flatMap { row in
            guard let environment = ContainerEnvironment(rawValue: row[1]), let scope = DatabaseScope(rawValue: row[2]) else { return nil }
            return DatabaseKey(containerID: row[0], environment: environment, scope: scope, ownerRecordName: row[3])
        }
    }
}
