import Foundation
import Testing
@testable import StratusCore

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test(arguments: [
        ("0", JSONValue.integer(0)), ("-0", .number(-0.0)), ("42", .integer(42)), ("-17", .integer(-17)),
        ("9223372036854775807", .integer(Int64.max)), ("-9223372036854775808", .integer(Int64.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)), ("1.5", .number(1.5)), ("-2.5e3", .number(-2500)),
        ("1E-2", .number(0.01)), ("1e+2", .number(100)),
    ])
    func numbers(_ text: String, _ expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    /// Found by fuzzing: "-0" was read as the integer 0, so a DOUBLE field's -0.0 came back as 0.
    @Test func negativeZeroKeepsItsSign() throws {
        guard case .number(let value) = try parse("-0") else { Issue.record("-0 is not a double"); return }
        #expect(value.sign == .minus)
    }

    @Test(arguments: ["01", "-", "1.", ".5", "1e", "1e+", "+1", "1.2.3", "--1", "1e400", "NaN", "Infinity", "0x10"])
    func malformedNumbersAreRejected(_ text: String) {
        #expect(throws: CloudKitError.self) { try parse(text) }
    }

    @Test func stringsAndEscapes() throws {
        #expect(try parse(#""plain""#) == .string("plain"))
        #expect(try parse(#""a\"b\\c\/d\n\t\r\b\f""#) == .string("a\"b\\c/d\n\t\r\u{08}\u{0C}"))
        #expect(try parse(#""caf\u00e9 \ud83d\ude00""#) == .string("café 😀"))
        #expect(try parse("\"naïve 😀\"") == .string("naïve 😀"))
    }

    @Test(arguments: ["\"unterminated", #""bad \x escape""#, #""\ud83d alone""#, "\"tab\there\"", #""\u12""#])
    func malformedStringsAreRejected(_ text: String) {
        #expect(throws: CloudKitError.self) { try parse(text) }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: CloudKitError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func structures() throws {
        let value = try parse(#" { "a" : [1, true, null, {"b": "c"}], "d": {} , "e": [] } "#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.members.map(\.key) == ["a", "d", "e"])
        #expect(object["a"] == .array([.integer(1), .bool(true), .null, .object(JSONObject([("b", .string("c"))]))]))
        #expect(object["d"] == .object(JSONObject()))
        #expect(object["e"] == .array([]))
    }

    @Test(arguments: ["", " ", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "[1 2]", "tru", "nul", "{} {}", "[]x"])
    func malformedDocumentsAreRejected(_ text: String) {
        #expect(throws: CloudKitError.self) { try parse(text) }
    }

    @Test func depthIsLimited() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect { try parse(deep) } throws: { ($0 as? CloudKitError)?.reason.contains("nested deeper") == true }
        let fine = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        _ = try parse(fine)
    }

    @Test func fastPathAgreesWithCodable() throws {
        let json = #"{"operations":[{"operationType":"create","record":{"recordName":"r1","recordType":"Note","fields":{"t":{"value":"x"},"n":{"value":[1,2.5]},"l":{"value":{"latitude":1,"longitude":2}}}},"createKey":"device.7"}],"zoneID":{"zoneName":"Z","ownerName":"_u"},"atomic":false}"#
        let fast = try RecordsModifyRequest(json: try parse(json))
        let codable = try JSONDecoder().decode(RecordsModifyRequest.self, from: Data(json.utf8))
        #expect(fast == codable)
        #expect(fast.zoneID?.ownerRecordName == "_u" && fast.atomic == false)
        #expect(fast.operations[0].record.fields["n"] == .list(.double, [.double(1), .double(2.5)]))
        #expect(fast.operations[0].createKey == "device.7")
    }

    /// Parses `text` leaving the elements of its top-level `operations` array as text.
    func parseLeaving(_ text: String, flagging: Set<String> = []) throws -> (JSONValue, JSONElements?) {
        let bytes = Array(text.utf8)
        let (tree, found) = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0, leavingElementsOf: "operations", flagging: flagging) }
        return (tree, found.map { JSONElements(document: bytes, elements: $0) })
    }

    @Test func elementsLeftAsTextReadAsAWholeParseReadsThem() throws {
        let json = #" {"zoneID": {"zoneName": "Z"}, "operations" : [ {"a": [1, -0, 2.5e3, "caf\u00e9", "naïve", true, null]}, [], {} , "x\"y", 7 ], "atomic": false, "operations": [9]} "#
        let whole = try parse(json)
        let (tree, elements) = try parseLeaving(json)
        guard case .object(let wholeObject) = whole, case .object(let object) = tree, case .array(let expected)? = wholeObject["operations"],
              let elements else {
            Issue.record("not read as expected"); return
        }
        // The first `operations` member is left as text (an empty array in the tree); every other member is built.
        #expect(object.members.map(\.key) == ["zoneID", "operations", "atomic", "operations"])
        #expect(object.members[1].value == .array([]))
        #expect(object.members[3].value == .array([.integer(9)]))
        #expect(object["zoneID"] == wholeObject["zoneID"] && object["atomic"] == .bool(false))
        #expect(elements.count == expected.count)
        for index in expected.indices { #expect(try elements.element(index) == expected[index]) }
    }

    @Test func onlyAnArrayAtTheTopLevelIsLeftAsText() throws {
        #expect(try parseLeaving(#"{"operations": {"a": 1}}"#).1 == nil)
        #expect(try parseLeaving(#"{"zone": {"operations": [1]}}"#).1 == nil)
        #expect(try parseLeaving(#"[{"operations": [1]}]"#).1 == nil)
        #expect(try parseLeaving(#"{"operations": []}"#).1?.count == 0)
    }

    /// Elements left as text are checked as strictly as a whole parse, with the same error at the same byte.
    @Test(arguments: [
        #"{"operations": [{"a": 01}]}"#, #"{"operations": [{"a": 1e400}]}"#, #"{"operations": [{"a" 1}]}"#, #"{"operations": [1,]}"#,
        #"{"operations": ["bad \x escape"]}"#, #"{"operations": ["\ud83d alone"]}"#, "{\"operations\": [\"tab\there\"]}",
        #"{"operations": [tru]}"#, #"{"operations": [{"a": [1 2]}]}"#, #"{"operations": ["unterminated]}"#, #"{"operations": [1]"#,
        #"{"operations": [{}] } x"#, #"{"operations": [{1: 2}]}"#,
    ])
    func malformedElementsAreRejectedAsAWholeParseRejectsThem(_ text: String) {
        let whole = #expect(throws: CloudKitError.self) { try parse(text) }
        let leaving = #expect(throws: CloudKitError.self) { try parseLeaving(text) }
        #expect(whole?.reason == leaving?.reason)
    }

    /// Mutated bodies (a seeded generator, 2,000 of them): leaving the operations as text accepts
    /// exactly what a whole parse accepts, with the same error, and reads the same elements.
    @Test func mutatedBodiesAreReadAsAWholeParseReadsThem() throws {
        let body = Array(#"{"zoneID":{"zoneName":"Z"},"operations":[{"operationType":"create","record":{"recordName":"r\u00e9","recordType":"T","fields":{"t":{"value":"a\"b","type":"STRING"},"n":{"value":[1,-2.5e3,true,null]}}}},{"operationType":"delete","record":{"recordName":"x"}}],"atomic":false}"#.utf8)
        let alphabet = Array(#"{}[]",:\u0e9 -+.Eaxtrnl"#.utf8) + [0x80, 0xC3, 0xA9, 0x09, 0x01]
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var mutated = body
            for _ in 0...(generator.next() % 3) {
                let at = Int(generator.next() % UInt64(mutated.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: mutated[at] = byte
                case 1: mutated.insert(byte, at: at)
                default: mutated.remove(at: at)
                }
            }
            let whole = Result { () throws(CloudKitError) in try JSONParser.parse(mutated) }
            let leaving = mutated.withUnsafeBufferPointer { buffer in
                Result { () throws(CloudKitError) in try JSONParser.parse(buffer, leavingElementsOf: "operations") }
            }
            switch (whole, leaving) {
            case (.failure(let expected), .failure(let found)):
                #expect(expected.reason == found.reason, "\(String(decoding: mutated, as: UTF8.self))")
            case (.success(let tree), .success(let (_, found))):
                guard case .object(let object) = tree, case .array(let expected)? = object["operations"], let found else { continue }
                let elements = JSONElements(document: mutated, elements: found)
                #expect(try (0..<elements.count).map(elements.element) == expected)
            default:
                Issue.record("one parse accepted what the other refused: \(String(decoding: mutated, as: UTF8.self))")
            }
        }
    }

    /// A small seeded generator, so that the mutations are the same in every run.
    struct SplitMix64 {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func invalidUTF8InAnElementIsRejected() {
        let bytes: [UInt8] = Array(#"{"operations": [""#.utf8) + [0xFF, 0xFE] + Array(#""]}"#.utf8)
        #expect(throws: CloudKitError.self) { try bytes.withUnsafeBufferPointer { try JSONParser.parse($0, leavingElementsOf: "operations") } }
    }

    /// The nesting limit counts from the document's top, as for a whole parse.
    @Test func elementsNestedTooDeepAreRejected() throws {
        let tooDeep = #"{"operations": ["# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "]}"
        let whole = #expect(throws: CloudKitError.self) { try parse(tooDeep) }
        let leaving = #expect(throws: CloudKitError.self) { try parseLeaving(tooDeep) }
        #expect(whole?.reason == leaving?.reason && whole?.reason.contains("nested deeper") == true)
        let deepest = #"{"operations": ["# + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "]}"
        guard case .object(let object) = try parse(deepest), case .array(let expected)? = object["operations"] else {
            Issue.record("not parsed"); return
        }
        #expect(try parseLeaving(deepest).1?.element(0) == expected[0])
    }

    @Test func anElementHoldingAFlaggingWordIsFlagged() throws {
        let json = #"{"operations": [{"recordType": "Note"}, {"recordType": "cloudkit.share"}, {"cloudkit.share": 1}, {"t": "cloudkit\u002eshare"}, {"t": "cloudkit.shares"}, {"t": "x"}]}"#
        guard let elements = try parseLeaving(json, flagging: ["cloudkit.share"]).1 else { Issue.record("not left as text"); return }
        #expect((0..<elements.count).map(elements.mayHoldFlaggedWord) == [false, true, true, true, false, false])
        #expect(JSONElements([.null]).mayHoldFlaggedWord(0))
    }
}

@Suite struct WireWriterTests {
    @Test(arguments: [0, 7, -1, 10, 1_700_000_000_001, -9_000, Int64.max, Int64.min])
    func integersAreWrittenAsDecimalText(_ value: Int64) {
        var writer = WireWriter()
        writer.integer(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test(arguments: FieldValueCodingTests.samples)
    func writtenFieldsDecodeBack(_ value: FieldValue) throws {
        var writer = WireWriter()
        writer.field(value)
        #expect(try JSONDecoder().decode(RecordField.self, from: Data(writer.bytes)).value == value)
    }

    @Test func writtenModifyRequestReadsBack() throws {
        let create = RecordOperation(.create, Record(recordName: "r", recordType: "Note", fields: ["t": .string("x")]),
                                     desiredKeys: ["t"], createKey: "device.7")
        let request = RecordsModifyRequest(operations: [create, RecordOperation(.forceDelete, Record(recordName: "gone"))],
                                           zoneID: ZoneID(zoneName: "Z"), atomic: false, desiredKeys: [])
        var writer = WireWriter()
        try request.write(to: &writer)
        #expect(try RecordsModifyRequest(json: JSONParser.parse(writer.bytes)) == request)
    }

    @Test func writtenRecordDecodesBack() throws {
        let record = Record(
            recordName: "quote\"back\\slash\ncontrol\u{01}", recordType: "Note", recordChangeTag: "7",
            fields: ["title": .string("naïve 😀 \u{1F}"), "n": .int64(-3)],
            created: RecordStamp(timestamp: 1, userRecordName: "_u", deviceID: "d"),
            modified: RecordStamp(timestamp: 2, userRecordName: "_u", deviceID: "d"),
            deleted: false, parent: RecordPointer(recordName: "p"), share: RecordPointer(recordName: "s"))
        var writer = WireWriter()
        writer.record(record)
        #expect(try JSONDecoder().decode(Record.self, from: Data(writer.bytes)) == record)
        #expect(try JSONParser.parse(writer.bytes) != .null)
    }

    @Test func encodedFieldsAreCopiedAsTheyAre() throws {
        var fields = WireWriter()
        fields.fields(["a": .int64(1)])
        var writer = WireWriter()
        writer.record(Record(recordName: "r", recordType: "T"), encodedFields: fields.bytes)
        let decoded = try JSONDecoder().decode(Record.self, from: Data(writer.bytes))
        #expect(decoded.fields == ["a": .int64(1)])
    }
}
