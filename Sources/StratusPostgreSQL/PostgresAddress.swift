import Foundation
import NIOSSL
import PostgresNIO
import StratusCore
import StratusServer

/// Where a PostgreSQL database is, as a `postgres://user:password@host:port/database` URL says
/// (`?sslmode=require` for TLS).
package struct PostgresAddress: Sendable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?
    var requiresTLS: Bool

    package init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw CloudKitError.badRequest("a database URL looks like postgres://user:password@host:5432/database")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.user ?? "postgres"
        self.password = components.password
        self.database = database.isEmpty ? nil : database
        self.requiresTLS = components.queryItems?.first { $0.name == "sslmode" }?.value == "require"
    }

    /// The configuration of a connection pool.
    package var client: PostgresClient.Configuration {
        PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database,
                                     tls: requiresTLS ? .require(.makeClientConfiguration()) : .disable)
    }

    /// The configuration of a connection of its own (one that listens for notifications).
    func connection() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database,
                                         tls: requiresTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable)
    }
}
