import StratusCore

/// Who is asking, and of which database: the outcome of authenticating a database request.
package struct DatabaseAccess: Sendable {
    package var containerID: String
    package var environment: ContainerEnvironment
    package var scope: DatabaseScope
    /// The signed-in user's record name; nil when the request carried only the API token.
    package var userRecordName: String?
    /// The device that made the change, recorded in `created`/`modified`.
    package var deviceID: String
    /// Where the caller reached the server (`http://host:port`), for the asset URLs it is given.
    package var origin: String
    /// The signed-in session, when there is a user: push connections opened with it end with it.
    package var session: StoredSession?

    /// The signed-in user, or `AUTHENTICATION_REQUIRED`.
    package func requireUser() throws(CloudKitError) -> String {
        guard let userRecordName else { throw AuthService.authenticationRequired }
        return userRecordName
    }

    /// The key of the database the request addresses: the caller's own for `private`.
    package func databaseKey() throws(CloudKitError) -> DatabaseKey {
        switch scope {
        case .public: DatabaseKey(containerID: containerID, environment: environment, scope: .public, ownerRecordName: "")
        case .private, .shared: DatabaseKey(containerID: containerID, environment: environment, scope: scope, ownerRecordName: try requireUser())
        }
    }

    /// The owner name reported in zone IDs of this database.
    package var zoneOwnerName: String {
        scope == .public ? ZoneID.defaultOwnerName : (userRecordName ?? ZoneID.defaultOwnerName)
    }

    /// Checks that a zone ID names a zone of this database. Another user's zone in the private
    /// database is reported as missing: private data is invisible to everyone but its owner.
    package func checkOwner(of zoneID: ZoneID) throws(CloudKitError) {
        guard let owner = zoneID.ownerRecordName, owner != ZoneID.defaultOwnerName else { return }
        if scope == .private && owner != userRecordName { throw .zoneNotFound(zoneID.zoneName) }
    }
}
