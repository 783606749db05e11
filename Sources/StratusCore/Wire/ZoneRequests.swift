/// A per-zone failure (CloudKit's Zone Fetch Error Dictionary).
package struct ZoneError: Error, Codable, Sendable, Equatable {
    package var zoneID: ZoneID
    package var reason: String
    package var serverErrorCode: ServerErrorCode
    package var uuid: String?

    package init(zoneID: ZoneID, error: CloudKitError, uuid: String? = nil) {
        self.zoneID = zoneID
        self.reason = error.reason
        self.serverErrorCode = error.code
        self.uuid = uuid
    }
}

/// An entry of a `zones` array: a zone or a Zone Fetch Error Dictionary.
package typealias ZoneResult = ItemResult<Zone, ZoneError>

extension ItemResult where Success == Zone {
    /// The zone, when this result is one.
    package var zone: Zone? { value }
}

/// The response of `zones/list`, `zones/lookup` and `zones/modify`.
package struct ZonesResponse: Codable, Sendable, Equatable {
    package var zones: [ZoneResult]

    package init(zones: [ZoneResult]) { self.zones = zones }
}

/// The body of `zones/lookup`.
package struct ZonesLookupRequest: Codable, Sendable, Equatable {
    package var zones: [ZoneID]

    package init(zones: [ZoneID]) { self.zones = zones }
}

/// The body of `zones/modify`.
package struct ZonesModifyRequest: Codable, Sendable, Equatable {
    /// One zone operation: `create` or `delete`.
    package struct Operation: Codable, Sendable, Equatable {
        package enum OperationType: String, Codable, Sendable {
            case create, delete
        }

        /// The zone the operation acts on, as `{"zoneID": …}`.
        package struct Target: Codable, Sendable, Equatable {
            package var zoneID: ZoneID
            package init(zoneID: ZoneID) { self.zoneID = zoneID }
        }

        package var operationType: OperationType
        package var zone: Target

        package init(_ operationType: OperationType, _ zoneID: ZoneID) {
            self.operationType = operationType
            self.zone = Target(zoneID: zoneID)
        }
    }

    package var operations: [Operation]

    package init(operations: [Operation]) { self.operations = operations }
}
