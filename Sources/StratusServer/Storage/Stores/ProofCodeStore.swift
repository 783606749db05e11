/// The codes mailed to a user to prove who they are again (``AccountCentre``), one per user;
/// only their SHA-256 is kept, with their expiry and the tries spent.
package protocol ProofCodeStore {
    func saveProofCode(_ code: StoredEmailCode) async throws
    func proofCode(user: String) async throws -> StoredEmailCode?
    func deleteProofCode(user: String) async throws
}
