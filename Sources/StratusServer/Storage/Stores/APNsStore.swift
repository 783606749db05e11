import StratusCore

/// Each container's APNs credentials and the device tokens its users register.
package protocol APNsStore {
    /// Sets (or, with nil, removes) a container's APNs credentials.
    func setAPNsCredentials(_ credentials: APNsCredentials?, containerID: String) async throws
    func apnsCredentials(containerID: String) async throws -> APNsCredentials?
    /// Registers a device token for its user, replacing its earlier registration (a device passed
    /// to another user is theirs now); past `maxPerUser`, the user's oldest tokens go.
    func registerAPNsToken(_ token: StoredAPNsToken, maxPerUser: Int) async throws
    /// A user's device tokens in an environment, oldest first; with `liveAt` (ms), only those
    /// whose registering session is still valid then.
    func apnsTokens(containerID: String, environment: ContainerEnvironment, user: String, liveAt: Int64?) async throws -> [StoredAPNsToken]
    /// Forgets a device token (APNs reported it unregistered); false if it was not registered.
    func removeAPNsToken(_ token: String, containerID: String) async throws -> Bool
}
