import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import StratusCore

/// The console's activity and health page: changes as they commit, pushed to the page over
/// server-sent events (no polling), and the server's recent requests with their rates, errors and
/// latencies.
struct ConsoleActivityRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    /// How often a watching page hears a comment (which also tells a page that left); how long
    /// one stream lasts before the browser, as event streams do, connects again; how often the
    /// stream checks that its session still holds (signed out, expired or the administrator
    /// removed: the stream ends).
    static let heartbeat: Duration = .seconds(15)
    static let streamLifetime: Duration = .seconds(3600)
    static let sessionCheck: Duration = .seconds(3)

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("activity") { request, _ in
            try await routes.show(request) { visit in
                let summaries = [60, 300].map { seconds -> [String: Any] in
                    let summary = services.recentRequests.summary(lastSeconds: seconds)
                    return ["span": seconds == 60 ? "last minute" : "last 5 minutes", "requests": summary.requests,
                            "perSecond": String(format: "%.2f", summary.perSecond), "clientErrors": summary.clientErrors,
                            "serverErrors": summary.serverErrors, "p50": String(format: "%.1f", summary.p50Milliseconds),
                            "p99": String(format: "%.1f", summary.p99Milliseconds)]
                }
                let requests = services.recentRequests.newest(50).map { request -> [String: Any] in
                    ["time": request.time.formatted(.iso8601), "client": request.client, "method": request.method, "path": AccessLog.redacted(request.uri),
                     "status": request.status, "ms": String(format: "%.1f", request.milliseconds)]
                }
                let audit = try await services.admin.auditEntries(limit: 100).map { entry -> [String: Any] in
                    ["time": ConsoleRoutes.date(entry.at), "actor": entry.actor, "origin": entry.origin, "action": entry.action,
                     "container": entry.containerID, "detail": entry.detail]
                }
                var changes: [[String: Any]] = []
                for entry in services.activity.recent {
                    var values = Self.values(entry)
                    if let alarm = entry.lossAlarm, entry.scope != .shared {
                        values["restore"] = try await restoreLink(entry, alarm)
                        values["alarm"] = alarm.cause == .deletions
                            ? "\(alarm.deleted) of \(alarm.zoneRecords) records deleted by \(alarm.userRecordName) (\(alarm.deviceID))"
                            : "history's budget evicted \(alarm.deleted) versions of \(alarm.zoneRecords) records, replaced since \(ConsoleRoutes.date(alarm.restoreTo))"
                    }
                    changes.append(values)
                }
                return ConsoleRoutes.page("console-activity", ["pageTitle": "Activity", "changes": changes,
                                                               "summaries": summaries, "requests": requests, "audit": audit], visit: visit)
            }
        }
        console.get("activity.js") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: Self.script)))
        }
        console.get("activity/stream") { request, _ in
            guard let visit = await routes.visit(request) else { throw HTTPError(.unauthorized) }
            guard let entries = services.activity.watch() else {
                throw HTTPError(.serviceUnavailable, message: "\(ActivityFeed.maxWatchers) pages watch the activity already")
            }
            let (admin, token, streams) = (services.admin, visit.token, services.hub.sessionStreams)
            let signedIn: @Sendable () async -> Bool = { (try? await admin.consoleAdministrator(token: token)) != nil }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                            body: ResponseBody { writer in
                                try await Self.stream(entries, while: signedIn, endingWith: SecretGenerator.digest(token), in: streams, to: &writer)
                            })
        }
    }

    /// Writes each entry as an event, and a comment every ``heartbeat``, until the page goes (a
    /// write fails), its session ends (at once when it signs out, through `streams`; an expiry or an
    /// administrator removed by another process within ``sessionCheck``), ``streamLifetime``
    /// passes or the server stops.
    private static func stream(_ entries: AsyncStream<ActivityFeed.Entry>, while signedIn: @escaping @Sendable () async -> Bool,
                               endingWith sessionHash: String, in streams: SessionStreams, to writer: inout any ResponseBodyWriter) async throws {
        let (events, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(ActivityFeed.capacity))
        let registration = streams.add(sessionHash: sessionHash) { sink.finish() }
        defer { streams.remove(registration, sessionHash: sessionHash) }
        let forwarding = Task {
            for await entry in entries { sink.yield("data: " + json(values(entry)) + "\n\n") }
        }
        let beating = Task {
            let end = ContinuousClock.now + streamLifetime
            var lastBeat = ContinuousClock.now
            while ContinuousClock.now < end {
                try await Task.sleep(for: sessionCheck)
                guard await signedIn() else { break }
                if ContinuousClock.now - lastBeat >= heartbeat {
                    sink.yield(": still here\n\n")
                    lastBeat = ContinuousClock.now
                }
            }
            sink.finish()
        }
        defer {
            forwarding.cancel()
            beating.cancel()
        }
        try await writer.write(ByteBuffer(string: ": watching\n\n"))
        // The server stopping ends the stream too: an open answer holds its shutdown.
        try await withGracefulShutdownHandler {
            for await event in events {
                try await writer.write(ByteBuffer(string: event))
            }
        } onGracefulShutdown: {
            sink.finish()
        }
        try await writer.finish(nil)
    }

    /// The recycle bin of a loss alarm's zone, its zone restore filled in with the moment before
    /// the loss.
    private func restoreLink(_ entry: ActivityFeed.Entry, _ alarm: LossAlarm) async throws -> String {
        var link = "/console/containers/\(ConsoleRoutes.pathComponent(entry.containerID))/recovery?environment=\(entry.environment.rawValue)"
            + "&database=\(entry.scope.rawValue)"
        if entry.scope == .private { link += "&user=\(ConsoleRoutes.queryComponent(try await services.admin.username(recordName: entry.owner) ?? ""))" }
        return link + "&zone=\(ConsoleRoutes.queryComponent(entry.zone))&at=\(alarm.restoreTo)"
    }

    static func values(_ entry: ActivityFeed.Entry) -> [String: Any] {
        ["time": ConsoleRoutes.date(entry.time), "container": entry.containerID, "environment": entry.environment.rawValue,
         "database": entry.scope.rawValue, "zone": entry.zone, "record": entry.recordName ?? "(the zone)",
         "type": entry.recordType ?? "", "change": entry.change]
    }

    private static func json(_ values: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The page's one script: it adds each change the stream sends to the top of the table, as
    /// text (never as markup).
    static let script = """
        const table = document.getElementById("changes");
        const state = document.getElementById("live");
        const source = new EventSource("/console/activity/stream");
        source.onopen = () => { state.textContent = "Live: new changes appear as they commit."; };
        source.onerror = () => { state.textContent = "Reconnecting…"; };
        source.onmessage = (event) => {
          const entry = JSON.parse(event.data);
          const row = table.insertRow(0);
          row.className = "new";
          for (const key of ["time", "container", "environment", "database", "zone", "record", "type", "change"]) {
            row.insertCell().textContent = entry[key];
          }
          while (table.rows.length > 100) { table.deleteRow(-1); }
        };
        """
}
