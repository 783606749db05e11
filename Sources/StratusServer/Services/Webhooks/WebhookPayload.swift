import Foundation
import StratusCore

/// The body of a webhook delivery: Standard Webhooks' `{"type", "timestamp", "data"}`
/// (docs/webhooks.md lists each type and its data).
///
/// Data names the change's container, environment, database, zone and record, its change tag,
/// and who made it from which device. A public database's record saves carry the version's
/// fields (files as their checksum and size, never a URL); a private or shared database's fields
/// stay with its users, as in CloudKit. A body over ``maxBytes`` leaves its fields out and says so.
enum WebhookPayload {
    /// The largest body with fields.
    static let maxBytes = 256 * 1024

    /// What happened, as Standard Webhooks names event types.
    static func type(of event: WebhookLogEvent) -> String {
        let share = ShareKeys.isShareType(event.recordType)
        return switch event.change {
        case .create, .update, .restore: share ? "share.saved" : "record.saved"
        case .delete: share ? "share.deleted" : "record.deleted"
        case .zoneCreate: "zone.created"
        case .zoneDelete: "zone.deleted"
        case .lossAlarm: "alarm.loss"
        }
    }

    /// An event's `webhook-id`: the store's epoch and the event's place in the record log, the
    /// same on every try and never reused by a restored store.
    static func eventID(epoch: Int64, position: Int64) -> String {
        "evt_\(epoch)_\(position)"
    }

    /// The `webhook-id` of the `database.restored` event an endpoint hears first after a restore.
    static func restoredEventID(epoch: Int64, endpointID: String) -> String {
        "evt_\(epoch)_restored_\(endpointID)"
    }

    private struct EventData: Encodable {
        var container: String
        var environment: String
        var database: String?
        var zoneName: String?
        var zoneOwner: String?
        var recordName: String?
        var recordType: String?
        var recordChangeTag: String?
        var userRecordName: String?
        var deviceID: String?
        var restored: Bool?
        /// For a deletion a `DELETE_SELF` reference cascaded to: the record whose deletion began it.
        var cascadedFrom: String?
        var alarm: LossAlarm?
        var epoch: Int64?
        var fieldsOmitted: Bool?
    }

    /// The body of a logged event; `fields` (a public record's saved fields as wire JSON) goes in
    /// unless the body would pass ``maxBytes``.
    static func body(of event: WebhookLogEvent, containerID: String, environment: ContainerEnvironment, fields: [UInt8]?) throws -> [UInt8] {
        let isRecord = event.change.isRecordChange
        var data = EventData(container: containerID, environment: environment.rawValue, database: event.database.rawValue,
                             zoneName: event.zoneName, zoneOwner: event.zoneOwner,
                             recordName: isRecord ? event.recordName : nil, recordType: isRecord ? event.recordType : nil,
                             recordChangeTag: isRecord ? StoredRecord.derivedChangeTag(of: event.sequence) : nil,
                             userRecordName: event.stamp.userRecordName, deviceID: event.stamp.deviceID.isEmpty ? nil : event.stamp.deviceID,
                             restored: event.change == .restore ? true : nil,
                             cascadedFrom: event.change == .delete ? event.cause : nil)
        if event.change == .lossAlarm, let json = event.cause {
            data.alarm = try? JSONDecoder().decode(LossAlarm.self, from: Data(json.utf8))
        }
        let type = type(of: event), time = event.stamp.timestamp
        let plain = try body(type: type, at: time, data: try encoded(data))
        guard let fields else { return plain }
        if plain.count + fields.count + 12 > maxBytes {
            data.fieldsOmitted = true
            return try body(type: type, at: time, data: try encoded(data))
        }
        // `{…}` becomes `{…,"fields":{…}}`.
        return try body(type: type, at: time, data: Array(try encoded(data).dropLast()) + Array(#","fields":"#.utf8) + fields + Array("}".utf8))
    }

    /// The body of `database.restored`: the store was restored from a backup (its new epoch);
    /// what the endpoint heard since the backup was taken may be gone, and what follows is logged
    /// after the restore.
    static func restoredBody(containerID: String, environment: ContainerEnvironment, epoch: Int64, at time: Int64) throws -> [UInt8] {
        try body(type: "database.restored", at: time, data: try encoded(EventData(container: containerID, environment: environment.rawValue, epoch: epoch)))
    }

    /// A public record's fields as a receiver gets them: wire JSON, each asset as its checksum and size.
    static func fields(of record: StoredRecord) throws -> [UInt8] {
        let fields = try RecordMapper.decodeFields(record.fieldsJSON).mapValues { value -> FieldValue? in
            switch value {
            case .asset(let asset): .asset(Asset(fileChecksum: asset.fileChecksum, size: asset.size))
            case .list(let type, let items):
                .list(type, items.map { if case .asset(let asset) = $0 { .asset(Asset(fileChecksum: asset.fileChecksum, size: asset.size)) } else { $0 } })
            default: value
            }
        }
        return RecordMapper.encodeFields(fields)
    }

    /// `{"type":…,"timestamp":…,"data":…}`, in that order.
    private static func body(type: String, at time: Int64, data: [UInt8]) throws -> [UInt8] {
        let stamp = Date(timeIntervalSince1970: Double(time) / 1000).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return Array(#"{"type":"#.utf8) + (try encoded(type)) + Array(#","timestamp":"#.utf8) + (try encoded(stamp))
            + Array(#","data":"#.utf8) + data + Array("}".utf8)
    }

    private static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
