import Foundation
import GRDB
import StratusCore

/// ``StorageTransaction`` over one GRDB database connection, inside a transaction GRDB opened.
///
/// The change sequence is read once and handed out from memory; ``storeChangeSequence()`` writes
/// it back before the transaction commits.
final class SQLiteTransaction: StorageTransaction {
    let db: Database
    let storeEpoch: Int64
    private var sequence: (stored: Int64, current: Int64)?
    private var insertRecordStatement: Statement?
    private var replaceRecordStatement: Statement?

    init(db: Database, epoch: Int64) {
        self.db = db
        self.storeEpoch = epoch
    }

    /// SQLite runs in the process: a statement costs no round trip, and saves are written at once.
    var holdsRecordWrites: Bool { false }

    // MARK: Containers, users, sessions

    func container(id: String) throws -> StoredContainer? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, api_token, created_at FROM containers WHERE id = ?"), arguments: [id]).map {
            StoredContainer(id: $0[0], apiToken: $0[1], createdAt: $0[2])
        }
    }

    func insertContainer(_ container: StoredContainer) throws {
        try db.execute(sql: "INSERT INTO containers (id, api_token, created_at) VALUES (?, ?, ?)",
                       arguments: [container.id, container.apiToken, container.createdAt])
    }

    static let userColumns = "user_record_name, container_id, username, password_hash, created_at, email, discoverable, email_verified, disabled_at"

    static func user(_ row: Row) -> StoredUser {
        StoredUser(userRecordName: row[0], containerID: row[1], username: row[2], passwordHash: row[3], createdAt: row[4],
                   email: row[5], discoverable: row[6], emailVerified: row[7], disabledAt: row[8])
    }

    func user(containerID: String, username: String) throws -> StoredUser? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE container_id = ? AND username = ?"),
                         arguments: [containerID, username]).map(Self.user)
    }

    func user(containerID: String, email: String) throws -> StoredUser? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE container_id = ? AND email = ? AND email_verified = 1"),
                         arguments: [containerID, email.lowercased()]).map(Self.user)
    }

    func insertUser(_ user: StoredUser) throws {
        do {
            try db.execute(sql: """
                INSERT INTO users (\(Self.userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [user.userRecordName, user.containerID, user.username, user.passwordHash, user.createdAt,
                                 user.email?.lowercased(), user.discoverable, user.emailVerified, user.disabledAt])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw CloudKitError(.exists, "username '\(user.username)' is taken")
        }
    }

    func saveEmailCode(_ code: StoredEmailCode) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO email_codes (user_record_name, code_hash, expires_at, attempts) VALUES (?, ?, ?, ?)",
                       arguments: [code.userRecordName, code.codeHash, code.expiresAt, code.attempts])
    }

    func emailCode(user: String) throws -> StoredEmailCode? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT user_record_name, code_hash, expires_at, attempts FROM email_codes WHERE user_record_name = ?"),
                         arguments: [user]).map { StoredEmailCode(userRecordName: $0[0], codeHash: $0[1], expiresAt: $0[2], attempts: $0[3]) }
    }

    func markEmailVerified(user: String) throws {
        do {
            try db.execute(sql: "UPDATE users SET email_verified = 1 WHERE user_record_name = ?", arguments: [user])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw CloudKitError(.exists, "another account has verified this email address")
        }
        try db.execute(sql: "DELETE FROM email_codes WHERE user_record_name = ?", arguments: [user])
    }

    func session(tokenHash: String) throws -> StoredSession? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT token_hash, user_record_name, container_id, environment, expires_at FROM sessions WHERE token_hash = ?
            """), arguments: [tokenHash]).flatMap { row in
            guard let environment = ContainerEnvironment(rawValue: row[3]) else { return nil }
            return StoredSession(tokenHash: row[0], userRecordName: row[1], containerID: row[2], environment: environment, expiresAt: row[4])
        }
    }

    func insertSession(_ session: StoredSession) throws {
        try db.execute(sql: """
            INSERT INTO sessions (token_hash, user_record_name, container_id, environment, expires_at) VALUES (?, ?, ?, ?, ?)
            """, arguments: [session.tokenHash, session.userRecordName, session.containerID, session.environment.rawValue, session.expiresAt])
    }

    func deleteSession(tokenHash: String) throws {
        try db.execute(sql: "DELETE FROM apns_tokens WHERE session_hash = ?", arguments: [tokenHash])
        try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [tokenHash])
    }

    func deleteExpiredSessions(before time: Int64) throws {
        try db.execute(sql: "DELETE FROM apns_tokens WHERE session_hash IN (SELECT token_hash FROM sessions WHERE expires_at < ?)",
                       arguments: [time])
        try db.execute(sql: "DELETE FROM sessions WHERE expires_at < ?", arguments: [time])
    }

    // MARK: Change sequence

    func currentChangeSequence() throws -> Int64 {
        if let sequence { return sequence.current }
        let stored = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM change_sequence WHERE id = 1")) ?? 0
        sequence = (stored, stored)
        return stored
    }

    func nextChangeSequence() throws -> Int64 {
        let next = try currentChangeSequence() + 1
        sequence?.current = next
        return next
    }

    func advanceChangeSequence(to value: Int64) throws {
        if try currentChangeSequence() < value { sequence?.current = value }
    }

    /// Writes the sequence handed out by this transaction back to its row.
    func storeChangeSequence() throws {
        guard let sequence, sequence.current != sequence.stored else { return }
        try db.cachedStatement(sql: "UPDATE change_sequence SET value = ? WHERE id = 1").execute(arguments: [sequence.current])
        self.sequence = (sequence.current, sequence.current)
    }

    // MARK: Databases and zones

    func databaseID(_ key: DatabaseKey, create: Bool) throws -> Int64? {
        let arguments: StatementArguments = [key.containerID, key.environment.rawValue, key.scope.rawValue, key.ownerRecordName]
        if let id = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM databases WHERE container_id = ? AND environment = ? AND scope = ? AND owner_record_name = ?
            """), arguments: arguments) {
            return id
        }
        guard create else { return nil }
        try db.execute(sql: """
            INSERT INTO databases (container_id, environment, scope, owner_record_name) VALUES (?, ?, ?, ?)
            """, arguments: arguments)
        return db.lastInsertedRowID
    }

    func databasePurgedSequence(databaseID: Int64) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT purged_sequence FROM databases WHERE id = ?"), arguments: [databaseID]) ?? 0
    }

    private static let zoneColumns = "id, database_id, zone_name, change_sequence, purged_sequence, deleted"

    private static func zone(_ row: Row) -> StoredZone {
        StoredZone(rowID: row[0], databaseID: row[1], zoneName: row[2], changeSequence: row[3], purgedSequence: row[4], deleted: row[5])
    }

    func liveZone(databaseID: Int64, zoneName: String) throws -> StoredZone? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Self.zoneColumns) FROM zones WHERE database_id = ? AND zone_name = ? AND deleted = 0
            """), arguments: [databaseID, zoneName]).map(Self.zone)
    }

    func zone(rowID: Int64) throws -> StoredZone? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.zoneColumns) FROM zones WHERE id = ?"), arguments: [rowID]).map(Self.zone)
    }

    func liveZones(databaseID: Int64) throws -> [StoredZone] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(Self.zoneColumns) FROM zones WHERE database_id = ? AND deleted = 0 ORDER BY zone_name
            """), arguments: [databaseID]).map(Self.zone)
    }

    func insertZone(databaseID: Int64, zoneName: String, sequence: Int64) throws -> StoredZone {
        try db.execute(sql: "INSERT INTO zones (database_id, zone_name, change_sequence) VALUES (?, ?, ?)",
                       arguments: [databaseID, zoneName, sequence])
        return StoredZone(rowID: db.lastInsertedRowID, databaseID: databaseID, zoneName: zoneName,
                          changeSequence: sequence, purgedSequence: 0, deleted: false)
    }

    func deleteZone(rowID: Int64, sequence: Int64) throws {
        try db.execute(sql: "DELETE FROM records WHERE zone_id = ?", arguments: [rowID])
        try db.execute(sql: "DELETE FROM record_references WHERE zone_id = ?", arguments: [rowID])
        try db.execute(sql: "DELETE FROM record_index WHERE zone_id = ?", arguments: [rowID])
        try db.execute(sql: "DELETE FROM asset_references WHERE zone_id = ?", arguments: [rowID])
        try db.execute(sql: """
            UPDATE zones SET deleted = 1, change_sequence = ?, deleted_at = ? WHERE id = ?
            """, arguments: [sequence, Self.now(), rowID])
    }

    func setZoneChangeSequence(rowID: Int64, sequence: Int64) throws {
        try db.cachedStatement(sql: "UPDATE zones SET change_sequence = ? WHERE id = ?").execute(arguments: [sequence, rowID])
    }

    func zonesChanged(databaseID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int) throws -> [StoredZone] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(Self.zoneColumns) FROM zones WHERE database_id = ? AND change_sequence > ?
              AND NOT (deleted = 1 AND change_sequence <= ?)
            ORDER BY change_sequence LIMIT ?
            """), arguments: [databaseID, sequence, horizon, limit]).map(Self.zone)
    }

    // MARK: Records

    static let recordColumns = """
        zone_id, record_name, record_type, change_tag, fields, created_at, created_by, created_device,
        modified_at, modified_by, modified_device, parent, share, sequence, deleted, create_key
        """
    /// How many columns ``recordColumns`` names: what a query selects after them starts there.
    static let recordColumnCount = 16

    static func record(_ row: DirectStatement) -> StoredRecord {
        StoredRecord(
            zoneRowID: row.int64(0), recordName: row.text(1), recordType: row.text(2), changeTag: row.text(3), fieldsJSON: row.bytes(4),
            created: RecordStamp(timestamp: row.int64(5), userRecordName: row.text(6), deviceID: row.text(7)),
            modified: RecordStamp(timestamp: row.int64(8), userRecordName: row.text(9), deviceID: row.text(10)),
            parent: row.optionalText(11), share: row.optionalText(12), sequence: row.int64(13), deleted: row.bool(14),
            createKey: row.optionalText(15))
    }

    /// The rows of a record query whose arguments `bind` sets; with `maxBytes`, it stops once their fields add up to more
    /// than that and two rows are read (the one past the limit tells that more come), so a page
    /// never loads far past what it can answer.
    func fetchRecords(_ sql: String, capacity: Int = 0, maxBytes: Int = .max, bind: (inout DirectStatement) -> Void) throws -> [StoredRecord] {
        var statement = DirectStatement(try db.cachedStatement(sql: sql))
        bind(&statement)
        var rows: [StoredRecord] = []
        rows.reserveCapacity(capacity)
        var bytes = 0
        while try statement.next(in: db) {
            let row = Self.record(statement)
            rows.append(row)
            bytes += row.fieldsJSON.count
            if bytes > maxBytes && rows.count >= 2 {
                statement.reset()
                break
            }
        }
        return rows
    }

    func record(zoneRowID: Int64, recordName: String) throws -> StoredRecord? {
        try fetchRecords("SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND record_name = ?") {
            $0.bind(zoneRowID)
            $0.bind(recordName)
        }.first
    }

    func records(zoneRowID: Int64, recordNames: [String]) throws -> [StoredRecord] {
        var rows: [StoredRecord] = []
        for start in stride(from: 0, to: recordNames.count, by: 500) {
            let names = recordNames[start..<min(start + 500, recordNames.count)]
            rows += try fetchRecords("""
                SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND record_name IN (\(databaseQuestionMarks(count: names.count)))
                """, capacity: names.count) { statement in
                statement.bind(zoneRowID)
                for name in names { statement.bind(name) }
            }
        }
        return rows
    }

    func saveRecord(_ record: StoredRecord, references: [StoredReference], replacingReferences: Bool) throws {
        try write(record, replacing: true)
        if replacingReferences {
            try db.cachedStatement(sql: "DELETE FROM record_references WHERE zone_id = ? AND source_name = ?")
                .execute(arguments: [record.zoneRowID, record.recordName])
        }
        try insert(references, zoneRowID: record.zoneRowID)
    }

    func insertRecord(_ record: StoredRecord, references: [StoredReference]) throws -> Bool {
        do {
            try write(record, replacing: false)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
        try insert(references, zoneRowID: record.zoneRowID)
        return true
    }

    private static let insertRecordSQL = "INSERT INTO records (\(recordColumns)) VALUES (\(databaseQuestionMarks(count: recordColumnCount)))"
    private static let replaceRecordSQL = "INSERT OR REPLACE INTO records (\(recordColumns)) VALUES (\(databaseQuestionMarks(count: recordColumnCount)))"

    private func write(_ record: StoredRecord, replacing: Bool) throws {
        // The two statements are kept for the transaction: GRDB's cache is keyed by the SQL
        // text, which would be hashed anew for every saved record.
        let statement: Statement
        if replacing {
            statement = try replaceRecordStatement ?? db.cachedStatement(sql: Self.replaceRecordSQL)
            replaceRecordStatement = statement
        } else {
            statement = try insertRecordStatement ?? db.cachedStatement(sql: Self.insertRecordSQL)
            insertRecordStatement = statement
        }
        var row = DirectStatement(statement)
        row.bind(record.zoneRowID)
        row.bind(record.recordName)
        row.bind(record.recordType)
        row.bind(record.changeTag)
        row.bind(record.fieldsJSON)
        row.bind(record.created.timestamp)
        row.bind(record.created.userRecordName)
        row.bind(record.created.deviceID)
        row.bind(record.modified.timestamp)
        row.bind(record.modified.userRecordName)
        row.bind(record.modified.deviceID)
        row.bind(record.parent)
        row.bind(record.share)
        row.bind(record.sequence)
        row.bind(record.deleted)
        row.bind(record.createKey)
        try row.execute(in: db)
    }

    private func insert(_ references: [StoredReference], zoneRowID: Int64) throws {
        guard !references.isEmpty else { return }
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO record_references (zone_id, target_name, source_name, action) VALUES (?, ?, ?, ?)
            """)
        for reference in references {
            try insert.execute(arguments: [zoneRowID, reference.targetName, reference.sourceName, reference.action.rawValue])
        }
    }

    func references(zoneRowID: Int64, targetName: String) throws -> [StoredReference] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT source_name, target_name, action FROM record_references WHERE zone_id = ? AND target_name = ?
            """), arguments: [zoneRowID, targetName]).compactMap { row in
            Reference.Action(rawValue: row[2]).map { StoredReference(sourceName: row[0], targetName: row[1], action: $0) }
        }
    }

    func recordChanges(zoneRowID: Int64, after sequence: Int64, skippingDeletionsThrough horizon: Int64, limit: Int,
                       maxBytes: Int, recordTypes: [String]?) throws -> [StoredRecord] {
        let types = recordTypes ?? []
        let typeFilter = types.isEmpty ? "" : " AND record_type IN (\(databaseQuestionMarks(count: types.count)))"
        let horizonFilter = horizon > sequence ? " AND NOT (deleted = 1 AND sequence <= ?)" : ""
        return try fetchRecords("""
            SELECT \(Self.recordColumns) FROM records WHERE zone_id = ? AND sequence > ?\(horizonFilter)\(typeFilter)
            ORDER BY sequence LIMIT ?
            """, capacity: min(limit, 256), maxBytes: maxBytes) { statement in
            statement.bind(zoneRowID)
            statement.bind(sequence)
            if horizon > sequence { statement.bind(horizon) }
            for type in types { statement.bind(type) }
            statement.bind(Int64(limit))
        }
    }

    // MARK: Schema

    func recordTypeSchema(containerID: String, environment: ContainerEnvironment, recordType: String) throws -> RecordTypeSchema? {
        let arguments: StatementArguments = [containerID, environment.rawValue, recordType]
        guard try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT 1 FROM schema_record_types WHERE container_id = ? AND environment = ? AND record_type = ?
            """), arguments: arguments) == true else { return nil }
        var type = RecordTypeSchema(name: recordType)
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT field_name, field_type, indexes FROM schema_fields WHERE container_id = ? AND environment = ? AND record_type = ?
            """), arguments: arguments) {
            guard let fieldType = FieldType(wireName: row[1]) else { continue }
            let name: String = row[0]
            type.fields[name] = FieldSchema(name: name, type: fieldType, indexes: FieldIndexes(rawValue: row[2]))
        }
        return type
    }

    func schema(containerID: String, environment: ContainerEnvironment) throws -> Schema {
        var schema = Schema()
        for name in try String.fetchAll(db.cachedStatement(sql: """
            SELECT record_type FROM schema_record_types WHERE container_id = ? AND environment = ?
            """), arguments: [containerID, environment.rawValue]) {
            schema.recordTypes[name] = try recordTypeSchema(containerID: containerID, environment: environment, recordType: name)
        }
        try readSecurityRoles(into: &schema, containerID: containerID, environment: environment)
        return schema
    }

    func applySchemaChanges(_ changes: [SchemaChange], containerID: String, environment: ContainerEnvironment) throws {
        for change in changes {
            switch change {
            case .addRecordType(let recordType):
                try insertRecordType(recordType, containerID: containerID, environment: environment)
            case .addField(let recordType, let field), .setIndexes(let recordType, let field):
                try insertRecordType(recordType, containerID: containerID, environment: environment)
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO schema_fields (container_id, environment, record_type, field_name, field_type, indexes)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [containerID, environment.rawValue, recordType, field.name, field.type.storedName, field.indexes.rawValue])
            case .addRole(let role):
                try insertRole(role, containerID: containerID, environment: environment)
            case .setGrants(let recordType, let grants):
                try replaceGrants(grants, of: recordType, containerID: containerID, environment: environment)
            }
        }
    }

    func replaceSchema(_ schema: Schema, containerID: String, environment: ContainerEnvironment) throws {
        for table in ["schema_fields", "schema_record_types", "schema_roles", "schema_grants"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE container_id = ? AND environment = ?", arguments: [containerID, environment.rawValue])
        }
        try applySchemaChanges(schema.changesBuildingIt, containerID: containerID, environment: environment)
    }

    private func insertRecordType(_ recordType: String, containerID: String, environment: ContainerEnvironment) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO schema_record_types (container_id, environment, record_type) VALUES (?, ?, ?)
            """).execute(arguments: [containerID, environment.rawValue, recordType])
    }

    // MARK: Maintenance

    func purgeTombstones(before time: Int64) throws -> Int {
        try db.execute(sql: """
            UPDATE zones SET purged_sequence = MAX(purged_sequence, (
                SELECT MAX(sequence) FROM records WHERE zone_id = zones.id AND deleted = 1 AND modified_at < ?))
            WHERE deleted = 0 AND EXISTS (SELECT 1 FROM records WHERE zone_id = zones.id AND deleted = 1 AND modified_at < ?)
            """, arguments: [time, time])
        try db.execute(sql: "DELETE FROM records WHERE deleted = 1 AND modified_at < ?", arguments: [time])
        var purged = db.changesCount
        try db.execute(sql: """
            UPDATE databases SET purged_sequence = MAX(purged_sequence, (
                SELECT MAX(change_sequence) FROM zones WHERE database_id = databases.id AND deleted = 1 AND deleted_at < ?))
            WHERE EXISTS (SELECT 1 FROM zones WHERE database_id = databases.id AND deleted = 1 AND deleted_at < ?)
            """, arguments: [time, time])
        // The zone with the highest id stays, deleted or not: SQLite gives a new row the highest
        // id plus one, so no zone ever gets the id of a purged one, whose tokens would then pass
        // for the new zone's and skip its first changes.
        try db.execute(sql: "DELETE FROM zones WHERE deleted = 1 AND deleted_at < ? AND id < (SELECT MAX(id) FROM zones)", arguments: [time])
        purged += db.changesCount
        return purged
    }

    func withSavepoint<T>(_ body: () async throws -> T) async throws -> T {
        try await db.inCachedSavepoint(body)
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
