import Foundation
import StratusCore

/// Who is administering the server: an administrator in the console (from their client
/// address), someone at the command line (their login name and the machine), or the server
/// itself. It is a task local, set around each console change and each `stratus` command, so that
/// every change the admin services make is recorded with who made it and from where
/// (``AuditLog``) without passing it through every call.
package struct AuditActor: Sendable, Equatable {
    package var name: String
    package var origin: String

    package init(name: String, origin: String) {
        self.name = name
        self.origin = origin
    }

    /// The server acting on its own (no console or command around it).
    package static let server = AuditActor(name: "(server)", origin: "the server")

    @TaskLocal package static var current = AuditActor.server

    /// An administrator signed in to the console, from a client address.
    package static func administrator(_ username: String, from address: String) -> AuditActor {
        AuditActor(name: username, origin: "console from \(address)")
    }

    /// Whoever runs a `stratus` command here: the login name and the machine.
    package static var commandLine: AuditActor {
        AuditActor(name: ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.userName,
                   origin: "command line on \(ProcessInfo.processInfo.hostName)")
    }
}

/// The administrators' audit log: every change made through the console or the CLI — users
/// created, disabled, enabled, deleted or given a new password, security roles, schema imports,
/// resets and deploys, server-to-server keys, API tokens, web origins, APNs credentials,
/// administrators, container imports — as one entry with who, when, from where and what, written
/// in the change's transaction where there is one. The console shows it; a container's entries go
/// with its export. Entries are never changed or deleted by the server.
package enum AuditLog {
    /// The most entries one read returns.
    package static let maxEntries = 500

    /// An entry for `action` ("user.disable") on `containerID` (nil: the server), by the current
    /// ``AuditActor``, at `time`; `detail` says what it was done to (never a secret).
    package static func entry(_ action: String, container containerID: String?, _ detail: String, at time: Int64) -> StoredAuditEntry {
        let actor = AuditActor.current
        return StoredAuditEntry(at: time, actor: actor.name, origin: actor.origin, action: action,
                                containerID: containerID ?? "", detail: detail)
    }
}
