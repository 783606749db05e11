import Foundation
import Testing
import StratusCore
@testable import StratusServer

/// The console's bounds: the activity feed's kept changes and watchers, the recent requests' ring,
/// and the largest form it reads.
@Suite struct ConsoleBoundsTests {
    static func changes(_ count: Int) -> CommittedChanges {
        CommittedChanges(database: DatabaseKey(containerID: "c", environment: .development, scope: .private, ownerRecordName: "u"),
                         databaseID: 1, zoneRowID: 1, zoneName: "Notes",
                         records: (0..<count).map { RecordChange(recordName: "r\($0)", recordType: "Note", creator: "_owner", trigger: .create, fieldsJSON: []) })
    }

    @Test func theActivityFeedKeepsTheNewestChangesAndAtMostItsWatchers() async throws {
        let feed = ActivityFeed(clock: ServerClock())
        feed.record(Self.changes(ActivityFeed.capacity + 20))
        #expect(feed.recent.count == ActivityFeed.capacity)
        #expect(feed.recent.first?.recordName == "r\(ActivityFeed.capacity + 19)", "newest first")

        var watchers = (0..<ActivityFeed.maxWatchers).compactMap { _ in feed.watch() }
        #expect(watchers.count == ActivityFeed.maxWatchers)
        #expect(feed.watch() == nil, "one watcher too many is refused")
        feed.record(Self.changes(1))
        var first = watchers[0].makeAsyncIterator()
        #expect(await first.next()?.recordName == "r0", "a watcher hears a change as it commits")
        watchers.removeLast()
        // Dropping a stream frees its place (its termination runs when the stream is released).
        var again: AsyncStream<ActivityFeed.Entry>?
        for _ in 0..<100 where again == nil {
            again = feed.watch()
            if again == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(again != nil)
    }

    @Test func recentRequestsKeepARingAndSumUpTheirSpan() {
        let recent = RecentRequests()
        let now = Date()
        for index in 0..<(RecentRequests.capacity + 10) {
            recent.note(.init(time: now, client: "192.0.2.1", method: "GET", uri: "/r\(index)", status: index % 10 == 0 ? 500 : (index % 10 == 1 ? 404 : 200),
                              milliseconds: Double(index % 100)))
        }
        let newest = recent.newest(3).map(\.uri)
        #expect(newest == ["/r\(RecentRequests.capacity + 9)", "/r\(RecentRequests.capacity + 8)", "/r\(RecentRequests.capacity + 7)"])
        let summary = recent.summary(lastSeconds: 60, now: now)
        #expect(summary.requests == RecentRequests.capacity, "only the ring's requests count")
        #expect(summary.serverErrors == RecentRequests.capacity / 10 && summary.clientErrors == RecentRequests.capacity / 10)
        #expect(summary.p50Milliseconds == 50 && summary.p99Milliseconds == 99)
        #expect(recent.summary(lastSeconds: 60, now: now.addingTimeInterval(120)).requests == 0, "older requests fall out of the span")
    }

    @Test func aFormLargerThanTheConsoleReadsIsRefused() async throws {
        try await TestServer.with { server in
            let big = "username=root&password=" + String(repeating: "x", count: ConsoleRoutes.maxFormBytes + 1)
            let response = try await ConsoleTests.request(server, .POST, "/console/signin", form: big)
            #expect(response.status == 413, "\(response.status) \(response.text.prefix(200))")
            #expect(try await ConsoleTests.request(server, .GET, "/console/activity/stream").status == 401, "no stream without a session")
        }
    }
}
