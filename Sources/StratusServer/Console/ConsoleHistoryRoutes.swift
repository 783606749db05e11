import Foundation
import Hummingbird
import StratusCore

/// The console's history pages: a record's versions side by side, each with the fields it
/// changed, and restoring one; a zone's recycle bin with undelete; the database's deleted zones;
/// restoring a zone to a moment (a loss alarm on the activity page links here with the moment
/// filled in). Every restore goes through ``HistoryService`` as the API's does — a new save that
/// devices fetch — and is in the audit log.
struct ConsoleHistoryRoutes {
    let routes: ConsoleRoutes
    let data: ConsoleDataRoutes
    private var services: StratusServices { routes.services }

    /// Versions one history page shows, and records one recycle bin page does.
    static let pageSize = 50
    /// The most steps one zone restore from the console takes (``HistoryService/zoneRestoreStep`` records each).
    static let maxZoneRestoreSteps = 10_000

    func register(on console: RouterGroup<StratusRequestContext>) {
        console.get("containers/:container/history") { request, context in
            try await routes.show(request) { visit in
                let place = try ConsolePlace(request, context)
                var values = place.values
                guard let access = try await data.access(place, values: &values, request: request),
                      let name = request.uri.queryParameters["name"].map(String.init) else { throw HTTPError(.badRequest) }
                values["pageTitle"] = "History of \(name)"
                values["name"] = name
                values["back"] = place.link("record", zone: place.zone, extra: ["name": name])
                do {
                    let answer = try await services.history.history(RecordHistoryRequest(zoneID: ZoneID(zoneName: place.zone), recordName: name,
                                                                                         resultsLimit: Self.pageSize), access)
                    let versions = try ConsoleDataRoutes.decode(answer, as: RecordHistoryResponse.self).versions
                    values["versions"] = Self.rows(versions)
                    values["current"] = versions.first?.recordChangeTag ?? ""
                } catch let error as CloudKitError {
                    values["error"] = error.reason
                }
                return ConsoleRoutes.page("console-history", values, visit: visit)
            }
        }
        console.get("containers/:container/recovery") { request, context in
            try await routes.show(request) { visit in
                let place = try ConsolePlace(request, context)
                var values = place.values
                values["pageTitle"] = "Recycle bin of \(place.zone)"
                values["back"] = place.link("data", zone: place.zone)
                let at = request.uri.queryParameters["at"].flatMap { Int64($0) }
                values["at"] = Self.moment(at ?? services.clock.milliseconds)
                values["alarm"] = at != nil
                guard let access = try await data.access(place, values: &values, request: request) else {
                    return ConsoleRoutes.page("console-recovery", values, visit: visit)
                }
                do {
                    let bin = try await services.history.deleted(DeletedRecordsRequest(zoneID: ZoneID(zoneName: place.zone), resultsLimit: Self.pageSize), access)
                    values["deleted"] = bin.records.map { item -> [String: Any] in
                        ["name": item.recordName, "type": item.recordType, "changeTag": item.recordChangeTag,
                         "when": ConsoleRoutes.date(item.deleted.timestamp), "who": "\(item.deleted.userRecordName) (\(item.deleted.deviceID))",
                         "history": place.link("history", zone: place.zone, extra: ["name": item.recordName])]
                    }
                    if place.scope == .private {
                        values["deletedZones"] = try await services.history.deletedZones(DeletedZonesRequest(), access).zones.map { zone -> [String: Any] in
                            ["name": zone.zoneID.zoneName, "when": ConsoleRoutes.date(zone.deleted), "at": Self.moment(zone.deleted - 1)]
                        }
                    }
                } catch let error as CloudKitError {
                    values["error"] = error.reason
                }
                return ConsoleRoutes.page("console-recovery", values, visit: visit)
            }
        }
        console.post("containers/:container/history") { request, context in
            try await routes.change(request, context) { visit, form in
                let place = try ConsolePlace(request, context, form: form)
                var values = place.values
                guard let access = try await data.access(place, values: &values, request: request) else { throw HTTPError(.badRequest) }
                do {
                    switch form["op"] {
                    case "restore", "undelete":
                        return try await restore(form, place: place, access: access, visit: visit)
                    case "restoreZone":
                        return try await restoreZone(form, place: place, access: access, visit: visit)
                    default:
                        throw HTTPError(.badRequest)
                    }
                } catch let error as CloudKitError {
                    return ConsoleRoutes.page("console-message", ["pageTitle": "Not restored", "text": "\(error.code.rawValue): \(error.reason)"],
                                              visit: visit, status: .badRequest)
                }
            }
        }
    }

    /// Restores a record to the version the form names (`tag`), or undeletes it (its last version
    /// before the deletion whose tombstone is `tag`), only while the record is as the page showed it.
    private func restore(_ form: ConsoleForm, place: ConsolePlace, access: DatabaseAccess, visit: ConsoleVisit) async throws -> Response {
        let name = form["name"] ?? "", zoneID = ZoneID(zoneName: place.zone)
        var version = form["tag"] ?? ""
        var expected = form["current"]
        if form["op"] == "undelete" {
            let versions = try ConsoleDataRoutes.decode(try await services.history.history(RecordHistoryRequest(zoneID: zoneID, recordName: name, resultsLimit: 2),
                                                                                           access), as: RecordHistoryResponse.self).versions
            guard versions.first?.deleted == true, let last = versions.dropFirst().first?.recordChangeTag else {
                throw CloudKitError.notFound("record '\(name)' is not deleted, or its last version is no longer kept")
            }
            (version, expected) = (last, version)
        }
        let answer = try await services.history.restore(RecordsRestoreRequest(zoneID: zoneID, operations: [
            .init(recordName: name, recordChangeTag: version, expectedCurrentChangeTag: expected)]), access)
        if let error = answer.records.first?.error { throw CloudKitError(error.serverErrorCode, error.reason ?? "the record was not restored") }
        try await services.admin.auditRestore("\(place.zone)/\(name) to version \(version)", access)
        let cascaded = answer.cascaded.isEmpty ? "" : " with \(answer.cascaded.count) records its deletion took"
        return visit.redirect(place.link("record", zone: place.zone, extra: ["name": name]),
                              notice: form["op"] == "undelete" ? "\(name) was undeleted\(cascaded)." : "\(name) was restored to version \(version).")
    }

    /// Restores the zone to the form's moment (`at`), step by step, as forward changes.
    private func restoreZone(_ form: ConsoleForm, place: ConsolePlace, access: DatabaseAccess, visit: ConsoleVisit) async throws -> Response {
        guard let moment = Self.milliseconds(form["at"] ?? "") else {
            throw CloudKitError.badRequest("'\(form["at"] ?? "")' is not a moment such as \(Self.moment(services.clock.milliseconds))")
        }
        var (restored, deleted, failed) = (0, 0, 0)
        var marker: String?
        for _ in 0..<Self.maxZoneRestoreSteps {
            let step = try await services.history.restoreZone(ZoneRestoreRequest(zoneID: ZoneID(zoneName: place.zone), timestamp: moment,
                                                                                 continuationMarker: marker), access)
            restored += step.restoredRecords.count
            deleted += step.deletedRecords.count
            failed += step.errors.count
            marker = step.continuationMarker
            if marker == nil { break }
        }
        try await services.admin.auditRestore("zone \(place.zone) to \(Self.moment(moment))", access)
        let rest = marker == nil ? "" : " It is not done yet: restore again to go on."
        let failures = failed == 0 ? "" : " \(failed) records could not be restored."
        return visit.redirect(place.link("data", zone: place.zone),
                              notice: "Zone \(place.zone) was restored to \(Self.moment(moment)): \(restored) records restored, \(deleted) deleted.\(failures)\(rest)")
    }

    /// The history page's rows: each version with what it changed against the one before it.
    static func rows(_ versions: [Record]) -> [[String: Any]] {
        versions.enumerated().map { index, version -> [String: Any] in
            let older = versions.indices.contains(index + 1) ? versions[index + 1] : nil
            var changes: [[String: Any]] = []
            if version.deleted == true {
                changes.append(["field": "(the record)", "hasBefore": false, "after": "deleted"])
            } else {
                let before = older?.deleted == true ? [:] : older?.fields ?? [:]
                for name in Set(version.fields.keys).union(before.keys).sorted() {
                    let (new, old) = (version.fields[name] ?? nil, before[name] ?? nil)
                    guard new != old else { continue }
                    changes.append(["field": name, "hasBefore": old != nil, "before": old.map(ConsoleFieldText.display) ?? "",
                                    "after": new.map(ConsoleFieldText.display) ?? "(removed)"])
                }
            }
            return ["tag": version.recordChangeTag ?? "", "when": version.modified.map { ConsoleRoutes.date($0.timestamp) } ?? "",
                    "who": version.modified.map { "\($0.userRecordName) (\($0.deviceID))" } ?? "", "changes": changes,
                    "isCurrent": index == 0, "restorable": index > 0 && version.deleted != true]
        }
    }

    private static let momentStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// A moment as the zone restore form shows it: ISO 8601 to the millisecond, in UTC.
    static func moment(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(momentStyle)
    }

    /// A moment the form was given, with or without milliseconds.
    static func milliseconds(_ text: String) -> Int64? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard let date = (try? momentStyle.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
