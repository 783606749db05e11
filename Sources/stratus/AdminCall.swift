import ArgumentParser
import Foundation
import StratusCore

/// How the administration commands call the admin service and print what it gives back.
enum AdminCall {
    /// Runs `body`, turning a CloudKit error (no such user, a name taken, …) into a usage error
    /// with its reason, as the command line shows it.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CloudKitError {
            throw ValidationError(error.reason)
        }
    }

    /// A time in milliseconds since 1970, in ISO 8601.
    static func date(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    /// A password from a file, or from standard input when the path is `-` (first line).
    static func password(from path: String) throws -> String {
        let text: String
        if path == "-" {
            text = readLine(strippingNewline: true) ?? ""
        } else {
            guard let contents = FileManager.default.contents(atPath: path), let decoded = String(data: contents, encoding: .utf8) else {
                throw ValidationError("cannot read the password file \(path)")
            }
            text = decoded
        }
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
}
