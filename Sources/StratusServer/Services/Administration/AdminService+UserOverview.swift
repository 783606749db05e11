import StratusCore

/// What the console's user page shows of one user in one environment.
package struct UserOverview: Sendable {
    /// A zone of the user's private database, with the shares it holds.
    package struct OwnedZone: Sendable {
        package var name: String
        package var shares: [StoredShare]
    }

    package var user: StoredUser
    package var zones: [OwnedZone]
    /// Zones of other users shared with this one (invited or accepted): owner and zone name.
    package var sharedWithThem: [(owner: String, zone: String)]
    package var subscriptions: [StoredSubscription]
    package var apnsTokens: [StoredAPNsToken]
    /// Push connections (WebSockets and couriers) open now.
    package var pushConnections: Int
    /// Usernames by user record name, for the participants and owners named above.
    package var usernames: [String: String]
    /// The user's passkeys.
    package var passkeys: [StoredPasskey] = []
    /// The OpenID Connect and GitHub identities linked to the user.
    package var identities: [StoredOpenIDIdentity] = []

    /// How the user can sign in, in words: a password, an Apple ID (with the email Apple gave),
    /// passkeys (by name), providers (with the email each gave).
    package var signInMethods: [String] {
        var methods: [String] = []
        if user.hasPassword { methods.append("password") }
        if let apple = user.apple {
            let email = apple.email.map { " (\($0)\(apple.emailVerified ? "" : ", unverified"))" } ?? ""
            methods.append("Sign in with Apple\(email)")
        }
        methods += passkeys.map { "passkey \"\($0.name)\"" }
        methods += identities.map { identity in
            "\(identity.provider)" + (identity.email.map { " (\($0)\(identity.emailVerified ? "" : ", unverified"))" } ?? "")
        }
        return methods
    }
}

extension AdminService {
    /// One user's zones and the shares they hold, the zones shared with them, their
    /// subscriptions, APNs device tokens and open push connections, in one environment.
    package func overview(username: String, containerID: String, environment: ContainerEnvironment) async throws -> UserOverview {
        let user = try await self.user(username: username, containerID: containerID)
        var overview = try await storage.read { transaction in
            let key = DatabaseKey(containerID: containerID, environment: environment, scope: .private, ownerRecordName: user.userRecordName)
            let databaseID = try await transaction.databaseID(key, create: false)
            let zones = try await databaseID.asyncMap { try await transaction.liveZones(databaseID: $0) } ?? []
            var overview = UserOverview(
                user: user,
                zones: try await zones.asyncMap { UserOverview.OwnedZone(name: $0.zoneName, shares: try await transaction.shares(zoneRowID: $0.rowID)) },
                sharedWithThem: [], subscriptions: try await databaseID.asyncMap { try await transaction.subscriptions(databaseID: $0, owner: nil) } ?? [],
                apnsTokens: try await transaction.apnsTokens(containerID: containerID, environment: environment, user: user.userRecordName, liveAt: nil),
                pushConnections: 0, usernames: [user.userRecordName: user.username], passkeys: try await transaction.passkeys(user: user.userRecordName),
                identities: try await transaction.openIDIdentities(user: user.userRecordName))
            for zoneRowID in try await transaction.zonesSharedWith(user: user.userRecordName) {
                guard let zone = try await transaction.zone(rowID: zoneRowID), !zone.deleted,
                      let owner = try await transaction.databaseKey(id: zone.databaseID), owner.environment == environment else { continue }
                overview.sharedWithThem.append((owner.ownerRecordName, zone.zoneName))
            }
            let named = Set(overview.zones.flatMap { $0.shares.flatMap { $0.participants.map(\.userRecordName) } } + overview.sharedWithThem.map(\.owner))
            for recordName in named {
                if let other = try await transaction.user(recordName: recordName) { overview.usernames[recordName] = other.username }
            }
            return overview
        }
        overview.pushConnections = await hub.connectionCount(NotificationHub.Listener(containerID: containerID, environment: environment,
                                                                                      user: user.userRecordName))
        return overview
    }

    /// The username of the user with this record name, if there is one.
    package func username(recordName: String) async throws -> String? {
        try await storage.read { try await $0.user(recordName: recordName)?.username }
    }
}
