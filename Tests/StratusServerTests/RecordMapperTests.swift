import Testing
import StratusCore
@testable import StratusServer

@Suite struct RecordMapperTests {
    private let asset = Asset(fileChecksum: "abc", size: 3)

    @Test func findsAssetsInStoredFields() {
        #expect(RecordMapper.hasAssets(RecordMapper.encodeFields(["photo": .some(.asset(asset))])))
        #expect(RecordMapper.hasAssets(RecordMapper.encodeFields(["title": .some(.string("Item")), "photos": .some(.list(.asset, [.asset(asset)]))])))
        #expect(RecordMapper.hasAssets(RecordMapper.encodeFields([
            "title": .some(.string(String(repeating: "I", count: 300))), "at": .some(.timestamp(1)), "photo": .some(.asset(asset)),
        ])))
    }

    @Test func ignoresTheMarkerInsideStringsAndShortInput() {
        let lookalike = #""type":"ASSETID"#
        #expect(!RecordMapper.hasAssets(RecordMapper.encodeFields(["note": .some(.string(lookalike)), "n": .some(.int64(1))])))
        #expect(!RecordMapper.hasAssets(RecordMapper.encodeFields(["IIII": .some(.string("ASSETID ASSETID_LIST")), "at": .some(.timestamp(7))])))
        #expect(!RecordMapper.hasAssets(Array("{}".utf8)))
        #expect(!RecordMapper.hasAssets([]))
        #expect(!RecordMapper.hasAssets(Array(#"{"a":{"value":1,"type":"ASSETI"#.utf8)))
    }

    /// A row written straight from storage is the dictionary its system fields and stored
    /// fields make, whatever pointers it has and whether it names its zone.
    @Test func aRowWrittenAsStoredIsItsRecordsDictionary() throws {
        let stamp = RecordStamp(timestamp: 1_700_000_000_123, userRecordName: "_a\"b", deviceID: "phone\n1")
        let fields = RecordMapper.encodeFields(["title": .some(.string("Tea")), "n": .some(.int64(-3)), "at": .some(.timestamp(9))])
        for (parent, share, zoneID) in [(nil, nil, nil), ("list-1", nil, nil), (nil, "share-9", ZoneID(zoneName: "Z", ownerRecordName: "_o")),
                                        ("list-2", "share-2", ZoneID(zoneName: "Y"))] as [(String?, String?, ZoneID?)] {
            let stored = StoredRecord(zoneRowID: 7, recordName: "item-1", recordType: "Item", changeTag: "42", fieldsJSON: fields,
                                      created: stamp, modified: RecordStamp(timestamp: 2, userRecordName: "_b", deviceID: ""),
                                      parent: parent, share: share, sequence: 42, deleted: false)
            var direct = WireWriter()
            direct.recordAsStored(stored, zoneID: zoneID)
            var system = RecordMapper.systemFields(of: stored)
            system.zoneID = zoneID
            var throughRecord = WireWriter()
            throughRecord.record(system, encodedFields: stored.fieldsJSON)
            #expect(String(decoding: direct.bytes, as: UTF8.self) == String(decoding: throughRecord.bytes, as: UTF8.self))
            let parsed = try Record(json: JSONParser.parse(direct.bytes))
            #expect(parsed.recordName == "item-1" && parsed.parent?.recordName == parent && parsed.share?.recordName == share)
            #expect(parsed.zoneID == zoneID && parsed.created == stamp && parsed.fields["n"] == .int64(-3))
        }
    }
}
