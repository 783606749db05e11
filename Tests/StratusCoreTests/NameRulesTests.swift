import Testing
@testable import StratusCore

@Suite struct NameRulesTests {
    @Test(arguments: ["note-1", "A", String(repeating: "x", count: 255), "with space"])
    func acceptsRecordNames(_ name: String) throws {
        try NameRules.validateRecordName(name)
    }

    @Test(arguments: ["", "_private", String(repeating: "x", count: 256), "café", "tab\there"])
    func rejectsRecordNames(_ name: String) {
        #expect(throws: CloudKitError.self) { try NameRules.validateRecordName(name) }
    }

    @Test func zoneNamesMayStartWithUnderscore() throws {
        try NameRules.validateZoneName("_defaultZone")
        #expect(throws: CloudKitError.self) { try NameRules.validateZoneName("zöne") }
    }

    @Test func everyCodeHasCloudKitsStatus() {
        #expect(ServerErrorCode.authenticationRequired.httpStatus == 421)
        #expect(ServerErrorCode.authenticationFailed.httpStatus == 401)
        #expect(ServerErrorCode.conflict.httpStatus == 409)
        #expect(ServerErrorCode.zoneNotFound.httpStatus == 404)
        #expect(ServerErrorCode.validatingReferenceError.httpStatus == 412)
        #expect(ServerErrorCode.throttled.httpStatus == 429)
    }
}
