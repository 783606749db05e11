import Foundation
import Hummingbird
import StratusCore

/// The console's data browser: a container environment's public database or a user's private
/// one, its zones, their records page by page, a record with its fields by type, the query
/// builder, and creating, editing and deleting records. It acts as `stratus records` does (the
/// server itself in the public database, the owner in a private one), through the same services
/// and so the same validation and conflict rules as the API.
struct ConsoleDataRoutes {
    let routes: ConsoleRoutes
    private var services: StratusServices { routes.services }

    /// Records shown on one page of a zone.
    static let pageSize = 50

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/data") { request, context in
            try await routes.show(request) { visit in
                let place = try ConsolePlace(request, context)
                var values = place.values
                values["pageTitle"] = "Data of \(place.container)"
                guard let access = try await access(place, values: &values, request: request) else {
                    return ConsoleRoutes.page("console-data", values, visit: visit)
                }
                let zones = try await services.zones.list(access)
                values["hasZones"] = !zones.zones.isEmpty
                if place.scope == .shared {
                    // A shared database shows other users' zones: each opens in its owner's database.
                    var listed: [[String: Any]] = []
                    for zone in zones.zones.compactMap(\.value) {
                        var owner: String?
                        if let recordName = zone.zoneID.ownerRecordName { owner = try await services.admin.username(recordName: recordName) }
                        listed.append(["name": "\(zone.zoneID.zoneName) (owned by \(owner ?? "?"))",
                                       "link": ConsolePlace.privateLink(container: place.container, environment: place.environment,
                                                                 user: owner ?? "", zone: zone.zoneID.zoneName)])
                    }
                    values["zones"] = listed
                    return ConsoleRoutes.page("console-data", values, visit: visit)
                }
                values["zones"] = zones.zones.compactMap(\.value).map { zone -> [String: Any] in
                    ["name": zone.zoneID.zoneName, "link": place.link("data", zone: zone.zoneID.zoneName),
                     "current": zone.zoneID.zoneName == place.zone]
                }
                let after = request.uri.queryParameters["after"].flatMap { Int64($0) } ?? 0
                let page = try await services.admin.browse(zone: place.zone, access, after: after, limit: Self.pageSize)
                values["records"] = page.records.map { record -> [String: Any] in
                    ["name": record.recordName, "type": record.recordType, "changeTag": record.changeTag,
                     "modified": ConsoleRoutes.date(record.modified.timestamp),
                     "link": place.link("record", zone: place.zone, extra: ["name": record.recordName])]
                }
                if let next = page.next { values["next"] = place.link("data", zone: place.zone, extra: ["after": String(next)]) }
                values["recovery"] = place.link("recovery", zone: place.zone)
                return ConsoleRoutes.page("console-data", values, visit: visit)
            }
        }
        console.get("containers/:container/record") { request, context in
            try await routes.show(request) { visit in
                let place = try ConsolePlace(request, context)
                var values = place.values
                guard let access = try await access(place, values: &values, request: request),
                      let name = request.uri.queryParameters["name"].map(String.init) else { throw HTTPError(.badRequest) }
                let results = try Self.decode(try await services.records.lookup(
                    RecordsLookupRequest(records: [.init(recordName: name)], zoneID: ZoneID(zoneName: place.zone)), access), as: RecordsResponse.self)
                guard let record = results.records.first?.record else {
                    return ConsoleRoutes.page("console-message", ["pageTitle": "No record", "text": "There is no record '\(name)' in zone \(place.zone)."],
                                              visit: visit, status: .notFound)
                }
                if !record.encryptedFields.isEmpty {
                    try await AuditActor.$current.withValue(.administrator(visit.administrator, from: context.clientAddress)) {
                        try await services.admin.auditShownEncryptedFields(record.encryptedFields, of: name, zone: place.zone, access)
                    }
                }
                values.merge(recordValues(record, place: place)) { $1 }
                return ConsoleRoutes.page("console-record", values, visit: visit)
            }
        }
        console.post("containers/:container/record") { request, context in
            try await routes.change(request, context) { visit, form in
                let place = try ConsolePlace(request, context, form: form)
                var values = place.values
                guard let access = try await access(place, values: &values, request: request) else { throw HTTPError(.badRequest) }
                return try await save(form, place: place, access: access, visit: visit, values: values)
            }
        }
        console.get("containers/:container/query") { request, context in
            try await routes.show(request) { visit in
                let place = try ConsolePlace(request, context)
                var values = place.values
                values["pageTitle"] = "Query \(place.container)"
                let parameters = request.uri.queryParameters
                let type = parameters["type"].map(String.init) ?? ""
                values["type"] = type
                let filters = (1...3).map { row -> (field: String, comparator: String, value: String) in
                    (parameters["field\(row)"].map(String.init) ?? "", parameters["comparator\(row)"].map(String.init) ?? "EQUALS",
                     parameters["value\(row)"].map(String.init) ?? "")
                }
                values["filters"] = filters.enumerated().map { index, filter -> [String: Any] in
                    ["row": index + 1, "field": filter.field, "value": filter.value,
                     "comparators": QueryRequestBuilder.comparators.map { ["name": $0, "selected": $0 == filter.comparator] }]
                }
                let sort = parameters["sort"].map(String.init) ?? ""
                let descending = parameters["order"] == "descending"
                values["sort"] = sort
                values["descending"] = descending
                guard !type.isEmpty, let access = try await access(place, values: &values, request: request) else {
                    return ConsoleRoutes.page("console-query", values, visit: visit)
                }
                do {
                    let request = try QueryRequestBuilder.request(
                        recordType: type, filters: filters.filter { !$0.field.isEmpty }.map { ($0.field, $0.comparator, $0.value) },
                        sort: sort.isEmpty ? [] : [(sort, !descending)], zone: place.zone, limit: Self.pageSize)
                    let results = try Self.decode(try await services.query.query(request, access), as: RecordsQueryResponse.self)
                    values["results"] = results.records.map { record -> [String: Any] in
                        ["name": record.recordName ?? "", "link": place.link("record", zone: place.zone, extra: ["name": record.recordName ?? ""]),
                         // Encrypted values are shown on the record's own page only (audited).
                         "summary": record.fields.sorted { $0.key < $1.key }.compactMap { name, value in
                             record.encryptedFields.contains(name) ? "\(name): (encrypted)"
                                 : value.map { "\(name): \(ConsoleFieldText.display($0))" } }.joined(separator: " · ")]
                    }
                    values["ran"] = true
                } catch let error as CloudKitError {
                    values["error"] = error.reason
                }
                return ConsoleRoutes.page("console-query", values, visit: visit)
            }
        }
    }

    /// The access `stratus records` would use; nil (with a note in `values`) while a private
    /// database has no owner chosen yet.
    func access(_ place: ConsolePlace, values: inout [String: Any], request: Request) async throws -> DatabaseAccess? {
        if place.scope != .public && place.user.isEmpty {
            values["needsUser"] = true
            return nil
        }
        do {
            return try await services.admin.access(containerID: place.container, environment: place.environment, scope: place.scope,
                                                   username: place.scope == .public ? nil : place.user, origin: routes.origin.of(request))
        } catch let error as CloudKitError {
            values["error"] = error.reason
            return nil
        }
    }

    /// Applies a record form (create, edit, delete) through `records/modify`'s service; a stale
    /// change tag comes back as the conflict the API reports, with the server's record shown.
    private func save(_ form: ConsoleForm, place: ConsolePlace, access: DatabaseAccess, visit: ConsoleVisit, values: [String: Any]) async throws -> Response {
        let name = form["name"] ?? ""
        let zoneID = ZoneID(zoneName: place.zone)
        var operation: RecordOperation
        switch form["op"] {
        case "delete":
            operation = RecordOperation(.delete, Record(recordName: name, recordChangeTag: form["changeTag"]))
        case "create":
            let (fields, problems) = Self.fields(from: form, onto: [:])
            guard problems.isEmpty else { return visit.redirect(place.link("data", zone: place.zone), notice: problems) }
            operation = RecordOperation(.create, Record(recordName: name.isEmpty ? nil : name, recordType: form["recordType"], fields: fields))
        default:
            let current = try Self.decode(try await services.records.lookup(
                RecordsLookupRequest(records: [.init(recordName: name)], zoneID: zoneID), access), as: RecordsResponse.self).records.first?.record
            let (fields, problems) = Self.fields(from: form, onto: current?.fields ?? [:])
            guard problems.isEmpty else {
                return visit.redirect(place.link("record", zone: place.zone, extra: ["name": name]), notice: problems)
            }
            operation = RecordOperation(.update, Record(recordName: name, recordType: current?.recordType, recordChangeTag: form["changeTag"],
                                                        fields: fields))
        }
        let results = try Self.decode(try await services.records.modify(RecordsModifyRequest(operations: [operation], zoneID: zoneID), access),
                                      as: RecordsResponse.self)
        if let record = results.records.first?.record {
            if form["op"] == "delete" { return visit.redirect(place.link("data", zone: place.zone), notice: "\(name) was deleted.") }
            return visit.redirect(place.link("record", zone: place.zone, extra: ["name": record.recordName ?? name]), notice: "Saved.")
        }
        let error = results.records.first?.error
        var page = values
        page["pageTitle"] = "Not saved"
        page["error"] = "\(error?.serverErrorCode.rawValue ?? "ERROR"): \(error?.reason ?? "the record was not saved")"
        if error?.serverErrorCode == .conflict, let server = error?.serverRecord {
            page["conflict"] = true
            page.merge(recordValues(server, place: place)) { $1 }
            return ConsoleRoutes.page("console-record", page, visit: visit, status: .conflict)
        }
        page["text"] = page["error"]
        return ConsoleRoutes.page("console-message", page, visit: visit, status: .badRequest)
    }

    /// `fields` with a record form's edits (`field.NAME`, each read as the type it has) and its new
    /// field row applied, and what could not be read ("" when everything could).
    private static func fields(from form: ConsoleForm, onto fields: [String: FieldValue?]) -> ([String: FieldValue?], String) {
        var fields = fields
        var edits = form.fields.filter { $0.name.hasPrefix("field.") }.map { (String($0.name.dropFirst("field.".count)), $0.value, nil as String?) }
        if let field = form["newField"], !field.isEmpty { edits.append((field, form["newValue"] ?? "", form["newType"] ?? "STRING")) }
        var problems: [String] = []
        for (name, text, newType) in edits {
            let previous = fields[name] ?? nil
            do {
                let type = newType ?? previous.map(ConsoleFieldText.typeName) ?? "STRING"
                fields[name] = try ConsoleFieldText.value(text, type: type, previous: previous)
            } catch {
                problems.append("\(name): \(error)")
            }
        }
        return (fields, problems.joined(separator: "; "))
    }

    /// A record's values for its page: system fields, and each field by type.
    private func recordValues(_ record: Record, place: ConsolePlace) -> [String: Any] {
        let fields = record.fields.sorted { $0.key < $1.key }.compactMap { name, value -> [String: Any]? in
            guard let value else { return nil }
            let type = ConsoleFieldText.typeName(value)
            var field: [String: Any] = ["name": name, "type": record.encryptedFields.contains(name) ? "ENCRYPTED_\(type)" : type,
                                        "display": ConsoleFieldText.display(value)]
            switch value {
            case .string, .int64, .double, .timestamp: field["editable"] = ConsoleFieldText.editableText(value)
            case .reference(let reference):
                field["editable"] = reference.recordName
                field["link"] = place.link("record", zone: reference.zoneID?.zoneName ?? place.zone, extra: ["name": reference.recordName])
            case .asset(let asset): field["download"] = asset.downloadURL ?? ""
            default: break
            }
            return field
        }
        return ["pageTitle": record.recordName ?? "Record", "name": record.recordName ?? "", "recordType": record.recordType ?? "",
                "changeTag": record.recordChangeTag ?? "", "fields": fields,
                "created": record.created.map { "\(ConsoleRoutes.date($0.timestamp)) by \($0.userRecordName)" } ?? "",
                "modified": record.modified.map { "\(ConsoleRoutes.date($0.timestamp)) by \($0.userRecordName)" } ?? "",
                "back": place.link("data", zone: place.zone),
                "history": place.link("history", zone: place.zone, extra: ["name": record.recordName ?? ""])]
    }

    /// Decodes what a service answers the way its endpoint's client would read it.
    static func decode<T: Decodable>(_ answer: some WireWritable, as type: T.Type) throws -> T {
        var writer = WireWriter()
        try answer.write(to: &writer)
        return try JSONDecoder().decode(type, from: Data(writer.bytes))
    }
}
