import Foundation
import Hummingbird
import NIOCore
import StratusCore

/// A form a console page posted (`application/x-www-form-urlencoded`): its fields in order,
/// repeated names kept.
struct ConsoleForm: Sendable {
    private(set) var fields: [(name: String, value: String)] = []

    init(_ text: Substring) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields.append((decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : ""))
        }
    }

    /// The first value of the field.
    subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Reads the request's form, at most `limit` bytes (``ConsoleRoutes/maxFormBytes`` by default).
    static func read(_ request: Request, limit: Int = ConsoleRoutes.maxFormBytes) async throws -> ConsoleForm {
        do {
            let body = try await request.body.collect(upTo: limit)
            return ConsoleForm(Substring(String(buffer: body)))
        } catch is NIOTooManyBytesError {
            throw CloudKitError.limitExceeded("the form is larger than \(limit) bytes")
        }
    }
}
