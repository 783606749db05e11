import ArgumentParser
import Foundation
import StratusCore

/// `stratus-bench public`: the public database's change feed against the private one. One server,
/// whose schema has a type everyone reads and one only a role reads: a user saves `--records` of
/// the first in the public `_defaultZone` and as many in a private zone of their own, then
/// `--unreadable` of the second in the public zone. Another user (without the role) reads a first
/// page of `--page` records of each feed, and a page from after the public readable records: over
/// the unreadable changes, which answers none; the three in turns.
struct PublicFeedBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "public", abstract: "The public change feed against the private one.")

    @Option(help: "Readable records of each feed.") var records = 1000
    @Option(help: "Public changes the reader may not read, after the readable ones.") var unreadable = 100_000
    @Option(help: "Records per page.") var page = 200
    @Option(help: "Pages of each kind read, in turns; the median of each counts.") var reads = 300

    static let schema = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;
            RECORD TYPE Item (f0 STRING, f1 STRING, f2 STRING, f3 STRING, f4 STRING,
                GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator");
            RECORD TYPE Flagged (f0 STRING, f1 STRING, f2 STRING, f3 STRING, f4 STRING,
                GRANT READ TO Moderator, GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator");
        """

    func run() async throws {
        let directory = try ScratchDirectory.make()
        defer { ScratchDirectory.remove(directory) }
        let (records, unreadable, page, reads) = (self.records, self.unreadable, self.page, self.reads)
        let times = try await BenchmarkServer.with(directory: directory) { writer in
            try await writer.importSchema(Self.schema)
            _ = try await writer.post(writer.databasePath("zones/modify"),
                                      body: Data(#"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Items"}}}]}"#.utf8))
            for start in stride(from: 0, to: records, by: 200) {
                let names = (start..<min(start + 200, records)).map { "i\($0)" }
                _ = try await writer.post(writer.databasePath("records/modify", database: "public"), body: HistoryBenchmark.modifyBody(round: 0, names: names))
                _ = try await writer.post(writer.databasePath("records/modify"), body: HistoryBenchmark.modifyBody(round: 0, names: names, zone: "Items"))
            }
            for start in stride(from: 0, to: unreadable, by: 400) {
                let names = (start..<min(start + 400, unreadable)).map { "h\($0)" }
                _ = try await writer.post(writer.databasePath("records/modify", database: "public"),
                                          body: HistoryBenchmark.modifyBody(round: 0, names: names, recordType: "Flagged"))
            }
            let reader = try await writer.anotherUser("reader")
            _ = try await reader.post(reader.databasePath("zones/modify"),
                                      body: Data(#"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Items"}}}]}"#.utf8))
            for start in stride(from: 0, to: records, by: 200) {
                let names = (start..<min(start + 200, records)).map { "i\($0)" }
                _ = try await reader.post(reader.databasePath("records/modify"), body: HistoryBenchmark.modifyBody(round: 0, names: names, zone: "Items"))
            }
            func request(_ zone: String, token: String? = nil) throws -> Data {
                try JSONEncoder().encode(ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: zone), syncToken: token, resultsLimit: page)]))
            }
            func fetch(_ database: String, _ body: Data) async throws -> ZoneChanges {
                let answer = try JSONDecoder().decode(ZoneChangesResponse.self, from: try await reader.post(reader.databasePath("changes/zone", database: database), body: body))
                guard let changes = answer.zones.first?.changes else { throw BenchmarkError("changes/zone answered \(answer)") }
                return changes
            }
            let publicPage = try request(ZoneID.defaultZoneName), privatePage = try request("Items")
            for (database, body) in [("public", publicPage), ("private", privatePage)] {
                let first = try await fetch(database, body)
                guard first.records.count == page, first.moreComing else {
                    throw BenchmarkError("a first \(database) page held \(first.records.count) records (moreComing \(first.moreComing))")
                }
            }
            // The token past every readable public record: the next page scans unreadable changes only.
            var token: String?
            var read = 0
            repeat {
                let changes = try await fetch("public", try request(ZoneID.defaultZoneName, token: token))
                read += changes.records.count
                token = changes.syncToken
                if read == records { break }
            } while true
            let overUnreadable = try request(ZoneID.defaultZoneName, token: token)
            let empty = try await fetch("public", overUnreadable)
            guard empty.records.isEmpty, empty.moreComing else { throw BenchmarkError("a page over unreadable changes held \(empty.records.count) records") }
            // Timed: the request and its answer's bytes, not their decoding here.
            func readPage(_ database: String, _ body: Data) async throws {
                _ = try await reader.post(reader.databasePath("changes/zone", database: database), body: body)
            }
            var times: [(publicPage: Double, privatePage: Double, unreadable: Double)] = []
            for _ in 0..<reads {
                let publicSeconds = try await Stopwatch.seconds { try await readPage("public", publicPage) }
                let privateSeconds = try await Stopwatch.seconds { try await readPage("private", privatePage) }
                let unreadableSeconds = try await Stopwatch.seconds { try await readPage("public", overUnreadable) }
                times.append((publicSeconds, privateSeconds, unreadableSeconds))
            }
            return times
        }
        let publicMs = median(times.map(\.publicPage)) * 1000, privateMs = median(times.map(\.privatePage)) * 1000
        let unreadableMs = median(times.map(\.unreadable)) * 1000
        print(String(format: "a page of %d records: public %.2f ms, private %.2f ms (public/private %.2f); a page over %d unreadable changes %.2f ms (÷ the public page %.2f); medians of %d",
                     page, publicMs, privateMs, publicMs / privateMs, unreadable, unreadableMs, unreadableMs / publicMs, reads))
        Report.figure("public_changes_page_ms", publicMs, decimals: 2)
        Report.figure("private_changes_page_ms", privateMs, decimals: 2)
        Report.ratio("public_changes_vs_private", publicMs / privateMs, of: "public_changes_page_ms", to: "private_changes_page_ms")
        Report.figure("public_unreadable_page_ms", unreadableMs, decimals: 2)
        Report.ratio("public_unreadable_vs_readable", unreadableMs / publicMs, of: "public_unreadable_page_ms", to: "public_changes_page_ms")
    }
}
