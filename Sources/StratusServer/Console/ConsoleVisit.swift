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
    /// Where the notes for this session's next page are left (``redirect(_:notice:)``).
    let notices: ConsoleNotices
    /// The note a change left for this page (``ConsoleNotices``), shown at the top of it.
    var message: String?

    /// The value every form that changes something must post as `csrf`.
    var csrf: String { SecretGenerator.digest("csrf|" + token) }

    /// A redirect to `location` after a change, leaving `notice` for the page it opens.
    func redirect(_ location: String, notice: String) -> Response {
        notices.leave(notice, for: token)
        return ConsoleRoutes.redirect(location)
    }

    /// The session token a request's cookie carries, if any.
    static func token(of request: Request) -> String? {
        guard let value = request.cookies[cookieName]?.value, value.utf8.count <= 256 else { return nil }
        return value
    }
}
