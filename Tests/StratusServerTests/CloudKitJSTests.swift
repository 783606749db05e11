import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import StratusCore

/// What Apple's CloudKit JS library sends (reference, Part 8), over real HTTP: the session under
/// its name `ckSession`, `text/plain` bodies, its build parameter, typed values that fail alone, and
/// a replay of a transcript of the library driving the server.
@Suite struct CloudKitJSTests {
    /// A request as the library sends it: no header but its content type, everything else in the query.
    static func send(_ method: HTTPMethod, _ url: String, body: String? = nil, headers: [(String, String)] = []) async throws -> HTTPResult {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if body != nil { request.headers.add(name: "content-type", value: "text/plain") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return HTTPResult(status: Int(response.status.code), body: Data(buffer: bytes), headers: response.headers)
    }

    @Test func theSessionIsReadAsCkSessionAndRotatedSessionsAreExposedToPages() async throws {
        let app = "https://web.example"
        try await TestServer.with(configure: { $0.corsOrigins = [app] }) { server in
            let alice = try await server.signUp("alice")
            let session = Caller.percentEncode(try #require(alice.webAuthToken))
            let database = "\(server.endpoint.baseURL)/database/1/\(TestServer.containerID)/development"
            let query = "ckAPIToken=\(server.apiToken)&ckjsBuildVersion=15DDev99"

            let current = try await Self.send(.GET, "\(database)/public/users/current?\(query)&ckSession=\(session)")
            let userRecordName = try #require(alice.userRecordName)
            #expect(current.status == 200 && current.text.contains(userRecordName), "\(current.text)")
            let zone = try await Self.send(.POST, "\(database)/private/zones/modify?\(query)&ckSession=\(session)",
                                           body: #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"CKJS"}}}]}"#)
            #expect(zone.status == 200 && zone.text.contains("CKJS"), "\(zone.text)")
            let tokens = try await Self.send(.POST, "\(server.endpoint.baseURL)/device/1/\(TestServer.containerID)/development/tokens/create?\(query)&ckSession=\(session)",
                                             body: #"{"apnsEnvironment":"development"}"#)
            #expect(tokens.status == 200 && tokens.text.contains("webcourierURL"), "\(tokens.text)")

            // Without a session the library is told where to sign in.
            let anonymous = try await Self.send(.POST, "\(database)/private/zones/modify?\(query)",
                                                body: #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"CKJS"}}}]}"#)
            #expect(anonymous.status == 421 && anonymous.error?.redirectURL != nil, "\(anonymous.text)")

            // A page may read a rotated session under either name.
            let fromPage = try await Self.send(.GET, "\(database)/private/zones/list?\(query)&ckSession=\(session)", headers: [("Origin", app)])
            let exposed = fromPage.headers["Access-Control-Expose-Headers"].first ?? ""
            #expect(exposed.contains("X-Apple-CloudKit-Session") && exposed.contains("X-Apple-CloudKit-Web-Auth-Token"), "\(exposed)")
        }
    }

    /// A value whose explicit `type` does not parse fails its own record; a fractional TIMESTAMP is
    /// rounded, as an untyped number is.
    @Test func aTypedValueThatDoesNotParseFailsOnlyItsRecord() async throws {
        try await TestServer.with { server in
            let alice = try await server.signUp("alice")
            let operations = """
                {"operations":[
                 {"operationType":"create","record":{"recordName":"good","recordType":"Note","fields":{"title":{"value":"kept"}}}},
                 {"operationType":"create","record":{"recordName":"badTime","recordType":"Note","fields":{"when":{"value":"not a time","type":"TIMESTAMP"}}}},
                 {"operationType":"create","record":{"recordName":"badBytes","recordType":"Note","fields":{"data":{"value":"***","type":"BYTES"}}}},
                 {"operationType":"create","record":{"recordName":"fraction","recordType":"Note","fields":{"when":{"value":1700000000000.6,"type":"TIMESTAMP"}}}}
                ]
                """
            let saved = try await alice.post(alice.path(.private, "records/modify"), json: operations + "}")
            #expect(saved.status == 200, "\(saved.text)")
            let results = try saved.decode(RecordsResponse.self).records
            #expect(results.map { $0.record?.recordName ?? $0.error?.recordName } == ["good", "badTime", "badBytes", "fraction"])
            #expect(results[0].record != nil && results[3].record?.fields["when"] == .timestamp(1_700_000_000_001))
            for bad in results[1...2] {
                #expect(bad.error?.serverErrorCode == .badRequest, "\(String(describing: bad.error))")
            }
            #expect(try await alice.lookup(["good", "badTime"]).map { $0.record != nil } == [true, false])

            // In an atomic batch the bad record fails the others with ATOMIC_ERROR, as any failure does.
            try await alice.createZone("Atomic")
            let atomic = try await alice.post(alice.path(.private, "records/modify"),
                                              json: operations + #","zoneID":{"zoneName":"Atomic"}}"#).decode(RecordsResponse.self).records
            #expect(atomic.map { $0.error?.serverErrorCode } == [.atomicError, .badRequest, .badRequest, .atomicError])
        }
    }

    // MARK: The transcript

    /// `Tests/Fixtures/cloudkit-js-transcript.jsonl`: CloudKit JS (a 1.x build under Node) driving
    /// the server through 16 operations, each request as the library sent it (tokens replaced by
    /// placeholders) with the answer the library accepted.
    static let transcript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/cloudkit-js-transcript.jsonl").standardized

    /// Keys whose values the library reads as they are: a replayed answer must have the same.
    static let exactKeys: Set<String> = ["serverErrorCode", "type", "recordType", "zoneName", "subscriptionID", "subscriptionType",
                                         "deletionReason", "deleted", "moreComing", "atomic", "fieldName", "apnsEnvironment", "p", "dbs", "sid", "zid"]

    /// Replays each request against a fresh server, with the placeholders filled in and every value
    /// an earlier answer gave differently (a change tag, a token, a receipt, a URL) replaced by this
    /// server's, and checks each answer has the status and the shape the library accepted: every key
    /// it had, with the same kind of value, and the same value for ``exactKeys``.
    @Test func theCloudKitJSTranscriptReplaysWithAnswersOfTheShapeTheLibraryAccepted() async throws {
        let lines = try String(contentsOf: Self.transcript, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 25)
        try await TestServer.with(configure: { $0.courierWait = .seconds(5) }) { server in
            // The schema of the run: the query filters and sorts on Note.count.
            _ = try await server.server.services.schema.importIntoDevelopment("""
                DEFINE SCHEMA
                    RECORD TYPE Note (
                        title STRING,
                        count INT64 QUERYABLE SORTABLE
                    );
                """, containerID: TestServer.containerID)
            let alice = try await server.signUp("alice")
            let base = server.endpoint.baseURL
            var replacements: [String: String] = [
                "<BASE>": base, "<API_TOKEN>": server.apiToken, "<SESSION>": Caller.percentEncode(try #require(alice.webAuthToken)),
                "https://api.apple-cloudkit.com/device/1/": "\(base)/device/1/", "iCloud.example.web": TestServer.containerID,
            ]
            var couriers = 0
            for (index, line) in lines.enumerated() {
                let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let request = try #require(entry["request"] as? [String: Any])
                let expected = try #require(entry["response"] as? [String: Any])
                let method = HTTPMethod(rawValue: try #require(request["method"] as? String))
                var url = try #require(request["url"] as? String)
                if let mapped = replacements[url] { url = mapped }
                for (from, to) in replacements where from.hasPrefix("<") || from.hasPrefix("http") || from.hasPrefix("iCloud") {
                    url = url.replacingOccurrences(of: from, with: to)
                }
                var body = request["body"] as? String
                if body == "attached bytes" {
                    body = "hello cloudkit"
                } else if let text = body {
                    let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
                    body = String(decoding: try JSONSerialization.data(withJSONObject: Self.replacing(json, replacements)), as: UTF8.self)
                }
                if url.contains("/push/1/courier/") {
                    // A notification is due before each poll after the first, which answers with
                    // the catch-up notification a new courier starts with.
                    couriers += 1
                    if couriers > 1 { _ = try await alice.save([.create("poke\(couriers)", type: "Note", [:])], zone: "CKJS") }
                }
                let answer = try await Self.send(method, url, body: body)
                let step = "step \(index + 1), \(method.rawValue) \(url.components(separatedBy: "?")[0].replacingOccurrences(of: base, with: ""))"
                #expect(answer.status == expected["status"] as? Int, "\(step): \(answer.text)")
                let expectedBody = try JSONSerialization.jsonObject(with: Data(try #require(expected["body"] as? String).utf8))
                let actualBody = try JSONSerialization.jsonObject(with: answer.body)
                for problem in Self.differences(expectedBody, actualBody, at: "") { Issue.record("\(step): \(problem)") }
                Self.learn(expectedBody, actualBody, into: &replacements)
            }
        }
    }

    /// What `expected`'s shape has that `actual` lacks.
    static func differences(_ expected: Any, _ actual: Any, at path: String) -> [String] {
        switch expected {
        case let object as [String: Any]:
            guard let actual = actual as? [String: Any] else { return ["\(path): expected an object, found \(actual)"] }
            return object.keys.sorted().flatMap { key -> [String] in
                guard let value = actual[key] else { return ["\(path).\(key) is missing"] }
                if exactKeys.contains(key), "\(object[key]!)" != "\(value)" { return ["\(path).\(key) is \(value), expected \(object[key]!)"] }
                return differences(object[key]!, value, at: "\(path).\(key)")
            }
        case let list as [Any]:
            guard let actual = actual as? [Any], actual.count == list.count else { return ["\(path): expected \(list.count) elements, found \(actual)"] }
            // Each expected element has a match, in any order (zones are listed in no set order).
            return list.enumerated().flatMap { index, element in
                actual.contains { differences(element, $0, at: "").isEmpty } ? [] : ["\(path)[\(index)] has no match in \(actual)"]
            }
        case is String:
            return actual is String ? [] : ["\(path): expected a string, found \(actual)"]
        case let number as NSNumber:
            guard let found = actual as? NSNumber else { return ["\(path): expected a number, found \(actual)"] }
            return isBoolean(number) == isBoolean(found) ? [] : ["\(path): expected \(number), found \(found)"]
        default:
            return []
        }
    }

    /// Whether a parsed JSON value is `true` or `false` rather than a number (Foundation gives both
    /// as NSNumber).
    static func isBoolean(_ value: Any) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: [value]) else { return false }
        return ["[true]", "[false]"].contains(String(decoding: data, as: UTF8.self))
    }

    /// Notes each string the transcript's answer had where this server's has another, so later
    /// requests send this server's.
    static func learn(_ expected: Any, _ actual: Any, into replacements: inout [String: String]) {
        switch (expected, actual) {
        case (let object as [String: Any], let found as [String: Any]):
            for (key, value) in object { if let other = found[key] { learn(value, other, into: &replacements) } }
        case (let list as [Any], let found as [Any]) where list.count == found.count:
            for (value, other) in zip(list, found) { learn(value, other, into: &replacements) }
        case (let text as String, let other as String) where text != other && replacements[text] == nil:
            replacements[text] = other
        default:
            break
        }
    }

    /// `json` with every string that is a key of `replacements` replaced.
    static func replacing(_ json: Any, _ replacements: [String: String]) -> Any {
        switch json {
        case let object as [String: Any]: object.mapValues { replacing($0, replacements) }
        case let list as [Any]: list.map { replacing($0, replacements) }
        case let text as String: replacements[text] ?? text
        default: json
        }
    }
}
