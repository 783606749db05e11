/// ``ProofCodeStore`` in the SQL both drivers speak.
extension ProofCodeStore where Self: SQLDatabase {
    package func saveProofCode(_ code: StoredEmailCode) async throws {
        try await run("""
            INSERT INTO proof_codes (user_record_name, code_hash, expires_at, attempts)
            VALUES (\(code.userRecordName), \(code.codeHash), \(code.expiresAt), \(code.attempts))
            ON CONFLICT (user_record_name) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = EXCLUDED.attempts
            """)
    }

    package func proofCode(user: String) async throws -> StoredEmailCode? {
        try await fetchOne("SELECT user_record_name, code_hash, expires_at, attempts FROM proof_codes WHERE user_record_name = \(user)").map {
            StoredEmailCode(userRecordName: try $0.string(0), codeHash: try $0.string(1), expiresAt: try $0.int64(2), attempts: try $0.int(3))
        }
    }

    package func deleteProofCode(user: String) async throws {
        try await run("DELETE FROM proof_codes WHERE user_record_name = \(user)")
    }
}
