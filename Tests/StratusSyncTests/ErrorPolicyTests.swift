import Foundation
import Logging
import Testing
import StratusClient
import StratusSync
import StratusTesting
import Synchronization

/// The engine's one table of error handling, row by row, and the log of its decisions.
@Suite struct ErrorPolicyTests {
    typealias Row = (code: CloudError.Code, step: ErrorPolicy.Step, scope: DatabaseScope, action: ErrorPolicy.Action)

    static let rows: [Row] = [
        // Whole operations: transient failures wait and retry, account problems halt.
        (.requestRateLimited, .operation, .private, .retry),
        (.serviceUnavailable, .operation, .private, .retry),
        (.networkFailure, .operation, .shared, .retry),
        (.notAuthenticated, .operation, .private, .halt),
        (.quotaExceeded, .operation, .private, .halt),
        (.permissionFailure, .operation, .private, .fail),
        // Inside an operation the same errors end the step; the operation decides.
        (.zoneBusy, .recordSave(create: false), .private, .fail),
        (.notAuthenticated, .recordDelete, .private, .fail),
        (.networkUnavailable, .batch(size: 10), .private, .fail),
        // Zones.
        (.zoneNotFound, .zoneChange(deleting: true), .private, .done),
        (.zoneNotFound, .zoneChange(deleting: false), .private, .setAside),
        (.permissionFailure, .zoneChange(deleting: false), .private, .setAside),
        // Batches refused whole: split, set the last one aside, create the zone it needs.
        (.limitExceeded, .batch(size: 400), .private, .splitBatch),
        (.invalidArguments, .batch(size: 2), .private, .splitBatch),
        (.limitExceeded, .batch(size: 1), .private, .setAside),
        (.zoneNotFound, .batch(size: 50), .private, .createZone),
        (.zoneNotFound, .batch(size: 50), .shared, .setAside),
        (.permissionFailure, .batch(size: 50), .private, .fail),
        // One record of a batch.
        (.zoneNotFound, .recordSave(create: true), .private, .createZone),
        (.zoneNotFound, .recordSave(create: true), .shared, .setAside),
        (.unknownItem, .recordSave(create: true), .private, .reportDeletion),
        (.unknownItem, .recordSave(create: false), .private, .forgetServerRecord),
        (.batchRequestFailed, .recordSave(create: false), .private, .sendAgain),
        (.batchRequestFailed, .recordDelete, .private, .sendAgain),
        (.unknownItem, .recordDelete, .private, .done),
        (.referenceViolation, .recordDelete, .private, .setAside),
        (.invalidArguments, .recordSave(create: true), .private, .setAside),
        (.serverRecordChanged, .recordSave(create: true), .private, .setAside),
        // Fetching.
        (.changeTokenExpired, .fetch(fromToken: true), .private, .restartListing),
        (.changeTokenExpired, .fetch(fromToken: false), .private, .fail),
        (.zoneNotFound, .fetch(fromToken: true), .shared, .forgetZone),
        (.permissionFailure, .fetch(fromToken: true), .private, .fail),
    ]

    @Test(arguments: rows.indices)
    func eachRowOfTheTable(_ index: Int) {
        let row = Self.rows[index]
        #expect(ErrorPolicy.action(for: CloudError(row.code, "test"), in: row.step, scope: row.scope) == row.action,
                "\(row.code) in \(row.step) (\(row.scope))")
    }

    @Test func aConflictWithTheServersRecordIsResolved() {
        var conflict = CloudError(.serverRecordChanged, "changed")
        conflict.serverRecord = CloudRecord(recordType: "item", recordID: RecordID(recordName: "n", zoneID: ZoneID(zoneName: "z")))
        #expect(ErrorPolicy.action(for: conflict, in: .recordSave(create: false), scope: .private) == .resolveConflict)
    }

    /// The engine logs what failed and what it does about it.
    @Test func theEngineLogsItsDecisions() async throws {
        let recorder = LogRecorder()
        try await TestCloud.with { cloud in
            let user = try await cloud.createUser("alice")
            let phone = try await cloud.device("phone", of: user) { configuration in
                configuration.logger = Logger(label: "test") { _ in recorder }
            }
            try await phone.save(SyncEnginePolicyTests.item("too-big", ["text": .string(String(repeating: "x", count: 1_100_000))]))
            try await phone.sync()
            try await phone.container.signOut()
            try await phone.save(SyncEnginePolicyTests.item("later", ["text": .string("x")]))
            await #expect(throws: CloudError.self) { try await phone.engine.syncNow() }
        }
        let entries = recorder.entries
        #expect(entries.contains { $0.level == .notice && $0.metadata["action"] == "setAside" && $0.metadata["subject"] == "too-big" },
                "\(entries)")
        #expect(entries.contains { $0.level == .error && $0.metadata["action"] == "halt" }, "\(entries)")
    }
}

/// A log handler that keeps every entry; its copies (a logger holds one) keep them in one place.
struct LogRecorder: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private final class Entries: Sendable {
        let list = Mutex<[Entry]>([])
    }

    private let stored = Entries()
    var entries: [Entry] { stored.list.withLock { $0 } }
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let entry = Entry(level: event.level, message: "\(event.message)",
                          metadata: (event.metadata ?? [:]).mapValues { "\($0)" })
        stored.list.withLock { $0.append(entry) }
    }
}
