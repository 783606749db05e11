/// A per-zone failure (CloudKit's Zone Fetch Error Dictionary).
public struct ZoneError: Error, Codable, Sendable, Equatable {
    public var zoneID: ZoneID
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var uuid: String?

    public init(zoneID: ZoneID, error: CloudKitError, uuid: String? = nil) {
        self.zoneID = zoneID
        self.reason = error.reason
        self.serverErrorCode = error.code
        self.uuid = uuid
    }
}

/// An entry of a `zones` array: a zone or a Zone Fetch Error Dictionary.
public typealias ZoneResult = ItemResult<Zone, ZoneError>

extension ItemResult where Success == Zone {
    /// The zone, when this result is one.
    public var zone: Zone? { value }
}

/// The response of `zones/list`, `zones/lookup` and `zones/modify`.
public struct ZonesResponse: Codable, Sendable, Equatable {
    public var zones: [ZoneResult]

    public init(zones: [ZoneResult]) { self.zones = zones }
}

/// The body of `zones/lookup`.
public struct ZonesLookupRequest: Codable, Sendable, Equatable {
    public var zones: [ZoneID]

    public init(zones: [ZoneID]) { self.zones = zones }
}

/// The body of `zones/modify`.
public struct ZonesModifyRequest: Codable, Sendable, Equatable {
    /// One zone operation: `create` or `delete`.
    public struct Operation: Codable, Sendable, Equatable {
        public enum OperationType: String, Codable, Sendable {
            case create, delete
        }

        /// The zone the operation acts on, as `{"zoneID": …}`.
        public struct Target: Codable, Sendable, Equatable {
            public var zoneID: ZoneID
            public init(zoneID: ZoneID) { self.zoneID = zoneID }
        }

        public var operationType: OperationType
        public var zone: Target

        public init(_ operationType: OperationType, _ zoneID: ZoneID) {
            self.operationType = operationType
            self.zone = Target(zoneID: zoneID)
        }
    }

    public var operations: [Operation]

    public init(operations: [Operation]) { self.operations = operations }
}
