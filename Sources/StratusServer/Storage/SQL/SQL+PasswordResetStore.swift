import StratusCore

/// ``PasswordResetStore`` in the SQL both drivers speak.
extension PasswordResetStore where Self: SQLDatabase {
    package func savePasswordResetCode(_ code: StoredPasswordResetCode) async throws {
        try await deletePasswordResetCodes(user: code.userRecordName)
        try await run("""
            INSERT INTO password_reset_codes (code_hash, user_record_name, expires_at)
            VALUES (\(code.codeHash), \(code.userRecordName), \(code.expiresAt))
            """)
    }

    package func passwordResetCode(codeHash: String) async throws -> StoredPasswordResetCode? {
        try await fetchOne("SELECT code_hash, user_record_name, expires_at FROM password_reset_codes WHERE code_hash = \(codeHash)").map {
            StoredPasswordResetCode(codeHash: try $0.string(0), userRecordName: try $0.string(1), expiresAt: try $0.int64(2))
        }
    }

    package func deletePasswordResetCodes(user: String) async throws {
        try await run("DELETE FROM password_reset_codes WHERE user_record_name = \(user)")
    }
}
