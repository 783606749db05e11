import Crypto
import NIOHTTP1
import Foundation
import Testing
import StratusCore
@testable import StratusServer
import StratusTesting

/// Server-to-server keys: requests signed as Apple specifies, over real HTTP.
@Suite struct ServerKeyTests {
    /// A backend holding a private key registered with the container.
    struct Backend {
        let key = P256.Signing.PrivateKey()
        var keyID = ""

        /// The three headers signing a request for `date`: `date:base64(sha256(body)):subpath`.
        func headers(_ path: String, body: Data?, date: Date = Date(), bodyHash: String? = nil) throws -> [(String, String)] {
            let dateText = ISO8601DateFormatter().string(from: date)
            let hash = bodyHash ?? Data(SHA256.hash(data: body ?? Data())).base64EncodedString()
            let signature = try key.signature(for: Data("\(dateText):\(hash):\(path)".utf8)).derRepresentation.base64EncodedString()
            return [("X-Apple-CloudKit-Request-KeyID", keyID), ("X-Apple-CloudKit-Request-ISO8601Date", dateText),
                    ("X-Apple-CloudKit-Request-SignatureV1", signature)]
        }

        /// Sends a signed request (without the API token); `tamper` changes the body after signing.
        func send(_ caller: Caller, _ method: HTTPMethod, _ path: String, body: Data?, date: Date = Date(),
                  bodyHash: String? = nil, tamper: ((inout Data) -> Void)? = nil) async throws -> HTTPResult {
            let headers = try headers(path, body: body, date: date, bodyHash: bodyHash)
            var sent = body
            if let tamper, var bytes = sent { tamper(&bytes); sent = bytes }
            return try await caller.send(method, path, body: sent, apiToken: .some(nil), headers: headers)
        }
    }

    static func register(_ server: TestServer) async throws -> Backend {
        var backend = Backend()
        backend.keyID = try await server.server.addServerKey(container: TestServer.containerID, publicKeyPEM: backend.key.publicKey.pemRepresentation)
        return backend
    }

    /// The signature's twin: (r, n - s), valid for the same message.
    static func malleated(_ base64: String) throws -> String {
        let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(base64Encoded: base64)))
        let raw = Array(signature.rawRepresentation)
        // The order n of P-256's group.
        let order: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                               0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51]
        var flipped = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(raw[32 + index]) - borrow
            flipped[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        return try P256.Signing.ECDSASignature(rawRepresentation: raw.prefix(32) + flipped).derRepresentation.base64EncodedString()
    }

    static func create(_ name: String) throws -> Data {
        try JSONEncoder().encode(RecordsModifyRequest(operations: [.create(name, ["title": .string("from the backend")])]))
    }

    @Test func aSignedRequestActsInThePublicDatabase() async throws {
        try await TestServer.with { server in
            let backend = try await Self.register(server)
            let caller = server.anonymous
            let path = caller.path(.public, "records/modify")
            let saved = try await backend.send(caller, .POST, path, body: try Self.create("job"))
            #expect(saved.status == 200, "\(saved.text)")
            let record = try #require(try saved.decode(RecordsResponse.self).records.first?.record)
            #expect(record.created?.userRecordName == ServerKeyService.identity)
            // Anyone reads it with the API token.
            let looked = try await caller.post(path.replacingOccurrences(of: "modify", with: "lookup"),
                                               RecordsLookupRequest(records: [.init(recordName: "job")]))
            #expect(try looked.decode(RecordsResponse.self).records.first?.record?.fields["title"] == .string("from the backend"))

            // The backend may do everything, whatever the security roles: change a user's record too.
            let alice = try await server.signUp("alice")
            let post = try #require(try await alice.save([.create("post")], database: .public).first)
            let edit = try JSONEncoder().encode(RecordsModifyRequest(operations: [RecordOperation(.update, Record(
                recordName: "post", recordChangeTag: post.recordChangeTag, fields: ["title": .string("moderated")]))]))
            let moderated = try await backend.send(caller, .POST, path, body: edit)
            #expect(try moderated.decode(RecordsResponse.self).records.first?.record?.fields["title"] == .string("moderated"))

            // A bodiless GET may sign the hash of the empty body, or no hash at all.
            let zones = caller.path(.public, "zones/list")
            #expect(try await backend.send(caller, .GET, zones, body: nil).status == 200)
            #expect(try await backend.send(caller, .GET, zones, body: nil, bodyHash: "").status == 200)

            // Not in the private database.
            let privateSave = try await backend.send(caller, .POST, caller.path(.private, "records/modify"), body: try Self.create("mine"))
            #expect(privateSave.errorCode == .accessDenied)
        }
    }

    @Test func badSignaturesAreRefused() async throws {
        try await TestServer.with { server in
            let backend = try await Self.register(server)
            let caller = server.anonymous
            let path = caller.path(.public, "records/modify")
            func refused(_ result: HTTPResult) -> Bool { result.status == 401 && result.errorCode == .authenticationFailed }

            let stale = try await backend.send(caller, .POST, path, body: try Self.create("a"), date: Date().addingTimeInterval(-10 * 60))
            #expect(refused(stale), "\(stale.text)")
            let future = try await backend.send(caller, .POST, path, body: try Self.create("a"), date: Date().addingTimeInterval(10 * 60))
            #expect(refused(future))
            let tampered = try await backend.send(caller, .POST, path, body: try Self.create("a")) { $0[$0.count - 3] = UInt8(ascii: "x") }
            #expect(refused(tampered))
            var stranger = Backend()
            stranger.keyID = backend.keyID
            #expect(refused(try await stranger.send(caller, .POST, path, body: try Self.create("a"))))
            var unknown = backend
            unknown.keyID = String(repeating: "0", count: 64)
            #expect(refused(try await unknown.send(caller, .POST, path, body: try Self.create("a"))))

            // The same signature, sent twice: the second is a replay, and so is its malleated twin
            // (s flipped to n - s, as valid a signature of the same message).
            let body = try Self.create("once")
            let headers = try backend.headers(path, body: body)
            #expect(try await caller.send(.POST, path, body: body, apiToken: .some(nil), headers: headers).status == 200)
            let again = try await caller.send(.POST, path, body: body, apiToken: .some(nil), headers: headers)
            #expect(refused(again) && again.text.contains("replay"), "\(again.text)")
            var twin = headers
            twin[2].1 = try Self.malleated(twin[2].1)
            let malleated = try await caller.send(.POST, path, body: body, apiToken: .some(nil), headers: twin)
            #expect(refused(malleated) && malleated.text.contains("replay"), "\(malleated.text)")
            // The same content signed anew within the same second (Apple's date has no fractions,
            // and a client may well repeat a lookup): each ECDSA signature differs; both are honest.
            let lookup = path.replacingOccurrences(of: "modify", with: "lookup")
            let query = try JSONEncoder().encode(RecordsLookupRequest(records: [.init(recordName: "once")]))
            let sameSecond = Date()
            for _ in 0..<2 {
                let answer = try await backend.send(caller, .POST, lookup, body: query, date: sameSecond)
                #expect(answer.status == 200, "\(answer.text)")
            }

            // A revoked key signs nothing.
            #expect(try await server.server.revokeServerKey(backend.keyID, container: TestServer.containerID))
            #expect(refused(try await backend.send(caller, .POST, path, body: try Self.create("b"))))
            #expect(try await server.server.serverKeys(container: TestServer.containerID).first?.revokedAt != nil)
            #expect(try await server.server.revokeServerKey(backend.keyID, container: TestServer.containerID) == false)
        }
    }

    /// A signature accepted before a restart is still a replay after it: what was used is kept in
    /// the database (``ReplayStore``), not in the process's memory.
    @Test func aSignatureReplaysNeitherAfterARestart() async throws {
        let directory = TestServer.temporaryDirectory()
        let (backend, path, body, headers) = try await TestServer.with(dataDirectory: directory) { server in
            let backend = try await Self.register(server)
            let path = server.anonymous.path(.public, "records/modify")
            let body = try Self.create("before-restart")
            let headers = try backend.headers(path, body: body)
            let first = try await server.anonymous.send(.POST, path, body: body, apiToken: .some(nil), headers: headers)
            #expect(first.status == 200, "\(first.text)")
            return (backend, path, body, headers)
        }
        try await TestServer.with(dataDirectory: directory) { server in
            let again = try await server.anonymous.send(.POST, path, body: body, apiToken: .some(nil), headers: headers)
            #expect(again.status == 401 && again.text.contains("replay"), "after a restart: \(again.text)")
            let fresh = try await backend.send(server.anonymous, .POST, path, body: try Self.create("after-restart"))
            #expect(fresh.status == 200, "a new signature still works: \(fresh.text)")
        }
    }

    /// `stratus key add` prints the key ID alone on its last line; `list` and `revoke` use it.
    @Test func keyCommands() async throws {
        let directory = TestServer.temporaryDirectory()
        try await TestServer.with(dataDirectory: directory) { _ in }
        let file = directory.appendingPathComponent("key.pem")
        try P256.Signing.PrivateKey().publicKey.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        let location = ["--data", directory.path, "--container", TestServer.containerID]

        let added = try await ServerProcess.run(["key", "add", "--public-key", file.path] + location)
        #expect(added.status == 0, "\(added.output)")
        let keyID = String(added.output.split(separator: "\n").last ?? "")
        #expect(keyID.count == 64 && keyID.allSatisfy(\.isHexDigit))
        await #expect(try ServerProcess.run(["key", "list"] + location).output.contains("\(keyID) added "))
        await #expect(try ServerProcess.run(["key", "revoke", keyID] + location).status == 0)
        await #expect(try ServerProcess.run(["key", "list"] + location).output.contains(" revoked "))
        await #expect(try ServerProcess.run(["key", "revoke", keyID] + location).status != 0)
        let notAKey = directory.appendingPathComponent("not.pem")
        try "hello".write(to: notAKey, atomically: true, encoding: .utf8)
        await #expect(try ServerProcess.run(["key", "add", "--public-key", notAKey.path] + location).status != 0)
    }

    @Test func onlyP256PublicKeysOfExistingContainersAreRegistered() async throws {
        try await TestServer.with { server in
            await #expect(throws: CloudKitError.self) {
                try await server.server.addServerKey(container: TestServer.containerID, publicKeyPEM: "not a key")
            }
            await #expect(throws: CloudKitError.self) {
                try await server.server.addServerKey(container: "iCloud.nobody", publicKeyPEM: P256.Signing.PrivateKey().publicKey.pemRepresentation)
            }
            let keyID = try await server.server.addServerKey(container: TestServer.containerID,
                                                             publicKeyPEM: P256.Signing.PrivateKey().publicKey.pemRepresentation)
            #expect(keyID.count == 64)
            #expect(try await server.server.serverKeys(container: TestServer.containerID).map(\.keyID) == [keyID])
        }
    }
}
