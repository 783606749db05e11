import Foundation
import Hummingbird
import NIOCore
import StratusCore

/// Reading CloudKit JSON bodies and writing JSON responses.
///
/// Any content type is accepted as long as the body parses as JSON (Apple's own examples send
/// `text/plain`). A body over the limit is `LIMIT_EXCEEDED`; one that does not parse, or does not
/// have the expected shape, is `BAD_REQUEST` naming the problem.
package enum JSONBody {
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int, allowingEmpty: Bool = false) async throws -> T {
        var buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw CloudKitError.limitExceeded("request body is larger than \(limit) bytes")
        }
        if buffer.readableBytes == 0 && allowingEmpty { buffer = ByteBuffer(string: "{}") }
        guard buffer.readableBytes > 0 else { throw CloudKitError.badRequest("request body is empty; expected JSON") }
        return try buffer.withUnsafeReadableBytes { bytes in try decode(T.self, from: bytes) }
    }

    /// Reads a complete body as `T`: the parser and readers every request goes through (the fuzz
    /// targets call this too).
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws -> T {
        if let leaving = T.self as? any WireReadableLeavingElements.Type {
            let typed = bytes.assumingMemoryBound(to: UInt8.self)
            let (json, elements) = try JSONParser.parse(typed, leavingElementsOf: leaving.elementsLeftUnread, flagging: leaving.flaggingWords)
            guard let value = try leaving.init(json: json, elements: elements.map { JSONElements(document: Array(typed), elements: $0) }) as? T else {
                throw CloudKitError(.internalError, "decoder mismatch")
            }
            return value
        }
        if let readable = T.self as? any WireReadable.Type {
            let json = try JSONParser.parse(bytes.assumingMemoryBound(to: UInt8.self))
            guard let value = try readable.init(json: json) as? T else { throw CloudKitError(.internalError, "decoder mismatch") }
            return value
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch let error as CloudKitError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw CloudKitError.badRequest("missing key '\(key.stringValue)'\(path(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw CloudKitError.badRequest("unexpected value\(path(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            if context.codingPath.isEmpty { throw CloudKitError.badRequest("request body is not valid JSON") }
            throw CloudKitError.badRequest("invalid value\(path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw CloudKitError.badRequest("request body is not valid JSON")
        }
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return response(bytes: try encoder.encode(value), status: status)
    }

    /// A body that writes itself: the fast path for records and change pages.
    static func response(writing value: some WireWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        var writer = WireWriter(capacity: value.estimatedByteCount)
        try value.write(to: &writer)
        return response(bytes: writer.bytes, status: status)
    }

    private static func response(bytes: some Sequence<UInt8>, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "" }
        return " at " + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// A request body read with the elements of one top-level array member left as JSON text
/// (``JSONElements``), each read later where it is needed.
protocol WireReadableLeavingElements: WireReadable {
    /// The top-level member whose array is left as text.
    static var elementsLeftUnread: String { get }
    /// Strings that flag an element holding one (``JSONElements/mayHoldFlaggedWord(_:)``).
    static var flaggingWords: Set<String> { get }
    /// The body from its tree (an empty array at ``elementsLeftUnread`` when `elements` holds it)
    /// and that member's elements.
    init(json: JSONValue, elements: JSONElements?) throws(CloudKitError)
}
