/// The server-to-server keys of each container.
package protocol ServerKeyStore {
    func insertServerKey(_ key: StoredServerKey) async throws
    func serverKey(keyID: String) async throws -> StoredServerKey?
    /// A container's keys, revoked ones included, oldest first.
    func serverKeys(containerID: String) async throws -> [StoredServerKey]
    /// Marks a key revoked at `time`; false if there is no such key or it was revoked already.
    func revokeServerKey(keyID: String, at time: Int64) async throws -> Bool
}
