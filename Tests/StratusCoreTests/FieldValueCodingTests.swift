import Foundation
import Testing
@testable import StratusCore

@Suite struct FieldValueCodingTests {
    static let reference = Reference(recordName: "target", zoneID: ZoneID(zoneName: "Notes"), action: .deleteSelf)
    static let location = Location(latitude: 51.5, longitude: -0.12, horizontalAccuracy: 5, altitude: 11, timestamp: 1_700_000_000_000)
    static let asset = Asset(fileChecksum: "abc", size: 12, receipt: "r1", downloadURL: "https://example.test/a")

    /// One value of every scalar type, and the list of each.
    static let samples: [FieldValue] = {
        let scalars: [FieldValue] = [
            .string("héllo \"quoted\""), .int64(Int64.max), .int64(-42), .double(3.25), .timestamp(1_422_312_944_104),
            .bytes(Data([0, 1, 2, 250, 255])), .reference(reference), .location(location), .asset(asset),
        ]
        let lists: [FieldValue] = [
            .list(.string, [.string("a"), .string("b")]), .list(.int64, [.int64(1), .int64(2)]),
            .list(.double, [.double(1.5), .double(-2)]), .list(.timestamp, [.timestamp(1), .timestamp(2)]),
            .list(.bytes, [.bytes(Data([1])), .bytes(Data())]), .list(.reference, [.reference(reference)]),
            .list(.location, [.location(location)]), .list(.asset, [.asset(asset)]), .list(.string, []),
        ]
        return scalars + lists
    }()

    @Test(arguments: samples)
    func roundTrip(_ value: FieldValue) throws {
        let data = try JSONEncoder().encode(RecordField(value))
        let decoded = try JSONDecoder().decode(RecordField.self, from: data)
        #expect(decoded.value == value)
    }

    @Test func wireEncodingMatchesCloudKit() throws {
        func json(_ value: FieldValue) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(RecordField(value))) as! [String: Any]
        }
        #expect(try json(.timestamp(1_422_312_944_104))["value"] as? Int64 == 1_422_312_944_104)
        #expect(try json(.timestamp(1))["type"] as? String == "TIMESTAMP")
        #expect(try json(.bytes(Data("hi".utf8)))["value"] as? String == "aGk=")
        #expect(try json(.asset(Self.asset))["type"] as? String == "ASSETID")
        #expect(try json(.list(.asset, []))["type"] as? String == "ASSETID_LIST")
        #expect(try json(.list(.int64, [.int64(1)]))["type"] as? String == "INT64_LIST")
        let reference = try json(.reference(Self.reference))["value"] as! [String: Any]
        #expect(reference["action"] as? String == "DELETE_SELF")
        #expect((reference["zoneID"] as? [String: Any])?["zoneName"] as? String == "Notes")
    }

    @Test func decodesAppleModifyExample() throws {
        // From CloudKit Web Services Reference, "Modifying Records".
        let json = """
            {"operations":[{"operationType":"update","record":{"recordName":"101","recordChangeTag":"e",
             "fields":{"width":{"value":18},"height":{"value":24}}}}]}
            """
        let request = try JSONDecoder().decode(RecordsModifyRequest.self, from: Data(json.utf8))
        let record = try #require(request.operations.first?.record)
        #expect(request.operations.first?.operationType == .update)
        #expect(record.recordChangeTag == "e")
        #expect(record.fields["width"] == .int64(18))
        #expect(record.fields["height"] == .int64(24))
    }

    @Test func decodesAppleCreateResponseAndAssetExamples() throws {
        // From "Uploading Assets": a create response and the singleFile asset dictionary.
        let response = """
            {"records":[{"recordName":"4c01bd9b","recordChangeTag":"1e",
             "created":{"timestamp":1422312944104,"userRecordName":"_9a065b","deviceID":"iCloud"},
             "modified":{"timestamp":1422312944104,"userRecordName":"_9a065b","deviceID":"iCloud"}}]}
            """
        let decoded = try JSONDecoder().decode(RecordsResponse.self, from: Data(response.utf8))
        let record = try #require(decoded.records.first?.record)
        #expect(record.recordChangeTag == "1e")
        #expect(record.created == RecordStamp(timestamp: 1_422_312_944_104, userRecordName: "_9a065b", deviceID: "iCloud"))

        let assetField = """
            {"value":{"wrappingKey":"wk","fileChecksum":"fc","receipt":"rc","referenceChecksum":"ref","size":1024}}
            """
        let field = try JSONDecoder().decode(RecordField.self, from: Data(assetField.utf8))
        #expect(field.value == .asset(Asset(fileChecksum: "fc", size: 1024, referenceChecksum: "ref", wrappingKey: "wk", receipt: "rc")))
    }

    @Test func decodesAppleQueryExampleReference() throws {
        let json = #"{"value":{"recordName":"recordA"},"type":"REFERENCE"}"#
        let field = try JSONDecoder().decode(RecordField.self, from: Data(json.utf8))
        #expect(field.value?.references.first?.recordName == "recordA")
    }

    @Test(arguments: [
        (#"{"value":7}"#, FieldValue.int64(7)),
        (#"{"value":true}"#, .int64(1)),
        (#"{"value":7.5}"#, .double(7.5)),
        (#"{"value":"x"}"#, .string("x")),
        (#"{"value":[1,2.5]}"#, .list(.double, [.double(1), .double(2.5)])),
        (#"{"value":["a","b"]}"#, .list(.string, [.string("a"), .string("b")])),
        (#"{"value":{"latitude":1,"longitude":2}}"#, .location(Location(latitude: 1, longitude: 2))),
        (#"{"value":{"recordName":"r","action":"NONE"}}"#, .reference(Reference(recordName: "r", action: Reference.Action.none))),
        (#"{"value":"12","type":"INT64"}"#, .int64(12)),
        (#"{"value":[3],"type":"LIST"}"#, .list(.int64, [.int64(3)])),
        (#"{"value":{"fileChecksum":"c","size":1},"type":"ASSET"}"#, .asset(Asset(fileChecksum: "c", size: 1))),
    ])
    func infersOrReadsTypes(_ json: String, _ expected: FieldValue) throws {
        #expect(try JSONDecoder().decode(RecordField.self, from: Data(json.utf8)).value == expected)
    }

    /// Milliseconds with a fraction (a JavaScript date's arithmetic) are rounded, typed or not.
    @Test func aFractionalTimestampIsRounded() throws {
        for (json, expected) in [(#"{"value":1.5,"type":"TIMESTAMP"}"#, Int64(2)), (#"{"value":1700000000000.4,"type":"TIMESTAMP"}"#, 1_700_000_000_000)] {
            #expect(try JSONDecoder().decode(RecordField.self, from: Data(json.utf8)).value == .timestamp(expected))
        }
    }

    @Test func nullValueMeansRemoval() throws {
        let field = try JSONDecoder().decode(RecordField.self, from: Data(#"{"value":null}"#.utf8))
        #expect(field.value == nil)
    }

    @Test(arguments: [
        #"{"value":1,"type":"FLOAT"}"#,
        #"{"value":"abc","type":"INT64"}"#,
        #"{"value":"not a time","type":"TIMESTAMP"}"#,
        #"{"value":1e300,"type":"TIMESTAMP"}"#,
        #"{"value":"!!!","type":"BYTES"}"#,
        #"{"value":3,"type":"STRING"}"#,
        #"{"value":{"latitude":91,"longitude":0},"type":"LOCATION"}"#,
        #"{"value":{"x":1}}"#,
        #"{"value":[1,"a"]}"#,
        #"{"value":[1],"type":"STRING_LIST"}"#,
    ])
    func rejectsBadValuesWithBadRequest(_ json: String) {
        #expect {
            try JSONDecoder().decode(RecordField.self, from: Data(json.utf8))
        } throws: { error in
            (error as? CloudKitError)?.code == .badRequest
        }
    }

    @Test func recordErrorNamesTheField() {
        let json = #"{"recordName":"r","fields":{"age":{"value":"old","type":"INT64"}}}"#
        #expect {
            try JSONDecoder().decode(Record.self, from: Data(json.utf8))
        } throws: { error in
            (error as? CloudKitError)?.reason.contains("field 'age'") == true
        }
    }

    @Test func zoneIDAcceptsOwnerNameAndEmitsOwnerRecordName() throws {
        let zoneID = try JSONDecoder().decode(ZoneID.self, from: Data(#"{"zoneName":"Z","ownerName":"_u"}"#.utf8))
        #expect(zoneID.ownerRecordName == "_u")
        let encoded = String(decoding: try JSONEncoder().encode(zoneID), as: UTF8.self)
        #expect(encoded.contains("ownerRecordName") && !encoded.contains("\"ownerName\""))
        #expect(try JSONDecoder().decode(ZoneID.self, from: Data("{}".utf8)).zoneName == "_defaultZone")
    }
}
