import StratusCore

/// The one code per user that the email-code tables keep (`email_codes` for verifying an
/// address, `proof_codes` for proving who one is again), written once for both.
extension SQLDatabase {
    /// Saves a user's code in `table`, over the one before.
    func saveUserCode(_ code: StoredEmailCode, in table: String) async throws {
        try await run("""
            INSERT INTO \(unescaped: table) (user_record_name, code_hash, expires_at, attempts)
            VALUES (\(code.userRecordName), \(code.codeHash), \(code.expiresAt), \(code.attempts))
            ON CONFLICT (user_record_name) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = EXCLUDED.attempts
            """)
    }

    /// A user's code in `table`, if any.
    func userCode(user: String, in table: String) async throws -> StoredEmailCode? {
        try await fetchOne("SELECT user_record_name, code_hash, expires_at, attempts FROM \(unescaped: table) WHERE user_record_name = \(user)").map {
            StoredEmailCode(userRecordName: try $0.string(0), codeHash: try $0.string(1), expiresAt: try $0.int64(2), attempts: try $0.int(3))
        }
    }
}
