import Crypto
import Foundation
import StratusCore

/// What the caller may do with public-database records, by the container environment's security
/// roles (see ``SecurityRole``): the union of the grants of every role the caller holds.
///
/// `_world` holds for everyone, `_icloud` for a signed-in user, `_creator` for the user who created
/// the record, a custom role for the users given it (`stratus user role add`). Requests signed with
/// a server-to-server key act for the container's backend and may do everything. The caller's
/// roles and each record type's grants are read once per request.
struct PublicPermissions {
    /// Which of a type's records a query may return.
    enum ReadScope: Equatable {
        case every
        /// Only the caller's own (`_creator` may read, no other role of the caller may).
        case createdBy(String)
    }

    private let transaction: any StorageTransaction
    private let containerID: String
    private let environment: ContainerEnvironment
    private let user: String?
    private var roles: Set<String>?
    private var grants: [String: [String: RecordPermissions]] = [:]
    /// Whether `grants` holds every type that declares any (``feedRights()`` read them all), so a
    /// type missing there has CloudKit's defaults.
    private var knowsEveryGrant = false

    init(_ access: DatabaseAccess, in transaction: any StorageTransaction) {
        self.init(containerID: access.containerID, environment: access.environment, user: access.userRecordName, in: transaction)
    }

    /// The permissions of `user` (nil: no one signed in) in an environment's public database.
    init(containerID: String, environment: ContainerEnvironment, user: String?, in transaction: any StorageTransaction) {
        self.transaction = transaction
        self.containerID = containerID
        self.environment = environment
        self.user = user
    }

    /// The caller's permissions on a record of `recordType` created by `creator` (nil for a
    /// record not created yet).
    mutating func permissions(on recordType: String, createdBy creator: String?) async throws -> RecordPermissions {
        guard let user else { return try await grants(of: recordType)[SecurityRole.world] ?? [] }
        if user == ServerKeyService.identity { return .all }
        var granted: RecordPermissions = []
        for (role, permissions) in try await grants(of: recordType) {
            switch role {
            case SecurityRole.world, SecurityRole.icloud: granted.formUnion(permissions)
            case SecurityRole.creator: if creator == user { granted.formUnion(permissions) }
            default: if try await userRoles().contains(role) { granted.formUnion(permissions) }
            }
        }
        return granted
    }

    /// Throws unless the caller holds `needed` on the record: `AUTHENTICATION_REQUIRED` when no one
    /// is signed in, `ACCESS_DENIED` otherwise. The reason names only the record the caller named,
    /// never its type (which a caller without READ may not learn).
    mutating func require(_ needed: RecordPermissions, on recordType: String, createdBy creator: String?,
                          recordName: String) async throws {
        if try await permissions(on: recordType, createdBy: creator).isSuperset(of: needed) { return }
        guard user != nil else { throw AuthService.authenticationRequired }
        let verb = needed.contains(.create) ? "create" : needed.contains(.write) ? "change or delete" : "read"
        throw CloudKitError.accessDenied("your security roles do not let you \(verb) record '\(recordName)'")
    }

    /// Which records of the type a query returns to the caller, or the error it gets instead.
    mutating func readScope(of recordType: String) async throws -> ReadScope {
        if try await permissions(on: recordType, createdBy: nil).contains(.read) { return .every }
        if let user, try await permissions(on: recordType, createdBy: user).contains(.read) { return .createdBy(user) }
        guard user != nil else { throw AuthService.authenticationRequired }
        throw CloudKitError.accessDenied("the security roles of '\(recordType)' do not let you read its records")
    }

    /// What the caller may read of the public database's change feed, by type (see
    /// ``FeedRights``). Reads every type's grants once: ``permissions(on:createdBy:)`` asks no more.
    mutating func feedRights() async throws -> FeedRights {
        let declared = try await transaction.recordTypeGrants(containerID: containerID, environment: environment)
        for (type, byRole) in declared { grants[type] = SecurityRole.grantsInForce(byRole) }
        knowsEveryGrant = true
        var described = "user=\(user ?? "")"
        var readsEverything = true
        for type in declared.keys.sorted() {
            let scope: String
            if try await permissions(on: type, createdBy: nil).contains(.read) {
                scope = "every"
            } else if let user, try await permissions(on: type, createdBy: user).contains(.read) {
                scope = "own"
            } else {
                scope = "none"
            }
            if scope != "every" { readsEverything = false }
            described += "\n\(type)=\(scope)"
        }
        let digest = SHA256.hash(data: Data(described.utf8))
        return FeedRights(fingerprint: digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(), readsEverything: readsEverything)
    }

    /// What a caller may read of the public feed: a fingerprint of who they are and, for each type
    /// that declares grants, whether they read every record of it, only their own, or none — what
    /// a feed token carries (``ChangeToken/rights``), so that a role given or taken away, or a
    /// grant of READ changed, expires it (a grant of WRITE, or a role that lets read nothing more, does not).
    struct FeedRights {
        var fingerprint: String
        /// Every record of every type (undeclared types have CloudKit's defaults, `_world` READ).
        var readsEverything: Bool
    }

    private mutating func grants(of recordType: String) async throws -> [String: RecordPermissions] {
        if let known = grants[recordType] { return known }
        if knowsEveryGrant { return SecurityRole.defaultGrants }
        let effective = await SecurityRole.grantsInForce(
            try transaction.recordTypeGrants(containerID: containerID, environment: environment, recordType: recordType))
        grants[recordType] = effective
        return effective
    }

    private mutating func userRoles() async throws -> Set<String> {
        if let roles { return roles }
        let loaded = try await user.asyncMap { try await transaction.userRoles(containerID: containerID, environment: environment, user: $0) } ?? []
        roles = loaded
        return loaded
    }
}
