/// What a security role may do with the records of one type in the public database.
public struct RecordPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Fetch and query the type's records.
    public static let read = RecordPermissions(rawValue: 1 << 0)
    /// Create records of the type.
    public static let create = RecordPermissions(rawValue: 1 << 1)
    /// Change and delete existing records of the type.
    public static let write = RecordPermissions(rawValue: 1 << 2)
    public static let all: RecordPermissions = [.read, .create, .write]

    /// The schema language's names, in the order `GRANT` lines list them.
    public static let names: [(name: String, permission: RecordPermissions)] = [("READ", .read), ("CREATE", .create), ("WRITE", .write)]
}

/// CloudKit's security roles: who may read, create and write each record type of a container's
/// public database.
///
/// Three roles are built in: `_world` (everyone, signed in or not), `_icloud` (every signed-in
/// user) and `_creator` (the user who created the record). A schema may add its own roles
/// (`CREATE ROLE Moderator;`), which are given to users by name. A record type whose schema
/// grants nothing has CloudKit's defaults: everyone reads, signed-in users create, creators write.
public enum SecurityRole {
    public static let world = "_world"
    public static let icloud = "_icloud"
    public static let creator = "_creator"
    /// The roles every container has.
    public static let builtIn: Set<String> = [world, icloud, creator]

    /// CloudKit's grants for a record type that declares none.
    public static let defaultGrants: [String: RecordPermissions] = [world: .read, icloud: .create, creator: .write]

    /// The grants in force for a record type that declares `declared`: those, or the defaults
    /// when it declares none.
    public static func grantsInForce(_ declared: [String: RecordPermissions]?) -> [String: RecordPermissions] {
        guard let declared, !declared.isEmpty else { return defaultGrants }
        return declared
    }
}
