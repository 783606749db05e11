import StratusClient
import StratusSync

/// A sync engine delegate made of closures, for benchmarks that only count what arrives.
final class ClosureDelegate: SyncEngineDelegate {
    let events: @Sendable (SyncEngine.Event) async -> Void
    let records: @Sendable (RecordID) async -> CloudRecord?

    init(records: @escaping @Sendable (RecordID) async -> CloudRecord? = { _ in nil },
         events: @escaping @Sendable (SyncEngine.Event) async -> Void = { _ in }) {
        self.records = records
        self.events = events
    }

    func handleEvent(_ event: SyncEngine.Event, syncEngine: SyncEngine) async { await events(event) }
    func record(for recordID: RecordID, syncEngine: SyncEngine) async throws -> CloudRecord? { await records(recordID) }
}
