import StratusCore

/// `users/caller` and `users/discover`: who the caller is, and finding people to share with —
/// only those who allowed it when they signed up (`discoverable`).
package struct UserDirectory: Sendable {
    let storage: any StratusStorage

    package func caller(_ access: DatabaseAccess) async throws -> UserIdentitiesResponse {
        let user = try access.requireUser()
        return UserIdentitiesResponse(users: [try await storage.read { try await ShareKeysView.identity(user, in: $0) }])
    }

    /// The discoverable users matching each lookup (by email address, username or record name).
    package func discover(_ request: UserDiscoveryRequest, _ access: DatabaseAccess) async throws -> UserIdentitiesResponse {
        _ = try access.requireUser()
        guard request.lookupInfos.count <= 200 else { throw CloudKitError.limitExceeded("at most 200 lookups per request") }
        return try await storage.read { transaction in
            var found: [UserIdentity] = []
            for lookup in request.lookupInfos {
                var user = try await lookup.emailAddress.asyncFlatMap { try await transaction.user(containerID: access.containerID, email: $0) }
                if user == nil { user = try await lookup.username.asyncFlatMap { try await transaction.user(containerID: access.containerID, username: $0) } }
                if user == nil { user = try await lookup.userRecordName.asyncFlatMap { try await transaction.user(recordName: $0) } }
                guard let user, user.discoverable, user.containerID == access.containerID else { continue }
                var identity = try await ShareKeysView.identity(user.userRecordName, in: transaction)
                identity.lookupInfo?.emailAddress = user.email
                found.append(identity)
            }
            return UserIdentitiesResponse(users: found)
        }
    }
}
