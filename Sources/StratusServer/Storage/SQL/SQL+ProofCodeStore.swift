/// ``ProofCodeStore`` in the SQL both drivers speak.
extension ProofCodeStore where Self: SQLDatabase {
    package func saveProofCode(_ code: StoredEmailCode) async throws {
        try await saveUserCode(code, in: "proof_codes")
    }

    package func proofCode(user: String) async throws -> StoredEmailCode? {
        try await userCode(user: user, in: "proof_codes")
    }

    package func deleteProofCode(user: String) async throws {
        try await run("DELETE FROM proof_codes WHERE user_record_name = \(user)")
    }
}
