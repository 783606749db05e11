/// The passkeys users sign in with, by container and credential ID.
package protocol PasskeyStore {
    /// Stores a new passkey; `EXISTS` when its credential ID is registered in the container already.
    func insertPasskey(_ passkey: StoredPasskey) async throws
    /// The passkey with this credential ID in the container, if any.
    func passkey(containerID: String, credentialID: String) async throws -> StoredPasskey?
    /// A user's passkeys, oldest first.
    func passkeys(user: String) async throws -> [StoredPasskey]
    /// A container's passkeys, by credential ID (an archive's).
    func passkeys(containerID: String) async throws -> [StoredPasskey]
    /// Records a use: the new signature counter, the backup state, when; false, recording
    /// nothing, when the counter does not grow past the stored one while either is non-zero.
    func setPasskeyUsed(containerID: String, credentialID: String, signCount: Int64, backedUp: Bool, at time: Int64) async throws -> Bool
    /// Deletes one of the user's passkeys; false when they have none of that ID.
    func deletePasskey(user: String, credentialID: String) async throws -> Bool
}
