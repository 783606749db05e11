import Foundation
import StratusClient
import StratusTesting
import Testing

/// The transport slice (`STRATUS_TEST_TRANSPORT=urlsession`, with which `scripts/test.sh` runs the
/// client, sync and data suites again) does put the clouds' containers on URLSession: a slice that
/// quietly fell back to the default transport would prove nothing.
@Suite struct TransportSliceTests {
    @Test func aCloudsContainersUseTheTransportTheRunAsksFor() async throws {
        let asked = ProcessInfo.processInfo.environment["STRATUS_TEST_TRANSPORT"]
        try await TestCloud.with { cloud in
            let container = try await cloud.signUp("alice")
            #expect((container.transport is URLSessionTransport) == (asked == "urlsession" || Self.urlSessionIsTheDefault))
            #expect(await container.userRecordName != nil)
        }
    }

    private static var urlSessionIsTheDefault: Bool {
        #if canImport(Darwin)
        true
        #else
        false
        #endif
    }
}
