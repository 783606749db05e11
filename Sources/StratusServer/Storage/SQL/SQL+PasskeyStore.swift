import Foundation
import StratusCore

/// ``PasskeyStore`` in the SQL both drivers speak. Flags are stored as 0 and 1.
extension PasskeyStore where Self: SQLDatabase {
    package func insertPasskey(_ passkey: StoredPasskey) async throws {
        // Checked first, so that a PostgreSQL transaction is not aborted by the violation.
        if try await fetchOne("SELECT 1 FROM passkeys WHERE container_id = \(passkey.containerID) AND credential_id = \(passkey.credentialID)") != nil {
            throw CloudKitError(.exists, "this passkey is registered already")
        }
        try await run("""
            INSERT INTO passkeys (container_id, credential_id, user_record_name, user_handle, public_key, sign_count, backup_eligible, backed_up,
                                  transports, name, created_at, last_used_at)
            VALUES (\(passkey.containerID), \(passkey.credentialID), \(passkey.userRecordName), \(Array(passkey.userHandle)), \(Array(passkey.publicKey)),
                    \(passkey.signCount), \(Int64(passkey.backupEligible ? 1 : 0)), \(Int64(passkey.backedUp ? 1 : 0)),
                    \(passkey.transports.joined(separator: " ")), \(passkey.name), \(passkey.createdAt), \(passkey.lastUsedAt))
            """)
    }

    package func passkey(containerID: String, credentialID: String) async throws -> StoredPasskey? {
        try await fetchOne("SELECT \(Self.passkeyColumns) FROM passkeys WHERE container_id = \(containerID) AND credential_id = \(credentialID)")
            .map(Self.passkey)
    }

    package func passkeys(user: String) async throws -> [StoredPasskey] {
        try await fetch("SELECT \(Self.passkeyColumns) FROM passkeys WHERE user_record_name = \(user) ORDER BY created_at, credential_id")
            .map(Self.passkey)
    }

    package func passkeys(containerID: String) async throws -> [StoredPasskey] {
        try await fetch("SELECT \(Self.passkeyColumns) FROM passkeys WHERE container_id = \(containerID) ORDER BY credential_id").map(Self.passkey)
    }

    package func setPasskeyUsed(containerID: String, credentialID: String, signCount: Int64, backedUp: Bool, at time: Int64) async throws -> Bool {
        try await changedRowCount("""
            UPDATE passkeys SET sign_count = \(signCount), backed_up = \(Int64(backedUp ? 1 : 0)), last_used_at = \(time)
            WHERE container_id = \(containerID) AND credential_id = \(credentialID) AND (sign_count < \(signCount) OR (sign_count = 0 AND \(signCount) = 0))
            RETURNING 1
            """) > 0
    }

    package func deletePasskey(user: String, credentialID: String) async throws -> Bool {
        try await changedRowCount("DELETE FROM passkeys WHERE user_record_name = \(user) AND credential_id = \(credentialID) RETURNING 1") > 0
    }

    /// The columns ``passkey(_:)`` reads, in its order.
    private static var passkeyColumns: SQLStatement {
        "container_id, credential_id, user_record_name, user_handle, public_key, sign_count, backup_eligible, backed_up, transports, name, created_at, last_used_at"
    }

    private static func passkey(_ row: SQLRow) throws -> StoredPasskey {
        StoredPasskey(containerID: try row.string(0), credentialID: try row.string(1), userRecordName: try row.string(2), userHandle: Data(try row.bytes(3)),
                      publicKey: Data(try row.bytes(4)), signCount: try row.int64(5), backupEligible: try row.int64(6) != 0, backedUp: try row.int64(7) != 0,
                      transports: try row.string(8).split(separator: " ").map(String.init), name: try row.string(9), createdAt: try row.int64(10),
                      lastUsedAt: try row.optionalInt64(11))
    }
}
