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
}
