import Foundation
import Hummingbird
import StratusCore

/// What a share URL (`{server}/share/{shortGUID}`) opens in a browser: a page with the share's
/// title, its owner and, when configured, a link into the app; and the
/// `apple-app-site-association` file that lets iOS open share URLs in the app directly.
struct ShareRoutes {
    let sharing: ShareService
    /// "Open in the app": a URL with `{shortGUID}` in it, or nil.
    let appURL: String?
    /// `TEAMID.bundle.id` of the apps that open share URLs.
    let appleAppIDs: [String]

    func register(on router: Router<StratusRequestContext>) {
        router.get("share/:shortGUID") { _, context in
            let shortGUID = try context.parameters.require("shortGUID")
            guard shortGUID.utf8.count <= 64, let preview = try await sharing.preview(shortGUID: shortGUID) else {
                return Self.html(PageTemplates.render("share-missing", ["pageTitle": "Share not available"]), status: .notFound)
            }
            let title = preview.title ?? "A shared item"
            var page: [String: Any] = ["pageTitle": title, "title": title, "owner": preview.owner]
            if let appURL { page["appURL"] = appURL.replacingOccurrences(of: "{shortGUID}", with: shortGUID) }
            return Self.html(PageTemplates.render("share", page), status: .ok)
        }
        router.get(".well-known/apple-app-site-association") { _, _ in
            guard !appleAppIDs.isEmpty else { throw HTTPError(.notFound) }
            let association = ["applinks": ["details": [["appIDs": appleAppIDs, "components": [["/": "/share/*"]]]]]]
            let body = try JSONSerialization.data(withJSONObject: association, options: [.sortedKeys, .withoutEscapingSlashes])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    private static func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
