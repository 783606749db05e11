import ArgumentParser
import Foundation
import StratusCore
import StratusServer

/// `stratus records …`: look records up, query, save and delete them from the command line, the
/// parts of Apple's `cktool` people use to seed and inspect data. Each prints what the endpoint of
/// the same name answers (CloudKit's JSON), and goes through the same services, rules included.
struct RecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records", abstract: "Look up, query, save and delete records.",
        subcommands: [Lookup.self, Query.self, Save.self, Delete.self])

    /// Which database: the public one (acting as the server itself, as a server-to-server key
    /// does), or a user's private one.
    struct Target: ParsableArguments {
        @OptionGroup var location: DataLocation
        @Option(help: "development or production.") var environment = "development"
        @Option(help: "The database scope: public, or private (with --user).") var scope = "public"
        @Option(help: "The user whose private database it is (their username).") var user: String?
        @Option(help: "The zone (default: the default zone).") var zone = ZoneID.defaultZoneName
        @Option(help: "The server's URL, for the asset download URLs printed.") var publicUrl = "http://127.0.0.1:8080"

        /// The server and who acts in which database.
        func access() async throws -> (StratusServer, DatabaseAccess) {
            guard let environment = ContainerEnvironment(rawValue: environment) else {
                throw ValidationError("environment must be development or production")
            }
            guard let scope = DatabaseScope(rawValue: scope), scope != .shared else {
                throw ValidationError("--scope must be public or private")
            }
            guard (scope == .private) == (user != nil) else {
                throw ValidationError("--user names the owner of a private database, and only then")
            }
            let server = try await location.server()
            let access = try await AdminCall.run {
                try await server.services.admin.access(containerID: location.container, environment: environment, scope: scope,
                                                       username: user, origin: publicUrl)
            }
            return (server, access)
        }
    }

    /// `stratus records lookup NAME…`
    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print records by name (records/lookup).")
        @OptionGroup var target: Target
        @Argument(help: "The record names.") var names: [String]

        func run() async throws {
            let (server, access) = try await target.access()
            let request = RecordsLookupRequest(records: names.map { .init(recordName: $0) }, zoneID: ZoneID(zoneName: target.zone))
            try await RecordsCommand.print { try await server.services.records.lookup(request, access) }
        }
    }

    /// `stratus records query --type T [--filter 'FIELD COMPARATOR VALUE']… [--sort FIELD[:desc]]…`
    struct Query: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Query records of a type (records/query).")
        @OptionGroup var target: Target
        @Option(help: "The record type.") var type: String
        @Option(help: "A filter, 'FIELD COMPARATOR VALUE' (EQUALS, LESS_THAN, BEGINS_WITH, …; VALUE as JSON, or a bare string); repeatable.")
        var filter: [String] = []
        @Option(help: "A field to sort by, FIELD or FIELD:desc; repeatable.") var sort: [String] = []
        @Option(help: "The most records to print.") var limit: Int?

        func run() async throws {
            let filters = try filter.map { text in
                let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
                guard parts.count == 3 else { throw ValidationError("a filter is 'FIELD COMPARATOR VALUE', as in 'title EQUALS Hello'") }
                return (field: parts[0], comparator: parts[1], value: parts[2])
            }
            let order = sort.map { key in key.hasSuffix(":desc") ? (field: String(key.dropLast(5)), ascending: false) : (field: key, ascending: true) }
            let request = try await AdminCall.run {
                try QueryRequestBuilder.request(recordType: type, filters: filters, sort: order, zone: target.zone, limit: limit)
            }
            let (server, access) = try await target.access()
            try await RecordsCommand.print { try await server.services.query.query(request, access) }
        }
    }

    /// `stratus records save --file F` (a records/modify body; `-` reads standard input)
    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a records/modify body from a file (- reads standard input): creates, updates, deletes.")
        @OptionGroup var target: Target
        @Option(help: "The JSON file: {\"operations\": […]}, as records/modify takes it (its zoneID wins over --zone).") var file: String

        func run() async throws {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            guard let data else { throw ValidationError("cannot read \(file)") }
            var request: RecordsModifyRequest
            do {
                request = try JSONDecoder().decode(RecordsModifyRequest.self, from: data)
            } catch {
                throw ValidationError("\(file) is not a records/modify body: \(error)")
            }
            if request.zoneID == nil { request.zoneID = ZoneID(zoneName: target.zone) }
            let (server, access) = try await target.access()
            try await RecordsCommand.print { try await server.services.records.modify(request, access) }
        }
    }

    /// `stratus records delete NAME…`
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete records by name, whatever their change tag (forceDelete).")
        @OptionGroup var target: Target
        @Argument(help: "The record names.") var names: [String]

        func run() async throws {
            let request = RecordsModifyRequest(operations: names.map { RecordOperation(.forceDelete, Record(recordName: $0)) },
                                               zoneID: ZoneID(zoneName: target.zone))
            let (server, access) = try await target.access()
            try await RecordsCommand.print { try await server.services.records.modify(request, access) }
        }
    }

    /// Prints an answer as its endpoint writes it; a CloudKit error as its reason.
    static func print(_ answer: () async throws -> some WireWritable) async throws {
        let result = try await AdminCall.run(answer)
        var writer = WireWriter()
        try result.write(to: &writer)
        Swift.print(String(decoding: writer.bytes, as: UTF8.self))
    }
}
