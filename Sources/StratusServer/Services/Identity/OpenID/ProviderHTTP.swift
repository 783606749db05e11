import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StratusCore

/// The server's requests to an identity provider (Apple's and OpenID providers' keys, discovery,
/// token exchanges, GitHub's API): bounded in time (10 seconds) and size (64 KB), and retried once
/// on a new connection when a pooled one was closed as the request left. A provider that cannot
/// be reached, times out or answers 5xx is `TRY_AGAIN_LATER` with `retryAfter`, never a sign-in
/// refused.
enum ProviderHTTP {
    static let maxBytes = 64 * 1024
    static let timeout: TimeAmount = .seconds(10)
    /// The wait a client is told when a provider cannot be reached.
    static let retryAfter = 30

    /// An answer: its status and body.
    struct Answer {
        var status: Int
        var body: Data
    }

    /// `GET url` with `headers`.
    static func get(_ url: String, headers: [(String, String)] = [], provider: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "Accept", value: "application/json")
        return try await execute(request, provider: provider)
    }

    /// `POST url` with a form body (`application/x-www-form-urlencoded`) and `headers`.
    static func postForm(_ url: String, _ fields: [(String, String)], headers: [(String, String)] = [], provider: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: formEncoded(fields)))
        return try await execute(request, provider: provider)
    }

    /// `fields` as an `application/x-www-form-urlencoded` body.
    static func formEncoded(_ fields: [(String, String)]) -> String {
        fields.map { name, value in percentEncoded(name) + "=" + percentEncoded(value) }.joined(separator: "&")
    }

    /// `text` with every byte but ASCII letters, digits and `-._~` percent-encoded (as a form
    /// value, and as OAuth's HTTP Basic client credentials, RFC 6749 §2.3.1).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `TRY_AGAIN_LATER` saying the provider could not be reached.
    static func unreachable(_ provider: String, _ detail: String) -> CloudKitError {
        CloudKitError(.tryAgainLater, "\(provider) could not be reached (\(detail)): try again in a while", retryAfter: retryAfter)
    }

    private static func execute(_ request: HTTPClientRequest, provider: String) async throws -> Answer {
        let response: HTTPClientResponse
        let began = ContinuousClock.now
        do {
            do {
                response = try await HTTPClient.shared.execute(request, timeout: timeout)
            } catch where ContinuousClock.now - began < .seconds(1) {
                // Once more on a new connection: a pooled one may have been closed by the other side
                // as the request left (the client cannot tell), which says nothing about the provider.
                // A slower failure (a deadline, connections refused until it) is not tried again.
                response = try await HTTPClient.shared.execute(request, timeout: timeout)
            }
        } catch {
            throw unreachable(provider, "\(error)")
        }
        guard response.status.code < 500 else { throw unreachable(provider, "it answered \(response.status.code)") }
        do {
            return Answer(status: Int(response.status.code), body: Data(buffer: try await response.body.collect(upTo: maxBytes)))
        } catch {
            throw unreachable(provider, "its answer was cut short or over \(maxBytes / 1024) KB")
        }
    }
}
