import Hummingbird
import StratusCore

/// The request context of every Stratus route: Hummingbird's core storage plus who is calling,
/// filled in by ``DatabaseAuthenticator`` for database routes.
public struct StratusRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The authenticated caller and addressed database; set on `/database/1/…` routes.
    package var access: DatabaseAccess?
    /// The client's IP address, the key of per-address throttling: the peer's, or the one a
    /// trusted proxy forwarded for (``ClientAddressMiddleware``).
    package internal(set) var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// The access a database route was authenticated with.
    package func requireAccess() throws -> DatabaseAccess {
        guard let access else { throw CloudKitError(.internalError, "route is missing its authenticator") }
        return access
    }
}
