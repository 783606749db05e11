import Foundation
import Hummingbird

/// A signed-in administrator's request to the console: who, and the form token every change
/// must carry.
///
/// The session token lives only in an `HttpOnly`, `SameSite=Strict` cookie scoped to `/console`.
/// The CSRF token is derived from it (a hash no page script or other site can compute without
/// the cookie), so it needs no storage and changes with every session.
struct ConsoleVisit: Sendable {
    static let cookieName = "stratus_console"

    let administrator: String
    let token: String
    /// The note the redirect after a change carried (`?message=`), shown at the top of the page.
    let message: String?

    /// The value every form that changes something must post as `csrf`.
    var csrf: String { SecretGenerator.digest("csrf|" + token) }

    /// The session token a request's cookie carries, if any.
    static func token(of request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, value.utf8.count <= 256 else { return nil }
        return value
    }
}
