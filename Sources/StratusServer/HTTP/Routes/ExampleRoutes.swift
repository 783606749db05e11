import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The web example's files (`serve --examples`): `GET /examples/web/` and the page's scripts and
/// styles, read from ``ServerConfiguration/examplesDirectory`` at each request, so an edited file
/// shows at the next reload. Only plain names (`app.js`) of the directory itself are served.
struct ExampleRoutes {
    let directory: URL

    static let contentTypes = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"]

    func register(on router: Router<StratusRequestContext>) {
        router.get("examples/web") { _, _ in
            Response(status: .seeOther, headers: [.location: "/examples/web/index.html"])
        }
        router.get("examples/web/:file") { _, context in
            let name = try context.parameters.require("file")
            let parts = name.split(separator: ".")
            guard parts.count == 2, parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
                  let type = Self.contentTypes[String(parts[1])],
                  let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                throw HTTPError(.notFound)
            }
            var headers: HTTPFields = [.contentType: type, .cacheControl: "no-cache"]
            headers[.contentSecurityPolicy] = "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
