import Testing
@testable import StratusCore

/// `Record.shareKeys` is held out of line (``OutOfLine``): records still compare and copy by value.
@Suite struct OutOfLineTests {
    private static let keys = ShareKeys(publicPermission: .readOnly, shortGUID: "guid-1")

    @Test func recordsCompareByTheirShareKeysValues() {
        var first = Record(recordName: "share", recordType: ShareKeys.recordType)
        var second = first
        #expect(first == second)
        first.shareKeys = Self.keys
        #expect(first != second)
        second.shareKeys = ShareKeys(publicPermission: .readOnly, shortGUID: "guid-1")
        #expect(first == second)
        second.shareKeys?.shortGUID = "guid-2"
        #expect(first != second)
        second.shareKeys = nil
        #expect(first != second)
    }

    @Test func aCopysShareKeysChangeAloneWhenSet() {
        var original = Record(recordName: "share", recordType: ShareKeys.recordType)
        original.shareKeys = Self.keys
        var copy = original
        copy.shareKeys?.publicPermission = .readWrite
        #expect(original.shareKeys == Self.keys)
        #expect(copy.shareKeys?.publicPermission == .readWrite)
        #expect(copy.shareKeys?.shortGUID == "guid-1")
    }
}
