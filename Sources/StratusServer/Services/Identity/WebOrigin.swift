import Foundation
import StratusCore

/// The origin of a web app (`https://app.example.com`, `http://localhost:3000`): what a container
/// lists as the web apps that may sign users in through the server's sign-in page, and what that
/// page hands a session to. Never `*`: a session goes to a page the container named.
enum WebOrigin {
    /// The most web origins a container lists.
    static let maxPerContainer = 50

    /// `scheme://host[:port]` in lowercase without a default port, for an `http` or `https` URL that
    /// is nothing more than an origin (no path but `/`, no query, no user); nil otherwise.
    static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 255, let url = URLComponents(string: text), url.query == nil, url.path.isEmpty || url.path == "/" else { return nil }
        return of(url: text)
    }

    /// The origin of an `http` or `https` URL of any path (an app's callback page); nil for anything else.
    static func of(url text: String) -> String? {
        guard text.utf8.count <= 2048, let url = URLComponents(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
              url.user == nil, url.password == nil, url.fragment == nil else { return nil }
        return CrossOriginPolicy.normalized(text)
    }

    /// ``normalized(_:)``, or `BAD_REQUEST` saying what an origin is.
    static func validated(_ text: String) throws(CloudKitError) -> String {
        guard let origin = normalized(text) else {
            throw .badRequest("'\(text)' is not a web origin: give scheme://host[:port], http or https, without a path (never *)")
        }
        return origin
    }
}
