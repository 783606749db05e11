import Testing
@testable import StratusServer

/// The CBOR decoder passkeys read attestation objects and COSE keys with: RFC 8949's examples it
/// reads, and what it must refuse without reading past the bytes or allocating what they claim.
@Suite struct CBORTests {
    static func decode(_ bytes: [UInt8]) throws -> CBOR {
        var decoder = CBOR.Decoder(bytes)
        let value = try decoder.decode()
        #expect(decoder.isAtEnd)
        return value
    }

    @Test func readsTheSpecificationsExamples() throws {
        #expect(try Self.decode([0x00]) == .unsigned(0))
        #expect(try Self.decode([0x18, 0x64]) == .unsigned(100))
        #expect(try Self.decode([0x1b, 0, 0, 0, 0xe8, 0xd4, 0xa5, 0x10, 0]) == .unsigned(1_000_000_000_000))
        #expect(try Self.decode([0x38, 0x63]) == .negative(99))
        #expect(try Self.decode([0x38, 0x63]).integer == -100)
        #expect(try Self.decode([0x39, 0x01, 0x00]).integer == -257)
        #expect(try Self.decode([0x44, 1, 2, 3, 4]) == .bytes([1, 2, 3, 4]))
        #expect(try Self.decode([0x62, 0xc3, 0xbc]) == .text("ü"))
        #expect(try Self.decode([0x83, 1, 0x82, 2, 3, 0x82, 4, 5]) == .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]))
        let map = try Self.decode([0xa2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x82, 0x02, 0x03])
        #expect(map[text: "a"] == .unsigned(1) && map[text: "b"] == .array([.unsigned(2), .unsigned(3)]))
        #expect(try Self.decode([0xf4]) == .bool(false) && Self.decode([0xf5]) == .bool(true) && Self.decode([0xf6]) == .null)
    }

    @Test func refusesWhatWebAuthnNeverSends() {
        let refused: [(String, [UInt8])] = [
            ("an indefinite-length byte string", [0x5f, 0x41, 0x01, 0xff]),
            ("an indefinite-length map", [0xbf, 0xff]),
            ("a tag", [0xc0, 0x00]),
            ("a float", [0xf9, 0x3c, 0x00]),
            ("a byte string longer than its bytes", [0x5a, 0xff, 0xff, 0xff, 0xff, 0x00]),
            ("an array of a billion items in six bytes", [0x9a, 0x40, 0x00, 0x00, 0x00, 0x00]),
            ("a map with a key twice", [0xa2, 0x01, 0x02, 0x01, 0x03]),
            ("text that is not UTF-8", [0x61, 0xff]),
            ("nothing", []),
            ("arrays nested 17 deep", Array(repeating: 0x81, count: 17) + [0x00]),
        ]
        for (what, bytes) in refused {
            var decoder = CBOR.Decoder(bytes)
            #expect(throws: CBOR.DecodingError.self, "\(what)") { try decoder.decode() }
        }
        var nested = CBOR.Decoder(Array(repeating: 0x81, count: 16) + [0x00])
        #expect(throws: Never.self, "16 deep is read") { try nested.decode() }
    }
}
