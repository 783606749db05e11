/// ``UserCodeStore`` in the SQL both drivers speak: a table a purpose, `email_codes`,
/// `proof_codes` and `signup_codes`, of the same columns.
extension UserCodeStore where Self: SQLDatabase {
    package func saveUserCode(_ code: StoredEmailCode, for purpose: UserCodePurpose) async throws {
        try await run("""
            INSERT INTO \(unescaped: Self.table(purpose)) (user_record_name, code_hash, expires_at, attempts)
            VALUES (\(code.userRecordName), \(code.codeHash), \(code.expiresAt), \(code.attempts))
            ON CONFLICT (user_record_name) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at, attempts = EXCLUDED.attempts
            """)
    }

    package func userCode(user: String, for purpose: UserCodePurpose) async throws -> StoredEmailCode? {
        try await fetchOne("""
            SELECT user_record_name, code_hash, expires_at, attempts FROM \(unescaped: Self.table(purpose)) WHERE user_record_name = \(user)
            """).map {
            StoredEmailCode(userRecordName: try $0.string(0), codeHash: try $0.string(1), expiresAt: try $0.int64(2), attempts: try $0.int(3))
        }
    }

    package func deleteUserCode(user: String, for purpose: UserCodePurpose) async throws {
        try await run("DELETE FROM \(unescaped: Self.table(purpose)) WHERE user_record_name = \(user)")
    }

    private static func table(_ purpose: UserCodePurpose) -> String {
        switch purpose {
        case .emailVerification: "email_codes"
        case .proof: "proof_codes"
        case .signUp: "signup_codes"
        }
    }
}
