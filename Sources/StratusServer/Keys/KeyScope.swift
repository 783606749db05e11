/// Whose data a data key seals (``KeyVault``): one key per user, so that deleting the account
/// destroys the key and with it every value sealed for the user, in the database and in every
/// backup of it; one per container, for the secrets of the container's configuration (webhook
/// secrets). A key per user rather than per record keeps the key store as small as the user
/// list and a user's reads to one unwrap; finer grain would only matter for deleting part of a
/// user's data, which history and retention handle instead.
package struct KeyScope: Hashable, Sendable, CustomStringConvertible {
    /// The key store's name of the scope, also the associated data of everything sealed in it.
    package let name: String

    /// The data of a user (their record name is unique across containers).
    package static func user(_ userRecordName: String) -> KeyScope { KeyScope(name: "user:" + userRecordName) }

    /// A scope by its key-store name (``name``), as a sealed value's row records it.
    package init(name: String) {
        self.name = name
    }

    /// The secrets of a container's configuration.
    package static func container(_ containerID: String) -> KeyScope { KeyScope(name: "container:" + containerID) }

    package var description: String { name }
}
